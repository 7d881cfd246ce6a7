// The simulated cluster as the input describes it: what the engine holds
// (nodes, bound pods, every other object) and the queue of pending pods.
#ifndef TOOLS_SCHEDSIM_CLUSTER_H_
#define TOOLS_SCHEDSIM_CLUSTER_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "diag.h"
#include "input.h"
#include "json.h"

namespace schedsim {

// A pod for the scheduler: it has no spec.nodeName and is for the default
// scheduler.
struct PendingPod {
  std::string key;  // "namespace/name"
  cJSON* json;      // the Pod
  // Where an engine error path inside the pod points in the input: the Pod
  // itself, or its workload's spec.template.
  Loc loc;
  // Made by a DaemonSet: scheduled before the other pending pods, as the
  // DaemonSet controller's pods are there before the workloads'.
  bool daemon = false;
};

struct Cluster {
  Input input;                     // owns the parsed trees
  std::vector<JsonPtr> generated;  // pods expanded from workloads
  // Objects for sched_engine_apply: Nodes first, then bound pods and every
  // kind the simulator does not consume itself (the engine counts those it
  // ignores), each in input order.
  std::vector<InputObject> resident;
  std::vector<PendingPod> pending;  // in input order
  // Pending pods left to other schedulers, by spec.schedulerName.
  std::map<std::string, int64_t> other_schedulers;
};

// Sorts the input into a Cluster: resolves priorities from PriorityClasses,
// names objects that only have generateName, expands workloads and
// DaemonSets into the pods their controllers would still make (not those
// the input has, by controller ownerReference),
// and collects the pods without spec.nodeName whose spec.schedulerName is
// one of `schedulers` (kube-scheduler leaves the others alone). A pod defined twice,
// bound or pending, keeps its later definition (as a second `kubectl apply`
// would), with a warning.
// Pods bound to a node the input lacks and priorityClassNames naming no
// class are reported to `diag`.
// Throws InputError for a missing or mistyped field the simulator reads.
Cluster BuildCluster(Input input, const std::set<std::string>& schedulers, Diagnostics& diag);

// The profiles' schedulerNames of an engine config (null, a Policy, or a
// config without profiles: default-scheduler), as the engine defaults them.
std::set<std::string> ProfileNames(const cJSON* config);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_CLUSTER_H_
