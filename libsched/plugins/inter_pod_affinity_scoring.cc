// InterPodAffinity PreScore, Score and NormalizeScore
// (interpodaffinity/scoring.go).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/internal/inter_pod_affinity_state.h"

namespace sched {
namespace {

using interpodaffinity::PreScoreData;
using interpodaffinity::State;

// Builds the topology scores of one cycle (scoreMap and processExistingPod).
class ScoreBuilder {
 public:
  ScoreBuilder(const Pod& pod, const LabelSet& ns_labels, int32_t hard_weight, const Interner& in,
               PreScoreData* out)
      : pod_(pod), ns_labels_(ns_labels), hard_weight_(hard_weight), in_(in), out_(*out) {}

  // P's preferred terms against a group of pods alike (namespace and
  // labels): each term is matched once, then counted in the domains of
  // the group's pods (DomainCounts::AddGroup: per domain for a shared key,
  // else read per node by Score; nodes without a Node object, outside the
  // snapshot's node list, have none).
  void ProcessIncomingTerms(const PodLabelIndex::Group& g) {
    static const LabelSet kNoLabels;  // P's terms are merged
    for (const auto& [terms, multiplier] :
         {std::pair(&out_.affinity, int64_t{1}), std::pair(&out_.anti_affinity, int64_t{-1})}) {
      for (const WeightedAffinityTerm& t : *terms) {
        if (!t.term.Matches(g.sample, kNoLabels, in_)) continue;
        const size_t k = out_.topology_score.For(t.term.topology_key);
        const int64_t weight = int64_t{t.weight} * multiplier;
        if (out_.topology_score.AddGroup(k, g, weight)) out_.topology_counted = true;
      }
    }
  }

  // The existing pods' terms of one kind against P: each distinct term is
  // matched once. Terms counted on no labelled node add nothing, as
  // upstream. A matching term whose key has domains of several nodes is
  // summed into topology_score domain by domain (one hash lookup per
  // value it is held in), unless it is held in more domains than the
  // `num_scored` nodes Score visits. Else Score reads its count by each
  // node's value: one lookup per node, and none for the nodes whose
  // scores the equivalence cache keeps (one node per domain).
  void ProcessExistingTerms(const AffinityTermIndex& index, AffinityTermIndex::Kind kind,
                            int64_t multiplier, size_t num_scored) {
    for (const auto& [key, e] : index.entries(kind)) {
      if (e.counts.empty() || !e.term.Matches(pod_, ns_labels_, in_)) continue;
      const int64_t weight =
          (kind == AffinityTermIndex::Kind::kRequiredAffinity ? hard_weight_ : e.weight) *
          multiplier;
      out_.existing.emplace_back(&e, weight);
      const TopologyDomains::Key* domains = out_.topology_domains->Find(e.term.topology_key);
      if (domains == nullptr) continue;  // no node to score has the key
      if (domains->OneNodePerDomain() || e.counts.size() > num_scored) {
        out_.read_per_node.push_back({&e, weight, domains});
        continue;
      }
      const size_t k = out_.topology_score.For(e.term.topology_key);
      for (const auto& [value, count] : e.counts) {
        out_.topology_score.AddValue(k, value, weight * count);
      }
    }
  }

