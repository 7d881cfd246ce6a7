#include "cli.h"

#include <charconv>

#include "loc.h"

namespace schedsim {
namespace {

uint64_t ParseSeed(const std::string& s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) {
    throw InputError("--seed: want an unsigned 64-bit integer, got \"" + s + "\"");
  }
  return v;
}

}  // namespace

std::string Usage() {
  return R"(Usage: schedsim [--config FILE] [--seed N] [--output table|json]
                [--explain NS/NAME] [FILE...]

Simulates kube-scheduler (its default profile, or the one --config gives)
on a cluster described by
Kubernetes objects. Nodes and pods with spec.nodeName make up the cluster;
every other pod joins the engine's scheduling queue and is scheduled one at
a time in queue order (priority descending, then namespace/name), each
assumed on its node before the next. When a pod preempts, its victims are
evicted and it is retried; pods backing off or waiting for a retry are
retried as the simulated clock moves, until nothing more can be placed.
Deployments, ReplicaSets, StatefulSets and Jobs become the pods their
controllers would create. Other kinds go to the engine, which keeps those
it reads (Services, PodDisruptionBudgets, ...) and counts the rest as
ignored; pods for another spec.schedulerName are left alone (and counted).

FILE is JSON or YAML (objects, Lists, multi-document YAML); "-" reads
standard input; a directory reads its *.json, *.yaml and *.yml files in name
order. Without FILE, schedsim runs the bundled example cluster.

Options:
  --config FILE        the scheduler's configuration, JSON or YAML: a
                       KubeSchedulerConfiguration (profiles, plugins,
                       pluginConfig) or a legacy Policy (kind: Policy;
                       docs/policy.md); --seed overrides its "seed"
  --seed N             seed of the engine's random choices (ties between
                       equally scored nodes); same seed, same result
  --output table|json  table for people (default), or one JSON object:
                       {"placements":[{"pod","node"}],
                        "unschedulable":[{"pod","message"}],
                        "ignored":{"Kind":N},
                        "preemptions":[{"pod","nominatedNodeName",
                                        "victims"}]}  (when any)
  --explain NS/NAME    also show, for that pending pod, why each node was
                       rejected and how the feasible nodes scored
  -h, --help           show this help

Exit status: 0 done (unschedulable pods included), 1 engine failure,
2 usage or input error (the message names the file and field).
)";
}

Options ParseArgs(int argc, char** argv) {
  Options o;
  bool only_files = false;
  for (int i = 1; i < argc; ++i) {
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
    // --flag VALUE or --flag=VALUE
    std::string flag = arg, value;
    bool inline_value = false;
    if (size_t eq = arg.find('='); eq != std::string::npos) {
      flag = arg.substr(0, eq);
      value = arg.substr(eq + 1);
      inline_value = true;
    }
    if (flag != "--seed" && flag != "--output" && flag != "--explain" && flag != "--config") {
      throw InputError("unknown flag " + flag + " (see --help)");
    }
    if (!inline_value) {
      if (i + 1 >= argc) throw InputError(flag + ": missing value");
      value = argv[++i];
    }
    if (flag == "--seed") {
      o.seed = ParseSeed(value);
    } else if (flag == "--config") {
      if (value.empty()) throw InputError("--config: want a file name");
      o.config = value;
    } else if (flag == "--output") {
      if (value != "table" && value != "json") {
        throw InputError("--output: want table or json, got \"" + value + "\"");
      }
      o.output = value == "json" ? OutputFormat::kJson : OutputFormat::kTable;
    } else {
      if (value.empty() || value.front() == '/' || value.back() == '/') {
        throw InputError("--explain: want NAMESPACE/NAME, got \"" + value + "\"");
      }
      o.explain = value.find('/') == std::string::npos ? "default/" + value : value;
    }
  }
  return o;
}

}  // namespace schedsim
