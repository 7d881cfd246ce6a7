#include "libsched/plugins/node_unschedulable.h"

namespace sched {
namespace {

bool ToleratesUnschedulableTaint(const Pod& pod, const Interner& in) {
  if (pod.tolerations.empty()) return false;  // most pods: no lookups
  // Find, not Intern (the interner is const): a string never interned is in
  // no decoded toleration, so a kNoAtom key or value can only meet a
  // toleration's wildcard (empty) key, which Tolerates() does not compare.
  const Taint taint{in.Find(NodeUnschedulable::kTaintNodeUnschedulable), in.Find(""),
                    TaintEffect::kNoSchedule};
  for (const Toleration& t : pod.tolerations) {
    if (t.Tolerates(taint)) return true;
  }
  return false;
}

}  // namespace

Status NodeUnschedulable::PreFilter(CycleState& /*state*/, const Pod& pod,
                                    const ClusterState& snapshot,
                                    PreFilterResult* /*result*/) const {
  if (ToleratesUnschedulableTaint(pod, snapshot.interner())) return Status(Code::kSkip);
  return Status();
}

std::vector<ClusterEventWithHint> NodeUnschedulable::EventsToRegister(
    const ClusterState& cluster) const {
  const Interner* in = &cluster.interner();
  auto node_changed = [](const Pod& /*pod*/, const EventObject& old_obj,
                         const EventObject& new_obj) {
    const Node* old_node = AsNode(old_obj);
    const Node* new_node = AsNode(new_obj);
    if (new_node == nullptr) return QueueingHint::kQueue;
    const bool now_schedulable = !new_node->unschedulable;
    const bool was_unschedulable = old_node == nullptr || old_node->unschedulable;
    return now_schedulable && was_unschedulable ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  };
  auto toleration_added = [in](const Pod& pod, const EventObject& /*old_obj*/,
                               const EventObject& new_obj) {
    const Pod* modified = AsPod(new_obj);
    if (modified == nullptr) return QueueingHint::kQueue;
    return SamePod(pod, *modified) && ToleratesUnschedulableTaint(*modified, *in)
               ? QueueingHint::kQueue
               : QueueingHint::kQueueSkip;
  };
  return {
      {{EventResource::kNode, action::kAdd | action::kUpdateNodeTaint, {}}, node_changed},
      {{EventResource::kPod, action::kUpdatePodToleration, {}}, toleration_added},
  };
}

Status NodeUnschedulable::Filter(const CycleState& /*state*/, const Pod& /*pod*/,
                                 const NodeInfo& node) const {
  if (!node.node()->unschedulable) return Status();
  return Status(Code::kUnschedulableAndUnresolvable, kReasonUnschedulable);
}

void NodeUnschedulable::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.AddAll(std::span<const Toleration>(pod.tolerations));
}

}  // namespace sched