 private:
  const Pod& pod_;
  const LabelSet& ns_labels_;
  const int32_t hard_weight_;
  const Interner& in_;
  PreScoreData& out_;
};

}  // namespace

Status InterPodAffinity::PreScore(CycleState& state, const Pod& pod,
                                  std::span<const NodeInfo* const> feasible,
                                  const ClusterState& snapshot) const {
  const PodAffinityTerms& terms = pod.pod_affinity;
  const bool has_constraints =
      !terms.preferred_affinity.empty() || !terms.preferred_anti_affinity.empty();
  if (args_.ignore_preferred_terms_of_existing_pods && !has_constraints) {
    return Status(Code::kSkip);
  }
  using Kind = AffinityTermIndex::Kind;
  const AffinityTermIndex& index = snapshot.affinity_term_index();
  // Without terms of its own, P is scored by the existing pods' terms
  // alone: with none of the kinds read below, the walk ends in Skip, so
  // it is not built.
  if (!has_constraints && index.entries(Kind::kPreferredAffinity).empty() &&
      index.entries(Kind::kPreferredAntiAffinity).empty() &&
      (args_.hard_pod_affinity_weight <= 0 || index.entries(Kind::kRequiredAffinity).empty())) {
    return Status(Code::kSkip);
  }
  const Interner& in = snapshot.interner();
  auto st = std::make_shared<State>();
  st->interner = &in;
  PreScoreData& data = st->score.emplace();
  data.topology_score = interpodaffinity::DomainCounts(&snapshot.topology_domains());
  data.topology_domains = &snapshot.topology_domains();
  data.affinity = terms.preferred_affinity;
  data.anti_affinity = terms.preferred_anti_affinity;
  for (auto& t : data.affinity) interpodaffinity::MergeNamespaces(snapshot, &t.term);
  for (auto& t : data.anti_affinity) interpodaffinity::MergeNamespaces(snapshot, &t.term);
  ScoreBuilder builder(pod, snapshot.NamespaceLabels(pod.ns_atom), args_.hard_pod_affinity_weight,
                       in, &data);

  // processExistingPod, split: P's preferred terms read only a pod's
  // namespace and labels, so they are matched once per group of such pods
  // and weighted by its count per node; the existing pods' terms are
  // matched once per distinct term.
  if (has_constraints) {
    for (const auto& [key, group] : snapshot.pod_label_index().groups()) {
      builder.ProcessIncomingTerms(*group);
    }
  }
  if (args_.hard_pod_affinity_weight > 0) {
    builder.ProcessExistingTerms(index, Kind::kRequiredAffinity, 1, feasible.size());
  }
  builder.ProcessExistingTerms(index, Kind::kPreferredAffinity, 1, feasible.size());
  builder.ProcessExistingTerms(index, Kind::kPreferredAntiAffinity, -1, feasible.size());
  if (!data.topology_counted && data.existing.empty()) return Status(Code::kSkip);
  state.Write(slot(), std::move(st));
  return Status();
}

Status InterPodAffinity::Score(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node,
                               int64_t* score) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->score) {
    return Status::Error("failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
  }
  const uint32_t index = node.index();
  int64_t sum = 0;
  const interpodaffinity::DomainCounts& topology = s->score->topology_score;
  for (size_t k = 0; k < topology.size(); ++k) sum += topology.at(k).Get(index);
  for (const interpodaffinity::NodeReadTerm& t : s->score->read_per_node) {
    const uint32_t d = t.domains->DomainOf(index);
    if (d != TopologyDomains::kNone) {
      sum += t.weight * interpodaffinity::CountIn(*t.entry, t.domains->ValueOf(d));
    }
  }
  *score = sum;
  return Status();
}

Status InterPodAffinity::NormalizeScore(const CycleState& state, const Pod& /*pod*/,
                                        std::span<int64_t> scores) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->score) {
    return Status::Error("failed to read \"PreScoreInterPodAffinity\" from cycleState: not found");
  }
  if (scores.empty()) return Status();
  int64_t min_count = std::numeric_limits<int64_t>::max();
  int64_t max_count = std::numeric_limits<int64_t>::min();
  for (int64_t v : scores) {
    max_count = std::max(max_count, v);
    min_count = std::min(min_count, v);
  }
  const int64_t diff = max_count - min_count;
  for (int64_t& v : scores) {
    double f = 0;
    if (diff > 0) {
      f = static_cast<double>(kMaxNodeScore) *
          (static_cast<double>(v - min_count) / static_cast<double>(diff));
    }
    v = static_cast<int64_t>(f);
  }
  return Status();
}

}  // namespace sched
