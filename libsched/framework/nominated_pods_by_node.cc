#include "libsched/framework/nominated_pods_by_node.h"

#include "libsched/state/node_index_room.h"

namespace sched {

bool NominatedPodsByNode::Holds(const ClusterState& state, const Resolved& r,
                                std::string_view name, uint64_t version) {
  if (r.node == nullptr) return false;
  // The Node is held, so its address is no other Node's: the state still
  // has it at r.index. The same version is the same list, so the same name
  // (the address of the name may hold another name now).
  const NodeInfo* at = state.NodeAtOrNull(r.index);
  if (at == nullptr || at->node() != r.node.get()) return false;
  return (version != 0 && r.version == version) || r.node->name == name;
}

void NominatedPodsByNode::Build(const ClusterState& state, const PodNominator& nominator) {
  state_ = &state;
  nominator_ = &nominator;
  ++build_;
  const size_t bound = state.NodeIndexBound();
  if (slots_.size() < bound) {
    slots_.resize(bound);
  } else if (FarAboveNodeIndexBound(slots_.size(), bound)) {
    TrimTo(slots_, bound);
  }
  nominated_ = 0;
  nominator.ForEachNominatedNode([&](std::string_view name, Pods pods, uint64_t version) {
    ++nominated_;
    Resolved& r = resolved_[name.data()];
    r.build = build_;
    if (!Holds(state, r, name, version)) {
      const NodeInfo* ni = state.FindNode(name);
      r.node = ni == nullptr ? nullptr : ni->shared_node();
      r.index = ni == nullptr ? 0 : ni->index();
      r.version = 0;
    }
    // No such node (asked by name, if at all).
    if (r.node == nullptr || r.index >= slots_.size()) return;
    if (version == 0 || r.version != version) {
      r.keys.clear();
      for (const auto& p : pods) r.keys.push_back(NominatedKey::Of(*p));
      r.version = version;
    }
    slots_[r.index] = Slot{build_, r.node.get(), pods, version, r.keys.data()};
  });
  // Names no longer nominated: their Nodes (and strings) go now. One pass
  // over the kept names, as long as the pass above (Preemption at 5,000
  // nodes: +4% of Build); erasing moves no kept entry the slots point into.
  if (resolved_.size() > nominated_) {
    std::erase_if(resolved_, [&](const auto& entry) { return entry.second.build != build_; });
  }
}

YieldedNominations NominatedPodsByNode::Yielded(const NodeInfo& node, const Pod& pod,
                                                NominatedKey pod_key,
                                                std::vector<uint32_t>* positions) const {
  const Slot* s = Find(node);
  // Not the state's node: its pods by name, unversioned.
  if (s == nullptr) return UnversionedYielded(On(node), pod, positions);
  positions->clear();
  for (size_t k = 0; k < s->pods.size(); ++k) {
    if (YieldsToNominated(s->keys[k], *s->pods[k], pod_key, pod)) {
      positions->push_back(static_cast<uint32_t>(k));
    }
  }
  return {s->version, *positions};
}

}  // namespace sched
