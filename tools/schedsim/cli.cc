#include "cli.h"

#include <charconv>

#include "loc.h"

namespace schedsim {
namespace {

uint64_t ParseUint(const std::string& flag, const std::string& s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) {
    throw InputError(flag + ": want an unsigned 64-bit integer, got \"" + s + "\"");
  }
  return v;
}

}  // namespace

std::string Usage() {
  return R"(Usage: schedsim [--config FILE] [--seed N] [--output table|json]
                [--explain NS/NAME]... [--pool-label KEY] [--strict]
                [--progress] [--batch-bytes N] [--version] [FILE...]
       schedsim explain NS/NAME [--config FILE] [--seed N]
                [--output table|json] [--strict] [FILE...]
       schedsim capacity NS/NAME [--max-replicas N] [--config FILE]
                [--seed N] [--output table|json] [--strict] [FILE...]
       schedsim drain NODE[,NODE...] [--config FILE] [--seed N]
                [--output table|json] [--strict] [FILE...]
       schedsim scale-up --template FILE... [--max-nodes N] [--config FILE]
                [--seed N] [--output table|json] [--strict] [FILE...]

Simulates kube-scheduler (its default profile, or the one --config gives)
on a cluster described by
Kubernetes objects. Nodes and pods with spec.nodeName make up the cluster;
every other pod joins the engine's scheduling queue and is scheduled one at
a time in queue order (priority descending, then namespace/name), each
assumed on its node before the next. When a pod preempts, its victims are
evicted and it is retried; pods backing off or waiting for a retry are
retried as the simulated clock moves, until nothing more can be placed.
Deployments, ReplicaSets, StatefulSets, Jobs and DaemonSets become the
pods their controllers would still create (daemon pods are scheduled
first); a kube-scheduler-simulator export is read too. Other kinds go to the engine, which keeps those
it reads (Services, PodDisruptionBudgets, ...) and counts the rest as
ignored; pods for another spec.schedulerName are left alone (and counted).

What the engine never reads (metadata.managedFields, annotations other
than the few its plugins read, Pod and Node status fields it ignores) is
dropped as the input is read, and the input reaches the engine in bounded
batches, so cluster dumps of any size the machine can hold load.

FILE is JSON or YAML (objects, Lists, multi-document YAML); "-" reads
standard input; a directory reads its *.json, *.yaml and *.yml files in name
order. Without FILE, schedsim runs the bundled example cluster.

schedsim explain NS/NAME simulates the input without that pending pod,
then explains the pod against the cluster the run leaves
(sched_engine_explain): the reasons with node counts, the nearest misses
("needs 300m more cpu on 12 nodes"), the summary an Event would carry,
and every node's verdict with each Filter plugin's and the raw,
normalized and weighted scores. --output json prints the explanation
document (docs/api.md, "Explain"). A bare NAME means namespace "default".

schedsim capacity NS/NAME simulates the input without that pending pod,
then says how many more replicas of it fit and where
(sched_engine_capacity: copies scheduled one by one, each assumed before
the next, as kube-scheduler places a ReplicaSet's pods), up to
--max-replicas N (default and at most 100000). --output json prints the
capacity document (docs/api.md, "Capacity").

schedsim drain NODE[,NODE...] simulates the input, then asks whether
those nodes can be removed from the cluster the run leaves
(sched_engine_drain): their pods evicted and scheduled again on the other
nodes in queue order, DaemonSet and mirror pods left, evictions that a
PodDisruptionBudget blocks reported, as cluster-autoscaler's scale-down
decides. --output json prints the drain document (docs/api.md, "Drain").
schedsim scale-up simulates the input, then asks how many new nodes of
each --template (a Node, JSON or YAML, as a node group's template node;
repeatable) make the pods the run left pending fit, and where they go
(sched_engine_scale_up: cluster-autoscaler's binpacking estimate, each
fit decided by the engine's Filter plugins), at most --max-nodes N new
nodes per template (1..10000, default 1000), with the pods no template
helps and why. --output json prints the scale-up document (docs/api.md,
"Scale-up").

Options:
  --config FILE        the scheduler's configuration, JSON or YAML: a
                       KubeSchedulerConfiguration (profiles, plugins,
                       pluginConfig) or a legacy Policy (kind: Policy;
                       docs/policy.md); --seed overrides its "seed".
                       A profile enabling the kube-scheduler fork's
                       LibSched plugin runs this engine with LibSched's
                       args (plugins, seed, percentageOfNodesToScore)
  --seed N             seed of the engine's random choices (ties between
                       equally scored nodes); same seed, same result
  --output table|json  table for people (default), or one JSON object:
                       {"placements":[{"pod","node"}],
                        "unschedulable":[{"pod","message"}],
                        "ignored":{"Kind":N},
                        "preemptions":[{"pod","nominatedNodeName",
                                        "victims"}],  (when any)
                        "summary":{...},"unschedulableReasons":[...],
                        "utilization":{...}}
                       (docs/schedsim.md)
  --explain NS/NAME    also show, for that pending pod, why each node was
                       rejected and how the feasible nodes scored
                       (repeatable: each pod named)
  --pool-label KEY     the node label whose values are the pools of the
                       utilization report (CPU, memory, pods and extended
                       resources requested/allocatable per pool, before
                       and after the run); default: the first of
                       cloud.google.com/gke-nodepool,
                       eks.amazonaws.com/nodegroup,
                       kubernetes.azure.com/agentpool,
                       karpenter.sh/nodepool and
                       node.kubernetes.io/instance-type that a node has
  --progress           show the progress line and the timing on stderr
                       even when it is not a terminal
  --batch-bytes N      load the input in documents of at most N bytes
                       (default 64 MiB; an object larger goes alone):
                       the engine takes at most 256 MiB per document
  --strict             input the API server would have refused is an
                       error (exit 2), not a warning: unknown fields (as
                       strict field validation reports them, checked
                       against v1.36.3's API schema), unknown kinds, pods
                       bound to nodes not in the input, priorityClassNames
                       naming no PriorityClass
  --version            print schedsim's and libsched's versions
  -h, --help           show this help

Exit status: 0 done (unschedulable pods included), 1 engine failure,
2 usage or input error (the message names the file and field), 130
interrupted by Ctrl-C (the partial result printed).
)";
}

namespace {

// "ns/name" from NS/NAME or NAME (namespace "default"); `what` names the
// flag or subcommand in the error.
std::string PodKeyArg(const std::string& what, const std::string& value) {
  if (value.empty() || value.front() == '/' || value.back() == '/') {
    throw InputError(what + ": want NAMESPACE/NAME, got \"" + value + "\"");
  }
  return value.find('/') == std::string::npos ? "default/" + value : value;
}

// NODE[,NODE...]: the names in order; an empty one is an error.
std::vector<std::string> NodeListArg(const std::string& value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t comma = value.find(',', start);
    std::string name = value.substr(start, comma - start);
    if (name.empty()) throw InputError("drain: want NODE[,NODE...], got \"" + value + "\"");
    out.push_back(std::move(name));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

Options ParseArgs(int argc, char** argv) {
  Options o;
  bool only_files = false;
  int first = 1;
  if (argc > 1 && std::string(argv[1]) == "scale-up") {
    o.command = argv[1];
    first = 2;
  } else if (argc > 1 &&
             (std::string(argv[1]) == "explain" || std::string(argv[1]) == "capacity")) {
    o.command = argv[1];
    if (argc < 3 || std::string(argv[2]).starts_with("-")) {
      throw InputError(o.command + ": want the pod, NAMESPACE/NAME (see --help)");
    }
    o.explain_pod = PodKeyArg(o.command, argv[2]);
    first = 3;
  } else if (argc > 1 && std::string(argv[1]) == "drain") {
    o.command = argv[1];
    if (argc < 3 || std::string(argv[2]).starts_with("-")) {
      throw InputError("drain: want the nodes, NODE[,NODE...] (see --help)");
    }
    o.drain_nodes = NodeListArg(argv[2]);
    first = 3;
  }
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (only_files || arg == "-" || !arg.starts_with("-")) {
      o.files.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    if (arg == "-h" || arg == "--help") {
      o.help = true;
      continue;
    }
    if (arg == "--strict" || arg == "--progress" || arg == "--version") {
      (arg == "--strict" ? o.strict : arg == "--progress" ? o.progress : o.version) = true;
      continue;
    }
    // --flag VALUE or --flag=VALUE
    std::string flag = arg, value;
    bool inline_value = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inline_value = true;
    }
    if (flag != "--seed" && flag != "--output" && flag != "--explain" && flag != "--config" &&
        flag != "--batch-bytes" && flag != "--pool-label" &&
        (flag != "--max-replicas" || o.command != "capacity") &&
        ((flag != "--template" && flag != "--max-nodes") || o.command != "scale-up")) {
      throw InputError("unknown flag " + flag + " (see --help)");
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw InputError(flag + ": missing value");
      value = argv[++i];
    }
    if (flag == "--template") {
      if (value.empty()) throw InputError("--template: want a file name");
      o.templates.push_back(value);
    } else if (flag == "--max-nodes") {
      o.max_nodes = ParseUint(flag, value);
      if (*o.max_nodes == 0 || *o.max_nodes > 10000) {
        throw InputError("--max-nodes: want 1..10000");
      }
    } else if (flag == "--max-replicas") {
      o.max_replicas = ParseUint(flag, value);
      if (*o.max_replicas == 0 || *o.max_replicas > 100000) {
        throw InputError("--max-replicas: want 1..100000");
      }
    } else if (flag == "--seed") {
      o.seed = ParseUint(flag, value);
    } else if (flag == "--batch-bytes") {
      o.batch_bytes = ParseUint(flag, value);
      if (*o.batch_bytes == 0) throw InputError("--batch-bytes: want at least 1");
    } else if (flag == "--config") {
      if (value.empty()) throw InputError("--config: want a file name");
      o.config = value;
    } else if (flag == "--pool-label") {
      if (value.empty()) throw InputError("--pool-label: want a node label key");
      o.pool_label = value;
    } else if (flag == "--output") {
      if (value != "table" && value != "json") {
        throw InputError("--output: want table or json, got \"" + value + "\"");
      }
      o.output = value == "json" ? OutputFormat::kJson : OutputFormat::kTable;
    } else {
      o.explain.push_back(PodKeyArg("--explain", value));
    }
  }
  if (o.command == "scale-up" && o.templates.empty() && !o.help && !o.version) {
    throw InputError("scale-up: want at least one --template FILE (see --help)");
  }
  if (!o.command.empty() && (!o.explain.empty() || o.batch_bytes || !o.pool_label.empty())) {
    throw InputError(o.command +
                     ": --explain, --batch-bytes and --pool-label are for the simulation");
  }
  return o;
}

}  // namespace schedsim
