// DomainCounts: an int64 count per topology domain (TopologyDomains ids)
// of a few label keys: what InterPodAffinity counts the incoming pod's
// terms into (topologyToMatchedTermCount of upstream's
// interpodaffinity/filtering.go, topologyScore of scoring.go, keyed by
// topology pair there). A node's count is found by its NodeInfo::index(),
// with no label search. A key whose domains are shared (a zone) keeps a
// flat array by domain. A key of one node per domain (a hostname) keeps,
// until a count is added to a single domain or past kMaxKeptGroups groups,
// the PodLabelIndex groups counted with their weights and reads a node's
// count from them (one hash lookup per group): so a cycle costs
// O(groups), not O(nodes + pods), and Filter / Score pay per node they
// visit, which the equivalence cache makes the few changed ones.
//
// Thread-safety: const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_INTERNAL_DOMAIN_COUNTS_H_
#define LIBSCHED_PLUGINS_INTERNAL_DOMAIN_COUNTS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/state/pod_label_index.h"
#include "libsched/state/topology_domains.h"

namespace sched::interpodaffinity {

class DomainCounts {
 public:
  // The most groups a key keeps; one more makes its counts dense. A node's
  // read costs a hash lookup per kept group (~4 ns each), dense counts
  // ~2.5 ns per node of the cluster once (bench/micro/domain_counts_bench).
  static constexpr size_t kMaxKeptGroups = 16;

  // The counts of one label key.
  struct Key {
    Atom key = kNoAtom;
    const TopologyDomains::Key* domains = nullptr;  // null: no node has the key
    std::vector<int64_t> counts;                    // by domain id
    // One node per domain, while `counts` is empty: groups whose pods
    // count in their nodes' domains, each with its weight (all of one
    // sign and non-zero, each with a pod on a node with the key).
    std::vector<std::pair<const PodLabelIndex::Group*, int64_t>> groups;

    // The domain of the node with `node_index`, or TopologyDomains::kNone
    // when it lacks the key.
    uint32_t DomainOf(uint32_t node_index) const {
      return domains == nullptr ? TopologyDomains::kNone : domains->DomainOf(node_index);
    }
    // The count of the node's domain; 0 when it lacks the key.
    int64_t Get(uint32_t node_index) const {
      const uint32_t d = DomainOf(node_index);
      if (d == TopologyDomains::kNone) return 0;
      return groups.empty() ? (d < counts.size() ? counts[d] : 0) : GroupsOn(node_index);
    }
    // Every domain's count, by domain id (for a key read domain by domain).
    std::vector<int64_t> Dense() const;

   private:
    // The weighted sum of `groups`' pods on the node.
    int64_t GroupsOn(uint32_t node_index) const;
  };

  // Counts over the domains of `domains` (the snapshot's; must outlive this).
  explicit DomainCounts(const TopologyDomains* domains = nullptr) : domains_(domains) {}

  // The position of `key`'s counts, made (all zero) on first use.
  size_t For(Atom key);
  // Adds `delta` to the domain of the node with `node_index` in the counts
  // at `k` (from For) and returns true; false when the node lacks the key.
  bool Add(size_t k, uint32_t node_index, int64_t delta);
  // Adds `delta` to the domain whose value of the key at `k` is `value`
  // and returns true; false when no node has that value.
  bool AddValue(size_t k, Atom value, int64_t delta);
  // Adds `weight` times each count of `group` (PodLabelIndex; must
  // outlive this) to its domains in the counts at `k`: from the group's
  // label pairs when some two nodes share a value of the key (O(pairs)),
  // else by keeping the group to read per node (O(1) while the key's
  // groups' weights share a sign, no count was added by Add / AddValue
  // and at most kMaxKeptGroups are kept; else node by node, O(nodes
  // holding its pods)); the same sums
  // either way. True when some pod's node has the key.
  bool AddGroup(size_t k, const PodLabelIndex::Group& group, int64_t weight);
  // The counts at `k` (from For), for k < size().
  const Key& at(size_t k) const { return keys_[k]; }
  size_t size() const { return keys_.size(); }
  // The counts of `key`, or null when none were made.
  const Key* Find(Atom key) const;
  // No domain has a non-zero count (len(map) == 0 upstream, where a
  // count back at zero is deleted).
  bool empty() const { return nonzero_ == 0 && keys_with_groups_ == 0; }
  // The same non-zero counts, key by key and domain by domain.
  bool operator==(const DomainCounts& o) const;

 private:
  // Adds `delta` to domain `d` of the counts at `k`.
  void AddToDomain(size_t k, uint32_t d, int64_t delta);
  // Moves the groups kept at `k` into its counts, node by node.
  void Materialize(size_t k);
  // Every non-zero count of `a` is `b`'s too.
  static bool Covers(const DomainCounts& a, const DomainCounts& b);

  const TopologyDomains* domains_;
  std::vector<Key> keys_;  // few: one per distinct topologyKey of the terms
  size_t nonzero_ = 0;     // non-zero entries of the keys' `counts`
  size_t keys_with_groups_ = 0;  // each has a non-zero count
};

}  // namespace sched::interpodaffinity

#endif  // LIBSCHED_PLUGINS_INTERNAL_DOMAIN_COUNTS_H_
