#include "libsched/framework/nominated_pods_by_node.h"

#include "libsched/state/node_index_room.h"

namespace sched {

void NominatedPodsByNode::File(const ClusterState& state, std::string_view name, Resolved& r,
                               Pods pods, uint64_t version) {
  if (!Holds(state, r)) {
    Unfile(r);
    const NodeInfo* ni = state.FindNode(name);
    r.node = ni == nullptr ? nullptr : ni->shared_node();
    r.index = ni == nullptr ? 0 : ni->index();
  }
  if (version == 0 || r.version != version) {
    r.keys.clear();
    for (const auto& p : pods) r.keys.push_back(NominatedKey::Of(*p));
    r.version = version;
  }
  r.pods = pods;
  // No such node (asked by name, if at all).
  if (r.node == nullptr || r.index >= slots_.size()) return;
  slots_[r.index] = Slot{build_, r.node.get(), pods, version, r.keys.data()};
}

void NominatedPodsByNode::Unfile(const Resolved& r) {
  if (r.node != nullptr && r.index < slots_.size() && slots_[r.index].node == r.node.get()) {
    slots_[r.index].build = 0;
  }
}

void NominatedPodsByNode::Walk(const ClusterState& state, const PodNominator& nominator) {
  ++build_;
  size_t seen = 0;
  nominator.ForEachNominatedNode([&](std::string_view name, Pods pods, uint64_t version) {
    ++seen;
    auto it = resolved_.find(name);
    if (it == resolved_.end()) it = resolved_.emplace(name, Resolved{}).first;
    it->second.build = build_;
    File(state, name, it->second, pods, version);
  });
  // Names no longer nominated: their Nodes (and strings) go now.
  if (resolved_.size() > seen) {
    std::erase_if(resolved_, [&](const auto& entry) { return entry.second.build != build_; });
  }
}

void NominatedPodsByNode::Build(const ClusterState& state, const PodNominator& nominator) {
  state_ = &state;
  nominator_ = &nominator;
  const size_t bound = state.NodeIndexBound();
  if (slots_.size() < bound) {
    slots_.resize(bound);
  } else if (FarAboveNodeIndexBound(slots_.size(), bound)) {
    TrimTo(slots_, bound);
  }
  const bool since = nominator.ForEachNominatedNodeSince(
      &mark_, [&](std::string_view name, Pods pods, uint64_t version) {
        auto it = resolved_.find(name);
        if (pods.empty()) {  // gone: its Node (and string) too
          if (it == resolved_.end()) return;
          Unfile(it->second);
          resolved_.erase(it);
          return;
        }
        if (it == resolved_.end()) it = resolved_.emplace(name, Resolved{}).first;
        File(state, name, it->second, pods, version);
      });
  if (!since) return Walk(state, nominator);
  // The lists not revisited: their nodes, where the state moved them.
  for (auto& [name, r] : resolved_) {
    if (!Holds(state, r)) File(state, name, r, r.pods, r.version);
  }
}

}  // namespace sched
