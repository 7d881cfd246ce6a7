#include "libsched/plugins/node_unschedulable.h"

namespace sched {

Status NodeUnschedulable::PreFilter(CycleState& /*state*/, const Pod& pod,
                                    const ClusterState& snapshot,
                                    PreFilterResult* /*result*/) const {
  // Find, not Intern (the snapshot is const): a string never interned is in
  // no decoded toleration, so a kNoAtom key or value can only meet a
  // toleration's wildcard (empty) key, which Tolerates() does not compare.
  const Interner& in = snapshot.interner();
  const Taint taint{in.Find(kTaintNodeUnschedulable), in.Find(""), TaintEffect::kNoSchedule};
  for (const Toleration& t : pod.tolerations) {
    if (t.Tolerates(taint)) return Status(Code::kSkip);
  }
  return Status();
}

Status NodeUnschedulable::Filter(const CycleState& /*state*/, const Pod& /*pod*/,
                                 const NodeInfo& node) const {
  if (!node.node()->unschedulable) return Status();
  return Status(Code::kUnschedulableAndUnresolvable, kReasonUnschedulable);
}

}  // namespace sched
