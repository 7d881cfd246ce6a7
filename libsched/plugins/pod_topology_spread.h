// PodTopologySpread: Filter keeps the nodes where placing the pod keeps
// every DoNotSchedule constraint's skew within maxSkew; Score prefers the
// domains with fewer matching pods for the ScheduleAnyway constraints.
// Mirrors pkg/scheduler/framework/plugins/podtopologyspread/{plugin.go,
// common.go,filtering.go,scoring.go} with the v1.36 feature gates
// (NodeInclusionPolicyInPodTopologySpread GA, MatchLabelKeysInPodTopologySpread
// on: matchLabelKeys are merged into the selector when the pod is decoded).
//
// A pod without constraints gets the profile's default constraints, with
// the selector helper.DefaultSelector builds from the Services,
// ReplicationControllers, ReplicaSets and StatefulSets in the snapshot;
// none apply when that selector is empty.
//
// Thread-safety: holds only its args; const methods may be called
// concurrently.
#ifndef LIBSCHED_PLUGINS_POD_TOPOLOGY_SPREAD_H_
#define LIBSCHED_PLUGINS_POD_TOPOLOGY_SPREAD_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

// PodTopologySpreadArgs (pkg/scheduler/apis/config/types_pluginargs.go),
// defaulted as v1 (defaultingType System) and validated as
// ValidatePodTopologySpreadArgs by the config decoder.
struct PodTopologySpreadArgs {
  // One of defaultConstraints. Topology keys stay strings: the config is
  // decoded before any label is interned.
  struct Constraint {
    int32_t max_skew = 1;
    std::string topology_key;
    bool do_not_schedule = false;  // whenUnsatisfiable
    int32_t min_domains = 1;
    NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
    NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;
  };
  // defaultingType: System uses the built-in constraints (hostname maxSkew
  // 3, zone maxSkew 5, both ScheduleAnyway); List uses default_constraints.
  bool system_defaulting = true;
  std::vector<Constraint> default_constraints;  // only with List
};

class PodTopologySpread final : public PreFilterPlugin,
                                public FilterPlugin,
                                public PreScorePlugin,
                                public ScorePlugin,
                                public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "PodTopologySpread";
  // ErrReasonConstraintsNotMatch (Unschedulable).
  static constexpr std::string_view kReasonConstraintsNotMatch =
      "node(s) didn't match pod topology spread constraints";
  // ErrReasonNodeLabelNotMatch (UnschedulableAndUnresolvable).
  static constexpr std::string_view kReasonNodeLabelNotMatch =
      "node(s) didn't match pod topology spread constraints (missing required label)";

  explicit PodTopologySpread(PodTopologySpreadArgs args);
  std::string_view Name() const override { return kName; }

  // Counts matching pods per domain of each DoNotSchedule constraint over
  // the nodes that pass the constraint's inclusion policies and carry every
  // constraint's topology key, and keeps each constraint's two smallest
  // domains. Skip when there is no DoNotSchedule constraint. O(pod groups
  // + nodes): pods are matched per PodLabelIndex group and counted into
  // flat arrays by the snapshot's TopologyDomains ids, not hash maps.
  //
  // Every NodeInfo the other methods of this cycle get must be (a copy of)
  // one of `snapshot`'s: domains are read by NodeInfo::index().
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  bool HasPreFilterExtensions() const override { return true; }
  // Adjust the counts for a pod added to / removed from `node` (nominated
  // pods, preemption victims); copy-on-write, as `state` is a clone.
  Status AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                const NodeInfo& node) const override;
  Status RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                   const NodeInfo& node) const override;
  // REQUIRES: PreFilter returned Success in this cycle (else Error);
  // node.node() != null.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;

  // Equivalence cache (libsched/ecache), Filter only: SignPod feeds P's
  // DoNotSchedule constraints, namespace, and the nodeSelector, required
  // node affinity and tolerations where an inclusion policy honors them;
  // FilterIsNodeLocal feeds, per constraint, the domains where the skew
  // test fails, or, for a key of one node per domain, the selector, the
  // policies and the count above which a node fails. Why that suffices:
  // pod_topology_spread_filtering.cc. FilterRunsLive: always (a domain
  // lookup and a compare per constraint), so the cache's rows hold the
  // other Filters' verdicts and this key guards only the failure memo.
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  bool FilterIsNodeLocal(const CycleState& state, PodSigner& key) const override;
  bool FilterRunsLive(const CycleState& /*state*/) const override { return true; }

  // Counts matching pods per domain of each ScheduleAnyway constraint over
  // the domains of the feasible nodes (per node for hostname constraints)
  // and takes each domain's share of the score, count × ln(domains + 2) +
  // (maxSkew − 1). Skip when there is no such constraint or no node. As
  // PreFilter: flat arrays, and the nodes must belong to `snapshot`. With a
  // class memo (CycleState::class_memo) it keeps the default selector and
  // its per-node arrays there for the class's next cycle. O(pod groups +
  // matching groups' nodes + domains), and O(feasible nodes) only when a
  // node lacks a key or until the walk met every zone.
  Status PreScore(CycleState& state, const Pod& pod, std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // The raw score of `node`: the shares of the constraints whose key it
  // has, summed in order, rounded. REQUIRES: PreScore returned Success
  // (else Error) and `node` was one of its feasible nodes.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  // Score on the marked nodes at once (false, as Score's Error, without
  // PreScore): the live column of the cached score walk.
  bool ScoreAll(const CycleState& state, const Pod& pod, std::span<const NodeInfo* const> nodes,
                std::span<const char> which, std::span<int64_t> scores) const override;
  bool HasNormalizeScore() const override { return true; }
  // Reversed into [0, 100] as upstream; nodes missing a required topology
  // key get 0. REQUIRES: PreScore ran in this cycle (else Error).
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;

  // Pod Add | UpdatePodLabel | UpdatePodToleration | Delete and Node Add |
  // Delete | UpdateNodeLabel | UpdateNodeTaint with upstream's
  // isSchedulableAfterPodChange / isSchedulableAfterNodeChange (queueing
  // hints on). The hints read the pod's DoNotSchedule constraints, default
  // ones with their selector from `cluster`'s Services and controllers at
  // the time of the event. In pod_topology_spread_hints.cc.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;

 private:
  PodTopologySpreadArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_POD_TOPOLOGY_SPREAD_H_
