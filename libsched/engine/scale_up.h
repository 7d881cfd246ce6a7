// Scale-up: how many new nodes of each node template make pending pods
// fit, and where they go — cluster-autoscaler's binpacking estimate
// (cluster-autoscaler/estimator/binpacking_estimator.go, with the steps of
// its scale-up around it), every fit decided by the engine's own plugins
// against the cluster plus the new nodes. Then all of it is undone.
//
// The rule (docs/api.md, "Scale-up"):
//  1. Existing nodes first (CA's FilterOutSchedulable): the pods, in the
//     order given, are scheduled with full cycles and assumed where they
//     fit. Once a pod of an equivalence group fits nowhere, the group's
//     later pods are not tried there (CA's SimilarPodsScheduling).
//     Groups: same profile, equivalence class (Scheduler::PodClass) and
//     priority.
//  2. Per template, independently (CA's expansion option per node group),
//     on the cluster as step 1 left it:
//     a. A group whose first pod does not pass PreFilter+Filter on one
//        fresh node of the template is not helped by it (CA's
//        SchedulablePodGroups): the pods get that node's FitError.
//     b. The other groups in decreasing order of cpu/allocatable.cpu +
//        memory/allocatable.memory of the template (CA's
//        DecreasingPodOrderer; equal scores keep their order).
//     c. Per group, First Fit on the new nodes made so far (each pod from
//        the node the previous pod of the group went to, in creation order,
//        wrapping; CA's FitsAnyNodeMatching resumes where it last
//        succeeded), until a pod fits none; the rest each try the last new
//        node, else a fresh one is added — unless the last is still empty
//        (the group stops: it would not fit a fresh one either) or
//        max_nodes exist (stops); a pod that does not fit the fresh node
//        stops the group (zonal spread, say). Placed pods are assumed.
//     d. The estimate is the number of new nodes with pods.
//  New nodes are copies of the template named "<template>-scaleup-<i>"
//  (i from 0) with label kubernetes.io/hostname set to that name (CA's
//  DeepCopyTemplateNode gives each its own hostname). The template's
//  DaemonSet pods are not modelled: give it the allocatable left for pods.
//
// Thread-safety: none; the caller serializes (the engine holds its lock).
#ifndef LIBSCHED_ENGINE_SCALE_UP_H_
#define LIBSCHED_ENGINE_SCALE_UP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"

namespace sched {

// Bounds of one question.
inline constexpr int64_t kMaxScaleUpPods = 100000;
inline constexpr int64_t kMaxScaleUpNodes = 10000;     // per template
inline constexpr int64_t kDefaultScaleUpNodes = 1000;  // CA's --max-nodes-per-scaleup
inline constexpr int64_t kMaxScaleUpTemplates = 100;
inline constexpr std::string_view kScaleUpNodeInfix = "-scaleup-";

struct NodeTemplate {
  std::shared_ptr<const Node> node;          // its name names the template
  int64_t max_nodes = kDefaultScaleUpNodes;  // 1..kMaxScaleUpNodes
};

// Why a template leaves a pod pending.
enum class ScaleUpReason {
  kNoFit,     // the pod does not fit a fresh node of the template (2a)
  kNewNode,   // it did, but not a fresh node in the estimate (2c)
  kMaxNodes,  // it needs a node beyond max_nodes (2c)
};
std::string_view ScaleUpReasonName(ScaleUpReason r);  // "NoFit", "NewNode", "MaxNodes"

struct ScaleUpPending {
  size_t pod;  // index in the request's pods
  ScaleUpReason reason;
  std::string message;  // the FitError on the template's node (empty for kMaxNodes)
};

struct TemplateEstimate {
  int64_t nodes = 0;  // new nodes with pods (CA's estimate)
  // New nodes with their pod counts, in creation order (empty ones too).
  std::vector<std::pair<std::string, int64_t>> new_nodes;
  // (pod index, new node), in the order the estimate placed them.
  std::vector<std::pair<size_t, std::string>> placements;
  std::vector<ScaleUpPending> pending;  // in pod index order
};

struct ScaleUpResult {
  // (pod index, node) of the pods that fit existing nodes, in order.
  std::vector<std::pair<size_t, std::string>> existing;
  std::vector<TemplateEstimate> templates;  // as the request's templates
  // Pods on no existing node that no template's fresh node fits (kNoFit
  // with every template), in index order.
  std::vector<size_t> unhelped;
};

// Runs the estimate for `pods` (pending: node_name empty, distinct keys,
// none of them a pod of `state`) with templates whose new node names are
// not nodes of `state`. `scheduler_for` gives a pod's profile. `state` is
// put back as it was (Batches never committed); the schedulers' random
// sources and start indexes move: the caller rewinds them. New nodes'
// names are interned into `state`'s interner under the caller's
// checkpoint.
ScaleUpResult ScaleUp(const std::function<Scheduler&(const Pod&)>& scheduler_for,
                      ClusterState& state, const PodNominator* nominator,
                      std::span<const std::shared_ptr<const Pod>> pods,
                      std::span<const NodeTemplate> templates);

}  // namespace sched

#endif  // LIBSCHED_ENGINE_SCALE_UP_H_
