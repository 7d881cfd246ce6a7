#include "libsched/state/node_tree.h"

#include <algorithm>

#include "libsched/state/room_after_erase.h"

namespace sched {
namespace {

// The first of two label keys the node has (upstream reads the beta key first).
std::string LabelOr(const Node& node, const Interner& in, std::string_view first,
                    std::string_view second) {
  for (std::string_view key : {first, second}) {
    const Atom k = in.Find(key);
    if (k == kNoAtom) continue;
    if (auto v = node.labels.Get(k)) return in.Str(*v);
  }
  return "";
}

}  // namespace

std::string ZoneKey(const Node& node, const Interner& interner) {
  const std::string region = LabelOr(node, interner, "failure-domain.beta.kubernetes.io/region",
                                     "topology.kubernetes.io/region");
  const std::string zone = LabelOr(node, interner, "failure-domain.beta.kubernetes.io/zone",
                                   "topology.kubernetes.io/zone");
  if (region.empty() && zone.empty()) return "";
  // Same separator as upstream's GetZoneKey (component-helpers/node/topology),
  // so a colon in a region or zone cannot make two keys collide.
  return region + std::string(":\0:", 3) + zone;
}

void NodeTree::Add(const std::string& zone, const std::string& node, uint32_t index, UndoLog* log) {
  // Upstream's addNode scans the zone for the name; the map keeps applying
  // N nodes O(N) instead of O(N^2).
  if (!undo::TryEmplace(log, of_, node, Entry{zone, index}).second) return;
  auto [it, inserted] = undo::TryEmplace(log, tree_, zone);
  if (inserted) undo::PushBack(log, zones_, zone);
  undo::PushBack(log, it->second, index);
  undo::Save(log, num_nodes_);
  ++num_nodes_;
}

const std::string* NodeTree::ZoneOf(const std::string& node) const {
  auto it = of_.find(node);
  return it == of_.end() ? nullptr : &it->second.zone;
}

bool NodeTree::Remove(const std::string& node, UndoLog* log) {
  auto entry = of_.find(node);
  if (entry == of_.end()) return false;
  const std::string& zone = entry->second.zone;
  auto it = tree_.find(zone);
  std::vector<uint32_t>& nodes = it->second;
  const auto at = std::find(nodes.begin(), nodes.end(), entry->second.index);
  undo::EraseAt(log, nodes, static_cast<size_t>(at - nodes.begin()));
  undo::Save(log, num_nodes_);
  --num_nodes_;
  if (nodes.empty()) {
    undo::Erase(log, tree_, it);
    undo::Shrink(log, tree_);
    const auto z = std::find(zones_.begin(), zones_.end(), zone);
    undo::EraseAt(log, zones_, static_cast<size_t>(z - zones_.begin()));
  } else {
    undo::Shrink(log, nodes);
  }
  undo::Erase(log, of_, entry);  // last: `zone` is this entry's
  undo::Shrink(log, of_);
  return true;
}

size_t NodeTree::room() const {
  size_t n = of_.bucket_count() + tree_.bucket_count();
  for (const auto& [zone, nodes] : tree_) n += nodes.capacity();
  return n;
}

}  // namespace sched
