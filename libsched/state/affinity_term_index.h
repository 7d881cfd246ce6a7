// AffinityTermIndex: the inter-pod (anti-)affinity terms of the bound and
// assumed pods, one entry per distinct term, each with how many pods hold
// it per topology domain (the value of the term's topologyKey on the
// pod's node). InterPodAffinity matches the incoming pod against each
// distinct term once and reads the counts of those that match, where
// upstream walks every pod with affinity in every cycle
// (interpodaffinity/filtering.go getExistingAntiAffinityCounts,
// scoring.go processExistingPod). Pods of one template share entries, so
// there are few.
//
// A term is counted only while its pod's node has a Node object carrying
// the term's topologyKey, as upstream adds a pair only for such nodes; so
// ClusterState re-adds a node's pods when the node's labels change.
//
// Kept up to date by ClusterState as pods and nodes come and go.
// Thread-safety: const methods may be called concurrently; mutation needs
// exclusive access.
#ifndef LIBSCHED_STATE_AFFINITY_TERM_INDEX_H_
#define LIBSCHED_STATE_AFFINITY_TERM_INDEX_H_

#include <cstdint>
#include <string>
#include <unordered_map>

#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/model/pod_affinity.h"
#include "libsched/state/undo_log.h"

namespace sched {

class AffinityTermIndex {
 public:
  // Which list of PodAffinityTerms a term comes from.
  enum class Kind : uint8_t {
    kRequiredAffinity,
    kRequiredAntiAffinity,
    kPreferredAffinity,
    kPreferredAntiAffinity,
  };
  static constexpr int kNumKinds = 4;

  struct Entry {
    // As the holding pods have it (namespaces defaulted to the pod's own).
    AffinityTerm term;
    // The term's weight for preferred kinds (part of the identity); 0 for
    // required ones.
    int32_t weight = 0;
    // Terms held, by value of term.topology_key on the holding pod's node;
    // every count > 0. A pod holding the term twice counts twice.
    std::unordered_map<Atom, int64_t> counts;
    // Terms held, counted or not (a node without the label or without a
    // Node object); the entry goes at 0.
    int64_t held = 0;
  };
  // Entries by an exact encoding of (term, weight).
  using Entries = std::unordered_map<std::string, Entry>;

  // `pod`'s terms now run on `node` (null: the node has no Node object).
  // Changes are recorded in `log` when given (state/undo_log.h).
  void Add(const Pod& pod, const Node* node, UndoLog* log = nullptr) { Apply(pod, node, 1, log); }
  // `pod`'s terms left `node`. REQUIRES: the matching Add, with a node
  // carrying the same labels.
  void Remove(const Pod& pod, const Node* node, UndoLog* log = nullptr) {
    Apply(pod, node, -1, log);
  }
  // The entries of one kind. References stay valid until the entry's last
  // term is removed.
  const Entries& entries(Kind kind) const { return entries_[static_cast<int>(kind)]; }

 private:
  void Apply(const Pod& pod, const Node* node, int64_t delta, UndoLog* log);
  void Update(Kind kind, const AffinityTerm& term, int32_t weight, const Node* node, int64_t delta,
              UndoLog* log);

  Entries entries_[kNumKinds];
};

}  // namespace sched

#endif  // LIBSCHED_STATE_AFFINITY_TERM_INDEX_H_
