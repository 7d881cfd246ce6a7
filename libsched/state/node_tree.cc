#include "libsched/state/node_tree.h"

#include <algorithm>

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

void NodeTree::Add(const std::string& zone, const std::string& node) {
  // Upstream's addNode scans the zone for the name; the map keeps applying
  // N nodes O(N) instead of O(N^2).
  if (!zone_of_.try_emplace(node, zone).second) return;
  auto [it, inserted] = tree_.try_emplace(zone);
  if (inserted) zones_.push_back(zone);
  it->second.push_back(node);
  ++num_nodes_;
}

const std::string* NodeTree::ZoneOf(const std::string& node) const {
  auto it = zone_of_.find(node);
  return it == zone_of_.end() ? nullptr : &it->second;
}

bool NodeTree::Remove(const std::string& zone, const std::string& node) {
  auto z = zone_of_.find(node);
  if (z == zone_of_.end() || z->second != zone) return false;
  auto it = tree_.find(zone);
  auto& nodes = it->second;
  nodes.erase(std::find(nodes.begin(), nodes.end(), node));
  --num_nodes_;
  if (nodes.empty()) {
    tree_.erase(it);
    zones_.erase(std::find(zones_.begin(), zones_.end(), zone));
  }
  zone_of_.erase(z);  // last: `zone` may be this entry's value
  return true;
}

std::vector<std::string> NodeTree::List() const {
  std::vector<std::string> out;
  out.reserve(num_nodes_);
  for (size_t i = 0; out.size() < num_nodes_; ++i) {
    for (const auto& z : zones_) {
      const auto& nodes = tree_.at(z);
      if (i < nodes.size()) out.push_back(nodes[i]);
    }
  }
  return out;
}

}  // namespace sched
