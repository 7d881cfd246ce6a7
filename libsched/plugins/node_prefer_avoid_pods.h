// NodePreferAvoidPods (legacy, not in the default profile): scores 0 the
// nodes whose scheduler.alpha.kubernetes.io/preferAvoidPods annotation names
// the pod's controller, 100 every other node. The Policy API's
// NodePreferAvoidPodsPriority (weight 10000 by default there) translates
// onto it. Mirrors
// pkg/scheduler/framework/plugins/nodepreferavoidpods/node_prefer_avoid_pods.go
// (kubernetes v1.21-v1.23; removed in v1.24).
//
// Only a controlling ownerReference of kind ReplicationController or
// ReplicaSet counts (whatever its apiVersion); an annotation entry matches
// when its podController has the same kind and uid. A malformed annotation
// is ignored when the node is decoded (Node::prefer_avoid_pods empty). An
// entry without podController never matches (upstream dereferences it).
// No NormalizeScore.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_PREFER_AVOID_PODS_H_
#define LIBSCHED_PLUGINS_NODE_PREFER_AVOID_PODS_H_

#include <cstdint>
#include <string_view>

#include "libsched/framework/plugin.h"

namespace sched {

class NodePreferAvoidPods final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodePreferAvoidPods";

  std::string_view Name() const override { return kName; }
  // REQUIRES: node.node() != null. Always Success.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_PREFER_AVOID_PODS_H_
