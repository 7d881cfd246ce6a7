// Plan: the objects of one scheduler_perf workload at one cluster size,
// generated from upstream's own workload and template files (the corpus
// copy of test/integration/scheduler_perf/*/performance-config.yaml and
// templates/*.yaml, converted to JSON).
//
// How objects are made mirrors scheduler_perf (executor.go, node_util.go):
// nodes get the kubernetes.io/hostname label and the
// labelNodePrepareStrategy values round-robin; pods of a createPods op
// without a namespace go to "namespace-<op index>". Names are generateName
// plus a zero-padded index instead of random suffixes, so every
// implementation sees the same names. What the API server would default
// (status.allocatable from capacity, spec.schedulerName, metadata.uid) is
// filled in here, because neither the engine nor a fake clientset does it.
//
// Project workloads (corpus/workloads/libsched.performance-config.json)
// add the op createDeployments: countParam Deployments of replicasParam
// pods of podTemplatePath (pod-default) in `namespace`, each a Service
// (selector app=<deployment>) and a ReplicaSet (selector app and
// pod-template-hash) whose pods carry those labels and a controller
// ownerReference to it, as the Deployment controller makes them; so
// PodTopologySpread's system default constraints select the siblings.
// With replaceNodesParam it is a Rollover. Deployment k is "deploy-<k>"
// over the whole plan; its ReplicaSet "deploy-<k>-h<k>", pods
// "<ReplicaSet>-<i>".
//
// Size selection: the first workload entry without a feature-gate variant
// suffix ('_' in its name) whose initNodes equals the size; when there is
// none, the largest such entry with every count scaled by size/initNodes
// (e.g. 15,000 nodes = the 5,000-node counts times 3; PreemptionBasic's
// 1,000-node entry for 500 and 5,000 nodes). A named entry (LoadPlan's
// entry_name, e.g. "5000Nodes_10000Pods") is taken instead, scaled the same
// way; a test case without it is a PlanError. The name kPerformanceEntry
// ("performance") stands for the entry upstream's performance job holds
// to a throughput threshold: the test case's first entry labelled
// "performance" with a "threshold" (SchedulingBasic: 5000Nodes_10000Pods,
// Unschedulable: 5kNodes/100Init/10kPods, SchedulingPodAffinity:
// 5000Nodes_5000Pods), else its first entry labelled "performance"
// (PreemptionBasic: 1000Nodes; the project's own workloads label theirs),
// else the default choice.
#ifndef BENCH_WORKLOAD_PLAN_H_
#define BENCH_WORKLOAD_PLAN_H_

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

inline constexpr char kPerformanceEntry[] = "performance";

// A corpus file that is missing or not what scheduler_perf would accept.
class PlanError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Pods of one createPods op, or of one or more Deployments, as compact JSON
// objects (pending: no nodeName).
struct PodBatch {
  std::vector<std::string> objects;  // the Deployments' Services and ReplicaSets, applied first
  std::vector<std::string> pods;
  std::vector<std::string> names;  // "namespace/name", same order as pods
};

// A churn op (scheduler_perf's churnOp, executor.go runChurnOp): every
// interval, for each template, "create" mode makes one object; "recreate"
// mode keeps `number` slots per template and, in turn, fills an empty slot
// with a new object or deletes the slot's object. So with number 1 the
// ticks alternate: create one of each, delete them, create new ones.
// The first tick is at the start of the measured op (upstream's ticker
// fires after the first interval: here a run shorter than the interval
// still meets churn).
struct Churn {
  std::string namespace_name;           // of namespaced objects: "namespace-<op index>"
  std::vector<std::string> templates;   // Pod, Node or Service JSON, with generateName
  bool recreate = false;
  int number = 1;                       // recreate: slots per template
  int interval_ms = 0;
};

// One object a churn tick creates or deletes.
struct ChurnEvent {
  bool deleted = false;
  std::string kind;    // "Pod", "Node" or "Service"
  std::string name;    // "namespace/name" of a Pod, else the name
  std::string object;  // JSON, as applied (a deletion carries the same object)
};

// The measured op of a rollover workload (project workloads, not
// scheduler_perf's): each round creates one Deployment and waits for its
// pods, then deletes the oldest Deployment still there (pods, ReplicaSet,
// Service) and drains and replaces `replace_nodes` nodes, oldest first
// (their pods deleted, as the pod garbage collector would, then the node;
// a new node with a new name takes its place).
struct Rollover {
  std::vector<PodBatch> rounds;          // one Deployment each
  int replace_nodes = 0;                 // per round
  std::vector<std::string> spare_nodes;  // the replacements, in order of use
};

struct Plan {
  std::string workload;                 // e.g. "SchedulingBasic"
  std::string entry;                    // upstream workload entry used, e.g. "500Nodes"
  double scale = 1;                     // factor applied to the entry's counts
  std::vector<std::string> nodes;       // Node JSON objects
  std::vector<std::string> namespaces;  // Namespace JSON objects
  std::vector<PodBatch> init;           // createPods ops before the measured one
  PodBatch measured;                    // the op with collectMetrics (all rounds' pods)
  std::optional<Churn> churn;
  std::optional<Rollover> rollover;
  std::string zone_key;                          // label of labelNodePrepareStrategy, "" if none
  std::map<std::string, std::string> node_zone;  // node name -> its zone_key value
};

// The workloads this benchmark knows, in report order.
const std::vector<std::string>& KnownWorkloads();

// Reads <corpus>/workloads/*.json and <corpus>/templates/*.json and builds
// the plan of `workload` at `nodes` nodes. Throws PlanError.
Plan LoadPlan(const std::string& corpus, const std::string& workload, int nodes,
              const std::string& entry_name = "");

// What churn tick `tick` (0-based) creates and deletes, in template order.
// Object k of a template is named generateName + k (5 digits) and gets
// what the API server defaults (a Node's allocatable from its capacity, a
// Pod's schedulerName, uids as plan.cc makes them).
std::vector<ChurnEvent> ChurnTick(const Churn& churn, int tick);

}  // namespace bench

#endif  // BENCH_WORKLOAD_PLAN_H_
