#include "libsched/state/topology_domains.h"

namespace sched {

uint32_t TopologyDomains::Key::Find(Atom value) const {
  const auto it = id_.find(value);
  return it == id_.end() ? kNone : it->second;
}

void TopologyDomains::AddNode(uint32_t node_index, const LabelSet& labels, UndoLog* log) {
  for (const auto& [key, value] : labels.entries()) {
    Key& k = undo::TryEmplace(log, keys_, key).first->second;
    auto [it, inserted] = undo::TryEmplace(log, k.id_, value, 0);
    if (inserted) {  // a new entry: undone by its erase, no need to save it
      if (k.free_.empty()) {
        it->second = static_cast<uint32_t>(k.value_of_.size());
        undo::PushBack(log, k.value_of_, value);
        undo::PushBack(log, k.nodes_, 0);
      } else {
        it->second = k.free_.back();
        undo::PopBack(log, k.free_);
        undo::SaveAt(log, k.value_of_, it->second);
        k.value_of_[it->second] = value;
      }
    }
    undo::SaveAt(log, k.nodes_, it->second);
    if (++k.nodes_[it->second] == 2) {
      undo::Save(log, k.shared_);
      ++k.shared_;
    }
    undo::Save(log, k.num_nodes_);
    ++k.num_nodes_;
    if (k.domain_of_.size() <= node_index) undo::Grow(log, k.domain_of_, node_index + 1, kNone);
    undo::SaveAt(log, k.domain_of_, node_index);
    k.domain_of_[node_index] = it->second;
  }
}

void TopologyDomains::RemoveNode(uint32_t node_index, const LabelSet& labels, UndoLog* log) {
  for (const auto& [key, value] : labels.entries()) {
    Key& k = keys_.at(key);
    const uint32_t d = k.domain_of_.at(node_index);
    undo::SaveAt(log, k.domain_of_, node_index);
    k.domain_of_[node_index] = kNone;
    undo::Save(log, k.num_nodes_);
    --k.num_nodes_;
    undo::SaveAt(log, k.nodes_, d);
    if (k.nodes_[d] == 2) {
      undo::Save(log, k.shared_);
      --k.shared_;
    }
    if (--k.nodes_[d] > 0) continue;
    undo::Erase(log, k.id_, k.id_.find(value));
    undo::SaveAt(log, k.value_of_, d);
    k.value_of_[d] = kNoAtom;
    undo::PushBack(log, k.free_, d);
  }
}

const TopologyDomains::Key* TopologyDomains::Find(Atom key) const {
  const auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second;
}

}  // namespace sched
