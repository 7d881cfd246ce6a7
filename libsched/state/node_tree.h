// NodeTree: the order in which the scheduler walks nodes, mirroring
// pkg/scheduler/backend/cache/node_tree.go: zones in insertion order, nodes
// within a zone in insertion order, listed round-robin across zones
// (z0[0], z1[0], ..., z0[1], z1[1], ...). The zone key is region + ":\0:" +
// zone from the failure-domain.beta.kubernetes.io/{region,zone} labels,
// falling back to topology.kubernetes.io/{region,zone}
// (component-helpers/node/topology GetZoneKey).
//
// Nodes are held by name and by their NodeInfo::index(), so that the walk
// (ForEachInOrder) costs a pass over integers (no strings, no hashing).
// Changes record their undo in `log` (null: not recorded), so a Batch of
// node changes costs O(changes), not a copy of the tree.
#ifndef LIBSCHED_STATE_NODE_TREE_H_
#define LIBSCHED_STATE_NODE_TREE_H_

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/node.h"
#include "libsched/state/undo_log.h"

namespace sched {

std::string ZoneKey(const Node& node, const Interner& interner);

class NodeTree {
 public:
  // Adds `node` (NodeInfo::index() `index`) at the end of `zone`; ignored
  // when the node is in the tree already (in any zone). O(1).
  void Add(const std::string& zone, const std::string& node, uint32_t index, UndoLog* log);
  // Removes `node` from its zone; false when it is not in the tree.
  // O(nodes in the zone), integers only.
  bool Remove(const std::string& node, UndoLog* log);
  // The zone key the node was added under, or null when it is not in the tree.
  const std::string* ZoneOf(const std::string& node) const;
  // Calls fn(uint32_t index) for each node in round-robin zone order: a
  // caller builds its arrays from the walk, each entry written once.
  template <class Fn>
  void ForEachInOrder(Fn&& fn) const;
  size_t size() const { return num_nodes_; }
  // The slots held (buckets of its maps, room of its lists): what a
  // cluster that scaled down gives back. O(zones).
  size_t room() const;

 private:
  struct Entry {
    std::string zone;
    uint32_t index;
  };
  std::vector<std::string> zones_;                               // insertion order
  std::unordered_map<std::string, std::vector<uint32_t>> tree_;  // zone -> indexes
  std::unordered_map<std::string, Entry> of_;                    // by node name
  size_t num_nodes_ = 0;
};

template <class Fn>
void NodeTree::ForEachInOrder(Fn&& fn) const {
  // The zones' lists looked up once, not once per round.
  std::vector<const std::vector<uint32_t>*> zones;
  zones.reserve(zones_.size());
  size_t full_rounds = zones_.empty() ? 0 : num_nodes_;  // rounds every zone has a node in
  for (const auto& z : zones_) {
    zones.push_back(&tree_.at(z));
    full_rounds = std::min(full_rounds, zones.back()->size());
  }
  // No size test in the full rounds: a few instructions a node (a churned
  // node list is rebuilt whole).
  for (size_t i = 0; i < full_rounds; ++i) {
    for (const std::vector<uint32_t>* nodes : zones) fn((*nodes)[i]);
  }
  size_t left = num_nodes_ - full_rounds * zones.size();
  for (size_t i = full_rounds; left != 0; ++i) {
    for (const std::vector<uint32_t>* nodes : zones) {
      if (i < nodes->size()) {
        fn((*nodes)[i]);
        --left;
      }
    }
  }
}

}  // namespace sched

#endif  // LIBSCHED_STATE_NODE_TREE_H_
