// InterPodAffinity's equivalence-cache opt-in (libsched/ecache): SignPod,
// FilterIsNodeLocal and ScoreCacheKey. Upstream has no counterpart
// (docs/upstream-differences.md, the equivalence cache); what Score reads
// follows pkg/scheduler/framework/plugins/interpodaffinity/scoring.go.
//
// Why the Filter key suffices. Filter (inter_pod_affinity_filtering.cc) reads, for
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
//
// Why the Score key suffices. Score (inter_pod_affinity_scoring.cc) sums,
// for node N, (a) per topology key of P's preferred terms, the count of
// N's domain: the signed weights of P's terms that the domain's pods match
// (upstream's topologyScore from P's preferredDuringScheduling
// (anti-)affinity), and (b) per existing pod's term that matches P
// (required affinity weighted by hardPodAffinityWeight when > 0, preferred
// (anti-)affinity by its weight), its signed weight times the pods holding
// it in N's domain. When every key read is one node per domain
// (kubernetes.io/hostname), both count N's pods only, which N's
// generation covers. Which pods match P's terms is fixed by P's merged
// preferred terms (fed: a namespaceSelector resolved against the
// Namespaces' labels; SignPod feeds them unresolved, so pods with
// different preferred terms are different classes and keep their rows);
// which existing terms match P (P's labels, its Namespace's labels) is
// read only through the list of them, fed with their signed weights.
// ignorePreferredTermsOfExistingPods and a PreScore that found nothing to
// count only Skip the plugin, which the scheduler's key holds.
//
// With a key of wider domains (a zone), the score of every node of the
// zone moves with each placement there; keying on its counts would
// invalidate every row of the class (all plugins' columns) at each
// placement, which measured 0.54x on SchedulingPodAffinity, against a
// live column that leaves the other plugins' rows cached. So the Score
// stays live (ScoreCacheKey false) when any key read has a domain of
// several nodes; repairing only the changed domains' nodes would need the
// cache to invalidate rows by domain, which it cannot.
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
using interpodaffinity::PreScoreData;
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
  for (const auto* terms :
       {&pod.pod_affinity.preferred_affinity, &pod.pod_affinity.preferred_anti_affinity}) {
    sig.Add(static_cast<int64_t>(terms->size()));
    for (const WeightedAffinityTerm& t : *terms) {
      sig.Add(t.term);
      sig.Add(int64_t{t.weight});
    }
  }
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

bool InterPodAffinity::ScoreCacheKey(const CycleState& state, PodSigner& key) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->score) return false;
  const PreScoreData& d = *s->score;
  // A domain of several nodes: a placement on one moves the others'
  // scores (live, scored afresh every cycle).
  for (size_t k = 0; k < d.topology_score.size(); ++k) {
    if (!OneNodePerDomain(d.topology_score.at(k).domains)) return false;
  }
  for (const auto& [e, weight] : d.existing) {
    if (!OneNodePerDomain(d.topology_domains->Find(e->term.topology_key))) return false;
  }
  for (const std::vector<WeightedAffinityTerm>* terms : {&d.affinity, &d.anti_affinity}) {
    key.Add(static_cast<int64_t>(terms->size()));
    for (const WeightedAffinityTerm& t : *terms) {
      key.Add(t.term);
      key.Add(int64_t{t.weight});
    }
  }
  key.Add(static_cast<int64_t>(d.existing.size()));
  for (const auto& [e, weight] : d.existing) {
    // The entry's own weight tells a required term (0) from a preferred one.
    key.Add(e->term);
    key.Add(int64_t{e->weight});
    key.Add(weight);
  }
  return true;
}

}  // namespace sched
