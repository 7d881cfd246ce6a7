#include "libsched/state/topology_domains.h"

#include <utility>

#include "libsched/state/node_index_room.h"
#include "libsched/state/room_after_erase.h"

namespace sched {

uint32_t TopologyDomains::Key::Find(Atom value) const {
  const auto it = id_.find(value);
  return it == id_.end() ? kNone : it->second;
}

uint32_t TopologyDomains::Key::NewDomain(Atom value, UndoLog* log) {
  const uint32_t d = ids_.Next();
  if (d == value_of_.size()) {
    undo::PushBack(log, value_of_, value);
    undo::PushBack(log, nodes_, 0);
  } else {  // a freed id, or under the room a scale-down left
    undo::SaveAt(log, value_of_, d);
    value_of_[d] = value;
  }
  ids_.Take(log);
  return d;
}

void TopologyDomains::Key::FreeDomain(uint32_t d, UndoLog* log) {
  undo::SaveAt(log, value_of_, d);
  value_of_[d] = kNoAtom;
  ids_.Free(d, log);
  const uint32_t bound = ids_.bound();
  if (!FarAboveNodeIndexBound(value_of_.size(), bound)) return;
  undo::CutTo(log, value_of_, bound);
  undo::CutTo(log, nodes_, bound);
}

void TopologyDomains::AddNode(uint32_t node_index, const LabelSet& labels, UndoLog* log) {
  for (const auto& [key, value] : labels.entries()) {
    Key& k = undo::TryEmplace(log, keys_, key).first->second;
    auto [it, inserted] = undo::TryEmplace(log, k.id_, value, 0);
    // A new entry: undone by its erase, no need to save it.
    if (inserted) it->second = k.NewDomain(value, log);
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
    undo::Shrink(log, k.id_);
    k.FreeDomain(d, log);
  }
}

const TopologyDomains::Key* TopologyDomains::Find(Atom key) const {
  const auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : &it->second;
}

void TopologyDomains::FollowBound(uint32_t bound, UndoLog* log) {
  for (auto& [key, k] : keys_) {
    if (FarAboveNodeIndexBound(k.domain_of_.size(), bound)) undo::CutTo(log, k.domain_of_, bound);
  }
}

}  // namespace sched
