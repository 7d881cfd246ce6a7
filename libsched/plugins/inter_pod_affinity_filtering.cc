// InterPodAffinity PreFilter, PreFilterExtensions and Filter
// (interpodaffinity/filtering.go).
#include <algorithm>
#include <memory>
#include <string>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/internal/inter_pod_affinity_state.h"

namespace sched {
namespace {

using interpodaffinity::CountIn;
using interpodaffinity::DomainCounts;
using interpodaffinity::MatchesAllTerms;
using interpodaffinity::PreFilterData;
using interpodaffinity::State;
using interpodaffinity::TermEntry;
using interpodaffinity::TopologyCounts;
using interpodaffinity::TopologyPair;

// topologyToMatchedTermCount.update: adds `value` to the node's pair for
// `key`, if the node has that label; a count back at zero is dropped.
void Update(TopologyCounts& m, const Node& node, Atom key, int64_t value) {
  const std::optional<Atom> v = node.labels.Get(key);
  if (!v) return;
  m.Add(TopologyPair(key, *v), value);
}

// updateWithAntiAffinityTerms: each term that matches `pod` counts.
void UpdateWithAntiAffinityTerms(TopologyCounts& m, const std::vector<AffinityTerm>& terms,
                                 const Pod& pod, const LabelSet& ns_labels, const Node& node,
                                 const Interner& in, int64_t value) {
  for (const AffinityTerm& t : terms) {
    if (t.Matches(pod, ns_labels, in)) Update(m, node, t.topology_key, value);
  }
}

// P's terms are merged, so the other pods' namespace labels are not needed.
const LabelSet& NoLabels() {
  static const LabelSet kNoLabels;
  return kNoLabels;
}

// preFilterState.updateWithPod: `other` (on `node`) appears (+1) or goes
// (-1). P's terms count in the node's domains (updateWithAffinityTerms:
// every term when `other` matches all of them; updateWithAntiAffinityTerms:
// each term that matches it).
void ApplyPod(PreFilterData& s, const Pod& pod, const Pod& other, const NodeInfo& node,
              const Interner& in, int64_t multiplier) {
  UpdateWithAntiAffinityTerms(s.existing_anti_affinity_delta,
                              other.pod_affinity.required_anti_affinity, pod, *s.namespace_labels,
                              *node.node(), in, multiplier);
  if (MatchesAllTerms(s.required_affinity, other, in)) {
    for (size_t k : s.affinity_keys) s.affinity_counts.Add(k, node.index(), multiplier);
  }
  for (size_t i = 0; i < s.required_anti_affinity.size(); ++i) {
    if (s.required_anti_affinity[i].Matches(other, NoLabels(), in)) {
      s.anti_affinity_counts.Add(s.anti_affinity_keys[i], node.index(), multiplier);
    }
  }
}

// satisfyPodAffinity. A node lacks a key exactly when it has no domain of
// it (TopologyDomains holds every label of the snapshot's nodes).
bool SatisfyPodAffinity(const PreFilterData& s, const NodeInfo& node) {
  bool pods_exist = true;
  for (size_t k : s.affinity_keys) {
    const DomainCounts::Key& key = s.affinity_counts.at(k);
    const uint32_t d = key.DomainOf(node.index());
    if (d == TopologyDomains::kNone) return false;  // every topology label must exist on the node
    if (key.Get(node.index()) <= 0) pods_exist = false;
  }
  // The first pod of a group with affinity to itself: no pod anywhere
  // matches, but P matches its own terms.
  return pods_exist || (s.affinity_counts.empty() && s.pod_matches_own_affinity);
}

// satisfyPodAntiAffinity.
bool SatisfyPodAntiAffinity(const PreFilterData& s, const NodeInfo& node) {
  if (s.anti_affinity_counts.empty()) return true;
  for (size_t k : s.anti_affinity_keys) {
    if (s.anti_affinity_counts.at(k).Get(node.index()) > 0) return false;
  }
  return true;
}

// satisfyExistingPodsAntiAffinity: the node fails when the count of some
// (key, value) pair among its labels is positive.
bool SatisfyExistingPodsAntiAffinity(const PreFilterData& s, const Node& node) {
  if (s.existing_anti_affinity_delta.empty()) {
    // Every count is positive: any one in the node's domain fails it.
    for (const TermEntry* e : s.existing_anti_affinity) {
      const std::optional<Atom> v = node.labels.Get(e->term.topology_key);
      if (v && CountIn(*e, *v) > 0) return false;
    }
    return true;
  }
  // AddPod / RemovePod moved some pairs: sum per pair.
  for (const auto& [key, value] : node.labels.entries()) {
    int64_t count = s.existing_anti_affinity_delta.Get(TopologyPair(key, value));
    for (const TermEntry* e : s.existing_anti_affinity) {
      if (e->term.topology_key == key) count += CountIn(*e, value);
    }
    if (count > 0) return false;
  }
  return true;
}

}  // namespace

Status InterPodAffinity::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                                   PreFilterResult* /*result*/) const {
  const Interner& in = snapshot.interner();
  const LabelSet& namespace_labels = snapshot.NamespaceLabels(pod.ns_atom);
  const AffinityTermIndex::Entries& existing =
      snapshot.affinity_term_index().entries(AffinityTermIndex::Kind::kRequiredAntiAffinity);
  // An existing pod's anti-affinity term counts when it matches P.
  auto counts_against = [&](const auto& entry) {
    return !entry.counts.empty() && entry.term.Matches(pod, namespace_labels, in);
  };
  const PodAffinityTerms& own = pod.pod_affinity;
  if (own.parse_error.empty() && own.required_affinity.empty() &&
      own.required_anti_affinity.empty() &&
      std::none_of(existing.begin(), existing.end(),
                   [&](const auto& kv) { return counts_against(kv.second); })) {
    return Status(Code::kSkip);  // what the walk below ends in, without its state
  }
  auto st = std::make_shared<State>();
  st->interner = &in;
  if (!pod.pod_affinity.parse_error.empty()) {
    // framework.NewPodInfo failed: upstream rejects the pod outright.
    st->parse_message = "parsing pod: " + pod.pod_affinity.parse_error;
    const std::string_view reason = st->parse_message;
    state.Write(slot(), std::move(st));
    return Status(Code::kUnschedulableAndUnresolvable, reason);
  }
  PreFilterData& s = st->filter.emplace();
  s.required_affinity = pod.pod_affinity.required_affinity;
  s.required_anti_affinity = pod.pod_affinity.required_anti_affinity;
  for (AffinityTerm& t : s.required_affinity) interpodaffinity::MergeNamespaces(snapshot, &t);
  for (AffinityTerm& t : s.required_anti_affinity) {
    interpodaffinity::MergeNamespaces(snapshot, &t);
  }
  s.namespace_labels = &namespace_labels;
  s.topology_domains = &snapshot.topology_domains();
  s.affinity_counts = DomainCounts(&snapshot.topology_domains());
  s.anti_affinity_counts = DomainCounts(&snapshot.topology_domains());
  for (const AffinityTerm& t : s.required_affinity) {
    s.affinity_keys.push_back(s.affinity_counts.For(t.topology_key));
  }
  for (const AffinityTerm& t : s.required_anti_affinity) {
    s.anti_affinity_keys.push_back(s.anti_affinity_counts.For(t.topology_key));
  }
  s.pod_matches_own_affinity = MatchesAllTerms(s.required_affinity, pod, in);

  // getExistingAntiAffinityCounts: each distinct term held by existing
  // pods is matched once; its counts are read in Filter.
  for (const auto& [key, e] : existing) {
    if (counts_against(e)) s.existing_anti_affinity.push_back(&e);
  }
  // getIncomingAffinityAntiAffinityCounts: every pod matters when P has
  // terms, but P's terms read only a pod's namespace and labels, so they
  // are matched once per group of such pods and counted per domain: from
  // the group's counts per domain for a key whose domains are shared (a
  // zone: O(domains), not O(nodes)), else read from the group's count on
  // the node Filter visits (a hostname: O(1) here; nodes without a Node
  // object, outside the snapshot's node list, have no domain).
  const bool incoming = !s.required_affinity.empty() || !s.required_anti_affinity.empty();
  if (incoming) {
    for (const auto& [key, group] : snapshot.pod_label_index().groups()) {
      if (MatchesAllTerms(s.required_affinity, group->sample, in)) {
        for (size_t k : s.affinity_keys) s.affinity_counts.AddGroup(k, *group, 1);
      }
      for (size_t i = 0; i < s.required_anti_affinity.size(); ++i) {
        if (s.required_anti_affinity[i].Matches(group->sample, NoLabels(), in)) {
          s.anti_affinity_counts.AddGroup(s.anti_affinity_keys[i], *group, 1);
        }
      }
    }
  }
  if (s.existing_anti_affinity.empty() && !incoming) return Status(Code::kSkip);
  state.Write(slot(), std::move(st));
  return Status();
}

