// InterPodAffinity's equivalence-cache opt-in for Filter (libsched/ecache):
// SignPod and FilterIsNodeLocal. Upstream has no counterpart
// (docs/upstream-differences.md, the equivalence cache).
//
// Why the key suffices. Filter (inter_pod_affinity_filtering.cc) reads, for
// node N: N's labels (its domains), and for each counted term the sign of
// the count in N's domain, plus `affinity_counts.empty()` and
// `pod_matches_own_affinity` (the first-pod rule). A count in a domain
// sums the matching pods of the domain's nodes. When no two nodes share a
// value of the term's topology key, N's domain is N alone: the count is
// N's pods', which N's generation covers (a pod of N added, removed or
// relabelled, or N relabelled, bumps it). When a second node joins N's
// value, the key's domains stop being one node each, which changes the
// key. Otherwise the key lists the domains (ids; N's id stays while N
// holds it) or values (existing pods' terms) whose count is positive.
// Which pods match P's terms is fixed by P's merged terms (fed: a
// namespaceSelector resolved against the Namespaces) and by each pod's
// labels (its node's generation).
//
// P's own labels, namespace and Namespace's labels are read only through
// what the key holds: which existing pods' terms match P (every one fed,
// with where it is held unless its domains are one node each) and whether
// P matches its own affinity; P's terms name their namespaces (P's own by
// default). So SignPod feeds P's required terms only, and pods that differ
// by labels alone (a StatefulSet's pod-name) stay one class.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/internal/inter_pod_affinity_state.h"

namespace sched {
namespace {

using interpodaffinity::DomainCounts;
using interpodaffinity::PreFilterData;
using interpodaffinity::State;
using interpodaffinity::TermEntry;

// Terminates a list of domain ids or values (both >= 0).
constexpr int64_t kEnd = -1;
// Stands for a key whose every domain is one node (or that no node has).
constexpr int64_t kOneNodePerDomain = -2;

bool OneNodePerDomain(const TopologyDomains::Key* domains) {
  return domains == nullptr || domains->OneNodePerDomain();
}

// The domains of `counts` with a positive count, unless each is one node.
void AddPositiveDomains(const DomainCounts::Key& counts, PodSigner& key) {
  if (OneNodePerDomain(counts.domains)) {
    key.Add(kOneNodePerDomain);
    return;
  }
  for (size_t d = 0; d < counts.counts.size(); ++d) {
    if (counts.counts[d] > 0) key.Add(static_cast<int64_t>(d));
  }
  key.Add(kEnd);
}

// An existing pod's term that matches P (the term: which ones match
// depends on P's labels and its Namespace's labels), and the values of its
// topology key where it is held (every count is positive), sorted, unless
// each domain is one node.
void AddExistingTerm(const TermEntry& e, const TopologyDomains& domains,
                     std::vector<int64_t>& values, PodSigner& key) {
  key.Add(e.term);
  if (OneNodePerDomain(domains.Find(e.term.topology_key))) {
    key.Add(kOneNodePerDomain);
    return;
  }
  values.clear();
  for (const auto& [value, count] : e.counts) values.push_back(value);
  std::sort(values.begin(), values.end());
  for (int64_t v : values) key.Add(v);
  key.Add(kEnd);
}

}  // namespace

void InterPodAffinity::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.AddAll(std::span<const AffinityTerm>(pod.pod_affinity.required_affinity));
  sig.AddAll(std::span<const AffinityTerm>(pod.pod_affinity.required_anti_affinity));
}

bool InterPodAffinity::FilterIsNodeLocal(const CycleState& state, PodSigner& key) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->filter) return false;
  const PreFilterData& f = *s->filter;
  if (!f.existing_anti_affinity_delta.empty()) return false;
  key.AddAll(std::span<const AffinityTerm>(f.required_affinity));
  key.AddAll(std::span<const AffinityTerm>(f.required_anti_affinity));
  key.Add(static_cast<int64_t>(f.affinity_counts.empty()));
  key.Add(static_cast<int64_t>(f.pod_matches_own_affinity));
  for (size_t k = 0; k < f.affinity_counts.size(); ++k) {
    AddPositiveDomains(f.affinity_counts.at(k), key);
  }
  for (size_t k = 0; k < f.anti_affinity_counts.size(); ++k) {
    AddPositiveDomains(f.anti_affinity_counts.at(k), key);
  }
  key.Add(static_cast<int64_t>(f.existing_anti_affinity.size()));
  std::vector<int64_t> values;
  for (const TermEntry* e : f.existing_anti_affinity) {
    AddExistingTerm(*e, *f.topology_domains, values, key);
  }
  return true;
}

}  // namespace sched
