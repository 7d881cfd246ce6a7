// NodeName: a pod with spec.nodeName set fits only the node of that name.
// Mirrors pkg/scheduler/framework/plugins/nodename/node_name.go.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_NAME_H_
#define LIBSCHED_PLUGINS_NODE_NAME_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class NodeName final : public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeName";
  // ErrReason.
  static constexpr std::string_view kReason = "node(s) didn't match the requested node name";

  std::string_view Name() const override { return kName; }
  // Node Add, without a hint (any new node may carry the name).
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // REQUIRES: node.node() != null.
  Status Filter(const CycleState& state, const Pod& pod,
                const NodeInfo& node) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the verdict reads only the node and the pod.
  bool FilterIsNodeLocal(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_NAME_H_