Status InterPodAffinity::UpdateWithPod(CycleState& state, const Pod& pod, const Pod& other,
                                       const NodeInfo& node, int64_t multiplier) const {
  const State* read = state.Read<State>(slot());
  if (read == nullptr || !read->filter) {
    return Status::Error("error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
  }
  State* s = state.CopyOnWrite<State>(slot());
  ApplyPod(*s->filter, pod, other, node, *s->interner, multiplier);
  return Status();
}

Status InterPodAffinity::AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                                const NodeInfo& node) const {
  return UpdateWithPod(state, pod, pod_to_add, node, 1);
}

Status InterPodAffinity::RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                                   const NodeInfo& node) const {
  return UpdateWithPod(state, pod, pod_to_remove, node, -1);
}

Status InterPodAffinity::Filter(const CycleState& state, const Pod& /*pod*/,
                                const NodeInfo& node) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->filter) {
    return Status::Error("error reading \"PreFilterInterPodAffinity\" from cycleState: not found");
  }
  if (!SatisfyPodAffinity(*s->filter, node)) {
    return Status(Code::kUnschedulableAndUnresolvable, kReasonAffinity);
  }
  if (!SatisfyPodAntiAffinity(*s->filter, node)) {
    return Status(Code::kUnschedulable, kReasonAntiAffinity);
  }
  if (!SatisfyExistingPodsAntiAffinity(*s->filter, *node.node())) {
    return Status(Code::kUnschedulable, kReasonExistingAntiAffinity);
  }
  return Status();
}

}  // namespace sched
