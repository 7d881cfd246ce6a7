// NodeTree: the order in which the scheduler walks nodes, mirroring
// pkg/scheduler/backend/cache/node_tree.go: zones in insertion order, nodes
// within a zone in insertion order, listed round-robin across zones
// (z0[0], z1[0], ..., z0[1], z1[1], ...). The zone key is region + ":\0:" +
// zone from the failure-domain.beta.kubernetes.io/{region,zone} labels,
// falling back to topology.kubernetes.io/{region,zone}
// (component-helpers/node/topology GetZoneKey).
#ifndef LIBSCHED_STATE_NODE_TREE_H_
#define LIBSCHED_STATE_NODE_TREE_H_

#include <string>
#include <unordered_map>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/node.h"

namespace sched {

std::string ZoneKey(const Node& node, const Interner& interner);

class NodeTree {
 public:
  // Ignored when the node is in the tree already (in any zone); O(1).
  void Add(const std::string& zone, const std::string& node);
  // Returns false when the node is not in that zone. O(nodes in the zone).
  bool Remove(const std::string& zone, const std::string& node);
  // The zone key the node was added under, or null when it is not in the tree.
  const std::string* ZoneOf(const std::string& node) const;
  // Node names in round-robin zone order.
  std::vector<std::string> List() const;
  size_t size() const { return num_nodes_; }

 private:
  std::vector<std::string> zones_;  // insertion order
  std::unordered_map<std::string, std::vector<std::string>> tree_;
  std::unordered_map<std::string, std::string> zone_of_;  // node -> zone key
  size_t num_nodes_ = 0;
};

}  // namespace sched

#endif  // LIBSCHED_STATE_NODE_TREE_H_
