#include "libsched/framework/nominated_pods_by_node.h"

namespace sched {

void NominatedPodsByNode::Build(const ClusterState& state, const PodNominator& nominator) {
  nominator_ = &nominator;
  slots_.assign(state.NodeIndexBound(), Slot{});
  for (const NodeInfo* ni : state.NodeList()) slots_[ni->index()].node = ni->node();
  size_t nominated = 0;
  nominator.ForEachNominatedNode([&](std::string_view name, Pods pods, uint64_t version) {
    ++nominated;
    auto [it, added] = resolved_.try_emplace(name.data(), Resolved{NodeInfo::kNoIndex, nullptr});
    Resolved& r = it->second;
    // The same address may hold another name now, or the node may be gone.
    if (added || r.index >= slots_.size() || slots_[r.index].node != r.node ||
        r.node->name != name) {
      const NodeInfo* ni = state.FindNode(name);
      r = ni == nullptr ? Resolved{NodeInfo::kNoIndex, nullptr} : Resolved{ni->index(), ni->node()};
    }
    // Only where the node list's node is this one; any other asks by name.
    if (r.index < slots_.size() && r.node != nullptr && slots_[r.index].node == r.node) {
      slots_[r.index].pods = pods;
      slots_[r.index].version = version;
    }
  });
  // Addresses of names no longer nominated pile up; start afresh now and then.
  if (resolved_.size() > 2 * nominated + 1024) resolved_.clear();
}

}  // namespace sched
