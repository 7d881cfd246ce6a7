#include "libsched/state/topology_domains.h"

namespace sched {

uint32_t TopologyDomains::Key::Find(Atom value) const {
  const auto it = id_.find(value);
  return it == id_.end() ? kNone : it->second;
}

void TopologyDomains::AddNode(uint32_t node_index, const LabelSet& labels) {
  for (const auto& [key, value] : labels.entries()) {
    Key& k = keys_[key];
    auto [it, inserted] = k.id_.try_emplace(value, 0);
    if (inserted) {
      if (k.free_.empty()) {
        it->second = static_cast<uint32_t>(k.value_of_.size());
        k.value_of_.push_back(value);
        k.nodes_.push_back(0);
      } else {
        it->second = k.free_.back();
        k.free_.pop_back();
        k.value_of_[it->second] = value;
      }
    }
    ++k.nodes_[it->second];
    if (k.domain_of_.size() <= node_index) k.domain_of_.resize(node_index + 1, kNone);
    k.domain_of_[node_index] = it->second;
  }
}

void TopologyDomains::RemoveNode(uint32_t node_index, const LabelSet& labels) {
  for (const auto& [key, value] : labels.entries()) {
    Key& k = keys_.at(key);
    const uint32_t d = k.domain_of_.at(node_index);
    k.domain_of_[node_index] = kNone;
    if (--k.nodes_[d] > 0) continue;
    k.id_.erase(value);
    k.value_of_[d] = kNoAtom;
    k.free_.push_back(d);
  }
}

const TopologyDomains::Key* TopologyDomains::Find(Atom key) const {
  const auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second;
}

}  // namespace sched
