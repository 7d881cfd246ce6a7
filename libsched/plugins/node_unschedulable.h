// NodeUnschedulable: rejects nodes with spec.unschedulable set, unless the
// pod tolerates the node.kubernetes.io/unschedulable:NoSchedule taint.
// Mirrors pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.
//
// Upstream has no PreFilter here. Ours decides the toleration once per
// cycle, because toleration keys are interned and only PreFilter can reach
// the interner; a pod that tolerates the taint gets Skip, which is exactly
// upstream's verdict (its Filter passes every node for such a pod).
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_UNSCHEDULABLE_H_
#define LIBSCHED_PLUGINS_NODE_UNSCHEDULABLE_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class NodeUnschedulable final : public PreFilterPlugin,
                                public FilterPlugin,
                                public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeUnschedulable";
  // ErrReasonUnschedulable.
  static constexpr std::string_view kReasonUnschedulable = "node(s) were unschedulable";
  // v1.TaintNodeUnschedulable.
  static constexpr std::string_view kTaintNodeUnschedulable = "node.kubernetes.io/unschedulable";

  std::string_view Name() const override { return kName; }
  // Node Add|UpdateNodeTaint: Queue when the node is (now) schedulable;
  // Pod UpdatePodToleration: Queue when the pod itself now tolerates the
  // unschedulable taint.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // Skip when the pod tolerates {node.kubernetes.io/unschedulable, NoSchedule}.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // REQUIRES: PreFilter returned Success in this cycle; node.node() != null.
  Status Filter(const CycleState& state, const Pod& pod,
                const NodeInfo& node) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the verdict reads only the node and the pod.
  bool FilterIsNodeLocal(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_UNSCHEDULABLE_H_
