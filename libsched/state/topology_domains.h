// TopologyDomains: for every label key the nodes carry, a dense id per
// value (a topology domain) and the domain of each node, indexed by
// NodeInfo::index(). Plugins that count pods per topology domain
// (PodTopologySpread) use flat per-cycle arrays indexed by domain id
// instead of building hash maps of topology pairs every cycle, as
// upstream's podtopologyspread/{filtering,scoring}.go do.
//
// Kept up to date by ClusterState as nodes come, change labels and go. A
// domain id is freed when its last node leaves; a new domain takes the
// lowest free one, so when a cluster scales down the bound falls and the
// arrays by domain id and by node index give back their room
// (libsched/state/node_index_room.h).
// Thread-safety: const methods may be called concurrently; mutation needs
// exclusive access.
#ifndef LIBSCHED_STATE_TOPOLOGY_DOMAINS_H_
#define LIBSCHED_STATE_TOPOLOGY_DOMAINS_H_

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/state/lowest_free_ids.h"
#include "libsched/state/undo_log.h"

namespace sched {

class TopologyDomains {
 public:
  // No domain: the node lacks the key (or is unknown).
  static constexpr uint32_t kNone = UINT32_MAX;

  // The domains of one label key.
  class Key {
   public:
    // The domain of the node with this index, or kNone.
    uint32_t DomainOf(uint32_t node_index) const {
      return node_index < domain_of_.size() ? domain_of_[node_index] : kNone;
    }
    // The domain whose value is `value`, or kNone when no node has it.
    uint32_t Find(Atom value) const;
    // The value of domain `domain`. REQUIRES: a domain some node is in
    // (DomainOf gave it).
    Atom ValueOf(uint32_t domain) const { return value_of_[domain]; }
    // One past the largest domain id: the size of a per-domain array.
    size_t bound() const { return ids_.bound(); }
    // No two nodes share a value (hostname-like keys): a domain's pods
    // are its one node's.
    bool OneNodePerDomain() const { return shared_ == 0; }
    // The number of domains (values some node has), and of nodes with the
    // key: a walk over nodes can stop once it met every domain, and skip
    // looking for nodes without the key when every node has it.
    size_t num_domains() const { return id_.size(); }
    size_t num_nodes() const { return num_nodes_; }
    // The entries held by node index and by domain id: what a cluster
    // that scaled down gives back.
    size_t node_room() const { return domain_of_.capacity(); }
    size_t domain_room() const { return value_of_.capacity(); }

   private:
    friend class TopologyDomains;
    // A domain id for `value`, the lowest free one.
    uint32_t NewDomain(Atom value, UndoLog* log);
    // Domain `d` lost its last node: its id is free again, and the arrays
    // by domain id are cut when far above the bound.
    void FreeDomain(uint32_t d, UndoLog* log);

    std::vector<uint32_t> domain_of_;        // by node index
    std::vector<Atom> value_of_;             // by domain id; kNoAtom when free
    std::vector<uint32_t> nodes_;            // by domain id: nodes in the domain
    std::unordered_map<Atom, uint32_t> id_;  // value -> domain id
    LowestFreeIds ids_;                      // bound(); value_of_ and nodes_ may be longer
    size_t shared_ = 0;                      // domains of two nodes or more
    size_t num_nodes_ = 0;                   // nodes with the key
  };

  // The node with index `node_index` now has `labels`. Changes are
  // recorded in `log` when given (libsched/state/undo_log.h).
  // REQUIRES: no AddNode for this index since its last RemoveNode.
  void AddNode(uint32_t node_index, const LabelSet& labels, UndoLog* log = nullptr);
  // The node with index `node_index` and `labels` (as given to AddNode) left.
  void RemoveNode(uint32_t node_index, const LabelSet& labels, UndoLog* log = nullptr);
  // The domains of `key`, or null when no node ever had the key.
  const Key* Find(Atom key) const;
  // ClusterState::NodeIndexBound() fell to `bound`: each key's array by
  // node index is cut to it when far above it (node_index_room.h).
  void FollowBound(uint32_t bound, UndoLog* log = nullptr);

 private:
  std::unordered_map<Atom, Key> keys_;
};

}  // namespace sched

#endif  // LIBSCHED_STATE_TOPOLOGY_DOMAINS_H_
