#include "libsched/plugins/node_prefer_avoid_pods.h"

namespace sched {

Status NodePreferAvoidPods::Score(const CycleState& /*state*/, const Pod& pod, const NodeInfo& node,
                                  int64_t* score) const {
  *score = kMaxNodeScore;
  if (pod.controller_ref_kind != "ReplicationController" &&
      pod.controller_ref_kind != "ReplicaSet") {
    return Status();
  }
  for (const AvoidPodsEntry& e : node.node()->prefer_avoid_pods) {
    if (e.kind == pod.controller_ref_kind && e.uid == pod.controller_uid) {
      *score = 0;
      break;
    }
  }
  return Status();
}

}  // namespace sched
