#include "libsched/state/pod_label_index.h"

#include <functional>

namespace sched {

size_t PodLabelIndex::KeyHash::operator()(const Key& k) const {
  uint64_t h = (uint64_t{k.ns} << 1) | k.terminating;
  for (const auto& [key, value] : k.labels.entries()) {
    h = h * 0x9E3779B97F4A7C15ULL ^ ((uint64_t{key} << 32) | value);
  }
  return std::hash<uint64_t>()(h);
}

void PodLabelIndex::Add(const Pod& pod, const NodeInfo* node, UndoLog* log) {
  auto [it, inserted] =
      undo::TryEmplace(log, groups_, Key{pod.ns_atom, pod.labels, pod.terminating});
  Group& g = it->second;
  if (inserted) {  // a new entry: undone by its erase
    g.sample.ns = pod.ns;
    g.sample.ns_atom = pod.ns_atom;
    g.sample.labels = pod.labels;
    g.sample.terminating = pod.terminating;
  }
  auto [pos, added] = undo::TryEmplace(log, g.position, node, g.nodes.size());
  if (added) {
    undo::PushBack(log, g.nodes, std::pair<const NodeInfo*, int64_t>(node, 1));
  } else {
    undo::SaveAt(log, g.nodes, pos->second);
    ++g.nodes[pos->second].second;
  }
}

void PodLabelIndex::Remove(const Pod& pod, const NodeInfo* node, UndoLog* log) {
  auto it = groups_.find(Key{pod.ns_atom, pod.labels, pod.terminating});
  if (it == groups_.end()) return;
  Group& g = it->second;
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
  if (g.nodes.empty()) undo::Erase(log, groups_, it);
}

PodLabelIndex PodLabelIndex::Remapped(
    const std::unordered_map<const NodeInfo*, const NodeInfo*>& to) const {
  PodLabelIndex out;
  out.groups_.reserve(groups_.size());
  for (const auto& [key, g] : groups_) {
    Group& copy = out.groups_.emplace(key, Group{g.sample, {}, {}}).first->second;
    copy.nodes.reserve(g.nodes.size());
    copy.position.reserve(g.nodes.size());
    for (const auto& [node, count] : g.nodes) {
      copy.position.emplace(to.at(node), copy.nodes.size());
      copy.nodes.emplace_back(to.at(node), count);
    }
  }
  return out;
}

}  // namespace sched
