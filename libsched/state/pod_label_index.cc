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

void PodLabelIndex::Add(const Pod& pod, const NodeInfo* node) {
  auto [it, inserted] = groups_.try_emplace(Key{pod.ns_atom, pod.labels, pod.terminating});
  Group& g = it->second;
  if (inserted) {
    g.sample.ns = pod.ns;
    g.sample.ns_atom = pod.ns_atom;
    g.sample.labels = pod.labels;
    g.sample.terminating = pod.terminating;
  }
  auto [pos, added] = g.position.try_emplace(node, g.nodes.size());
  if (added) {
    g.nodes.emplace_back(node, 1);
  } else {
    ++g.nodes[pos->second].second;
  }
}

void PodLabelIndex::Remove(const Pod& pod, const NodeInfo* node) {
  auto it = groups_.find(Key{pod.ns_atom, pod.labels, pod.terminating});
  if (it == groups_.end()) return;
  Group& g = it->second;
  auto pos = g.position.find(node);
  if (pos == g.position.end()) return;
  const size_t i = pos->second;
  if (--g.nodes[i].second > 0) return;
  // Swap-remove the node's entry.
  g.position.erase(pos);
  if (i + 1 != g.nodes.size()) {
    g.nodes[i] = g.nodes.back();
    g.position[g.nodes[i].first] = i;
  }
  g.nodes.pop_back();
  if (g.nodes.empty()) groups_.erase(it);
}

}  // namespace sched
