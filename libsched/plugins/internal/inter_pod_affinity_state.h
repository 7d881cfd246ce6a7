// InterPodAffinity's CycleState data and the helpers its filtering and
// scoring halves share. Internal to libsched/plugins/inter_pod_affinity*.
#ifndef LIBSCHED_PLUGINS_INTERNAL_INTER_POD_AFFINITY_STATE_H_
#define LIBSCHED_PLUGINS_INTERNAL_INTER_POD_AFFINITY_STATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/framework/cycle_state.h"
#include "libsched/model/pod_affinity.h"
#include "libsched/plugins/internal/domain_counts.h"
#include "libsched/plugins/internal/topology_counts.h"
#include "libsched/state/cluster_state.h"

namespace sched::interpodaffinity {

// A (topologyKey, value) pair packed into one integer (topologyPair).
inline uint64_t TopologyPair(Atom key, Atom value) { return (uint64_t{key} << 32) | value; }


using TermEntry = AffinityTermIndex::Entry;

// How many pods hold an existing pod's term in the domain `value` of its
// topology key.
inline int64_t CountIn(const TermEntry& e, Atom value) {
  auto it = e.counts.find(value);
  return it == e.counts.end() ? 0 : it->second;
}

// preFilterState. Copyable: AddPod / RemovePod copy it on write.
struct PreFilterData {
  // Existing pods' required anti-affinity terms that match P, counted on
  // some labelled node (entries of the snapshot's AffinityTermIndex).
  std::vector<const TermEntry*> existing_anti_affinity;
  // What AddPod / RemovePod changed in those counts, per topology pair; so
  // existingAntiAffinityCounts is `existing_anti_affinity` plus this.
  TopologyCounts existing_anti_affinity_delta;
  // Existing pods that match all of P's required affinity terms, per
  // domain of each term's key.
  DomainCounts affinity_counts;
  // Existing pods that match P's required anti-affinity terms.
  DomainCounts anti_affinity_counts;
  // P's required terms with namespaceSelector resolved, and where each
  // one's key is counted (DomainCounts::For), in the same order.
  std::vector<AffinityTerm> required_affinity;
  std::vector<AffinityTerm> required_anti_affinity;
  std::vector<size_t> affinity_keys, anti_affinity_keys;
  // P matches all of its own required affinity terms (first-pod rule).
  bool pod_matches_own_affinity = false;
  const LabelSet* namespace_labels = nullptr;  // of P's namespace
  const TopologyDomains* topology_domains = nullptr;  // the snapshot's
};

// An existing pod's term that Score reads node by node: its count in the
// node's domain (found through `domains`, the snapshot's domains of the
// term's key), times `weight`.
struct NodeReadTerm {
  const TermEntry* entry = nullptr;
  int64_t weight = 0;  // signed
  const TopologyDomains::Key* domains = nullptr;
};

// preScoreState: score per topology domain from P's preferred terms, and
// whether any term was counted on a node with its key (topologyScore is
// not empty); plus the existing pods' terms that match P, each scoring
// weight x its count in a node's domain. Those whose key has domains of
// several nodes are summed into `topology_score` too, unless held in more
// domains than there are nodes to score; the others are read per node
// (`read_per_node`), which then costs less.
struct PreScoreData {
  DomainCounts topology_score;
  bool topology_counted = false;
  std::vector<std::pair<const TermEntry*, int64_t>> existing;  // entry, signed weight
  std::vector<NodeReadTerm> read_per_node;  // of `existing`, those not in topology_score
  // P's preferred terms, merged (they match with no namespace lookup).
  std::vector<WeightedAffinityTerm> affinity, anti_affinity;
  const TopologyDomains* topology_domains = nullptr;  // the snapshot's
};

// The plugin's one CycleState slot: PreFilter fills `filter` (a parse
// failure only `parse_message`, which backs the rejection's reason);
// PreScore replaces the slot with one holding `score`.
struct State final : StateData {
  const Interner* interner = nullptr;
  std::optional<PreFilterData> filter;
  std::optional<PreScoreData> score;
  std::string parse_message;
};

// mergeAffinityTermNamespacesIfNotEmpty for P's terms: a term whose
// namespaceSelector is not `{}` gets the names of the Namespaces it selects
// added to its namespaces, and then selects no further namespace; so the
// term can be matched with no namespace lookup.
void MergeNamespaces(const ClusterState& snapshot, AffinityTerm* term);

// podMatchesAllAffinityTerms: false for no terms. `terms` are P's, merged.
bool MatchesAllTerms(const std::vector<AffinityTerm>& terms, const Pod& pod,
                     const Interner& interner);

}  // namespace sched::interpodaffinity

#endif  // LIBSCHED_PLUGINS_INTERNAL_INTER_POD_AFFINITY_STATE_H_
