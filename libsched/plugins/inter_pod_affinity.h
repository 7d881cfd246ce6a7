// InterPodAffinity: places pods relative to the pods already running, by
// topology domain (the value of a node label, topologyKey). Mirrors
// pkg/scheduler/framework/plugins/interpodaffinity/{plugin,filtering,scoring}.go
// (kube-scheduler v1.36.3).
//
// Filter, for the incoming pod P on node N:
//  1. P's required affinity: N has every term's topologyKey, and some
//     existing pod in N's domain matches all of P's terms — unless no pod
//     in the cluster matches them and P matches its own terms (the first
//     pod of a self-affine group). Else UnschedulableAndUnresolvable
//     kReasonAffinity.
//  2. P's required anti-affinity: no pod matching a term runs in N's domain
//     of that term. Else Unschedulable kReasonAntiAffinity.
//  3. Existing pods' required anti-affinity (the symmetric rule): no pod
//     whose term matches P runs in N's domain of that term. Else
//     Unschedulable kReasonExistingAntiAffinity.
// PreFilter counts matching pods per (topologyKey, value) pair once; Filter
// is then a few lookups per node. AddPod / RemovePod adjust the counts.
// Existing pods' terms are not walked pod by pod: the snapshot's
// AffinityTermIndex holds each distinct term with its counts per domain, so
// P is matched once per distinct term (rule 3 and the scoring of existing
// pods' terms); P's own terms are matched once per PodLabelIndex group.
//
// Score sums, per node, the weights of the topology pairs it belongs to:
// P's preferred terms against existing pods (+weight for affinity, -weight
// for anti-affinity), existing pods' preferred terms against P, and
// existing pods' required affinity terms against P (hardPodAffinityWeight).
// NormalizeScore scales min..max to 0..100.
//
// The incoming pod's terms with a non-empty namespaceSelector are resolved
// against the Namespaces the engine knows, once per cycle
// (mergeAffinityTermNamespacesIfNotEmpty); existing pods' terms match P
// against the labels of P's Namespace.
//
// Thread-safety: holds only its arguments; const methods may be called
// concurrently.
#ifndef LIBSCHED_PLUGINS_INTER_POD_AFFINITY_H_
#define LIBSCHED_PLUGINS_INTER_POD_AFFINITY_H_

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

// config.InterPodAffinityArgs with its v1 defaults (apis/config/v1/defaults.go).
struct InterPodAffinityArgs {
  // Weight of an existing pod's required affinity term that P matches, in
  // scoring; 0 disables it. Valid range 0..100 (validation_pluginargs.go).
  int32_t hard_pod_affinity_weight = 1;
  // Skip scoring when P has no preferred (anti-)affinity terms.
  bool ignore_preferred_terms_of_existing_pods = false;
};

class InterPodAffinity final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "InterPodAffinity";
  // ErrReasonAffinityRulesNotMatch (UnschedulableAndUnresolvable).
  static constexpr std::string_view kReasonAffinity = "node(s) didn't match pod affinity rules";
  // ErrReasonAntiAffinityRulesNotMatch (Unschedulable).
  static constexpr std::string_view kReasonAntiAffinity =
      "node(s) didn't match pod anti-affinity rules";
  // ErrReasonExistingAntiAffinityRulesNotMatch (Unschedulable).
  static constexpr std::string_view kReasonExistingAntiAffinity =
      "node(s) didn't satisfy existing pods anti-affinity rules";

  // REQUIRES: 0 <= args.hard_pod_affinity_weight <= 100 (the config decoder
  // validates it).
  explicit InterPodAffinity(InterPodAffinityArgs args = {}) : args_(args) {}

  std::string_view Name() const override { return kName; }

  // UnschedulableAndUnresolvable "parsing pod: ..." when P's terms failed to
  // parse; Skip when P has no required terms and no existing pod's required
  // anti-affinity matches P.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  bool HasPreFilterExtensions() const override { return true; }
  // Count `pod_to_add` (on `node`) as present / absent. Error when
  // PreFilter did not write its state.
  Status AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                const NodeInfo& node) const override;
  Status RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                   const NodeInfo& node) const override;
  // REQUIRES: PreFilter returned Success in this cycle (else Error).
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  // P's required and preferred terms (P's labels and namespace are read
  // through what FilterIsNodeLocal and ScoreCacheKey feed their keys).
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // A node's verdict reads the signs of the counts in its domains. Feeds
  // `key` what else it reads: P's merged terms, the existing pods' terms
  // that match P, whether any pod matches P's affinity (the first-pod
  // rule), and per term whose topology key has a domain of several nodes,
  // the domains with a positive count; a domain of one node counts that
  // node's pods, which its generation covers. False after AddPod / RemovePod moved the
  // existing pods' counts (never in the filter walk). In
  // inter_pod_affinity_cache_key.cc.
  bool FilterIsNodeLocal(const CycleState& state, PodSigner& key) const override;

  // Skip when nothing scores (no term matched on any labelled node), or
  // when ignore_preferred_terms_of_existing_pods and P has no preferred
  // terms. Reads every node of `snapshot`, not only `feasible`, as upstream.
  Status PreScore(CycleState& state, const Pod& pod, std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // REQUIRES: PreScore returned Success in this cycle (else Error). The raw
  // score may be negative.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  // A node's raw score sums counts in its domains. True only when every
  // topology key read (P's preferred terms', the matching existing terms')
  // is one node per domain: the counts are then that node's pods', which
  // its generation covers; feeds `key` P's merged preferred terms with
  // their weights and the existing pods' terms that match P with their
  // signed weights. False (live) with wider domains: a placement moves
  // every score of its domain. In inter_pod_affinity_cache_key.cc.
  bool ScoreCacheKey(const CycleState& state, PodSigner& key) const override;
  bool HasNormalizeScore() const override { return true; }
  // int64(100 * (s - min) / (max - min)) in float64; all 0 when max == min.
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;

  // Pod Add | UpdatePodLabel | Delete and Node Add | UpdateNodeLabel with
  // upstream's isSchedulableAfterPodChange / isSchedulableAfterNodeChange
  // (queueing hints on): terms as GetAffinityTerms builds them, namespace
  // selectors matched against no labels. In inter_pod_affinity_hints.cc.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;

 private:
  // preFilterState.updateWithPod for AddPod (+1) / RemovePod (-1).
  Status UpdateWithPod(CycleState& state, const Pod& pod, const Pod& other, const NodeInfo& node,
                       int64_t multiplier) const;

  InterPodAffinityArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_INTER_POD_AFFINITY_H_
