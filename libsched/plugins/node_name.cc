#include "libsched/plugins/node_name.h"

namespace sched {

std::vector<ClusterEventWithHint> NodeName::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  return {{{EventResource::kNode, action::kAdd, {}}, nullptr}};
}

Status NodeName::Filter(const CycleState& /*state*/, const Pod& pod,
                        const NodeInfo& node) const {
  if (pod.node_name.empty() || pod.node_name == node.node()->name) return Status();
  return Status(Code::kUnschedulableAndUnresolvable, kReason);
}

void NodeName::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.Add(pod.node_name);
}

}  // namespace sched
