#include "libsched/plugins/helper/node_match.h"

namespace sched {

bool MatchesRequiredNodeAffinity(const Pod& pod, const Node& node, const Interner& interner) {
  for (const Requirement& r : pod.node_selector) {
    if (!r.Matches(node.labels, interner)) return false;
  }
  return !pod.required_node_affinity ||
         pod.required_node_affinity->Matches(node.labels, node.name_atom, interner);
}

bool HasUntoleratedDoNotScheduleTaint(const Node& node, std::span<const Toleration> tolerations) {
  for (const Taint& taint : node.taints) {
    if (taint.effect != TaintEffect::kNoSchedule && taint.effect != TaintEffect::kNoExecute) {
      continue;
    }
    bool tolerated = false;
    for (const Toleration& t : tolerations) tolerated = tolerated || t.Tolerates(taint);
    if (!tolerated) return true;
  }
  return false;
}

}  // namespace sched
