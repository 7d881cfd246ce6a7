#include "libsched/state/pod_label_index.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <functional>

#include "libsched/state/room_after_erase.h"

namespace sched {

size_t PodLabelIndex::KeyHash::operator()(const Key& k) const {
  uint64_t h = (uint64_t{k.ns} << 1) | k.terminating;
  for (const auto& [key, value] : k.labels.entries()) {
    h = h * 0x9E3779B97F4A7C15ULL ^ ((uint64_t{key} << 32) | value);
  }
  return std::hash<uint64_t>()(h);
}

void PodLabelIndex::Add(const Pod& pod, uint32_t node, UndoLog* log) {
  Groups& groups = groups_.Mutable(log);
  auto [it, inserted] =
      undo::TryEmplace(log, groups, Key{pod.ns_atom, pod.labels, pod.terminating});
  Group& g = it->second.Mutable(log);
  if (inserted) {  // a new entry: undone by its erase
    BumpVersion(log);
    g.sample.ns = pod.ns;
    g.sample.ns_atom = pod.ns_atom;
    g.sample.labels = pod.labels;
    g.sample.terminating = pod.terminating;
  }
  auto [pos, added] = undo::TryEmplace(log, g.position, node, g.nodes.size());
  if (added) {
    undo::PushBack(log, g.nodes, std::pair<uint32_t, int64_t>(node, 1));
  } else {
    undo::SaveAt(log, g.nodes, pos->second);
    ++g.nodes[pos->second].second;
  }
}

void PodLabelIndex::Remove(const Pod& pod, uint32_t node, UndoLog* log) {
  const Key key{pod.ns_atom, pod.labels, pod.terminating};
  if (!groups_->contains(key)) return;
  Groups& groups = groups_.Mutable(log);
  auto it = groups.find(key);
  Group& g = it->second.Mutable(log);
  auto pos = g.position.find(node);
  if (pos == g.position.end()) return;
  const size_t i = pos->second;
  undo::SaveAt(log, g.nodes, i);
  if (--g.nodes[i].second > 0) return;
  // Swap-remove the node's entry.
  undo::Erase(log, g.position, pos);
  if (i + 1 != g.nodes.size()) {
    undo::SaveAt(log, g.nodes, i);
    g.nodes[i] = g.nodes.back();
    auto moved = g.position.find(g.nodes[i].first);
    undo::Save(log, moved->second);
    moved->second = i;
  }
  undo::PopBack(log, g.nodes);
  if (g.nodes.empty()) {
    undo::Erase(log, groups, it);
    BumpVersion(log);
    return;
  }
  undo::Shrink(log, g.position);
  undo::Shrink(log, g.nodes);
}

void PodLabelIndex::CountPairs(const Pod& pod, std::span<const uint64_t> pairs, int64_t delta,
                               UndoLog* log) {
  if (pairs.empty()) return;
  const Key key{pod.ns_atom, pod.labels, pod.terminating};
  if (!groups_->contains(key)) return;
  Group& g = groups_.Mutable(log).find(key)->second.Mutable(log);
  for (const uint64_t pair : pairs) undo::AddCount(log, g.pairs, pair, delta);
}

void PodLabelIndex::DropKey(Atom key, UndoLog* log) {
  for (auto& [k, group] : groups_.Mutable(log)) {
    const bool has_key = std::any_of(group->pairs.begin(), group->pairs.end(),
                                     [&](const auto& p) { return PairKey(p.first) == key; });
    if (!has_key) continue;
    std::unordered_map<uint64_t, int64_t>& pairs = group.Mutable(log).pairs;
    for (auto it = pairs.begin(); it != pairs.end();) {
      auto next = std::next(it);
      if (PairKey(it->first) == key) undo::Erase(log, pairs, it);
      it = next;
    }
  }
}

uint64_t PodLabelIndex::NewVersion() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void PodLabelIndex::BumpVersion(UndoLog* log) {
  undo::Save(log, version_);
  version_ = NewVersion();
}

void PodLabelIndex::UnshareAll() {
  for (auto& [key, group] : groups_.Mutable(nullptr)) group.Mutable(nullptr);
}

}  // namespace sched
