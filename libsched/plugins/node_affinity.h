// NodeAffinity: Filter keeps the nodes that match the pod's nodeSelector and
// required node affinity; Score sums the weights of the preferred terms a
// node matches. Mirrors
// pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go, including
// NodeAffinityArgs.addedAffinity, which applies to every pod of the profile.
//
// PreFilter restricts the nodes to filter (PreFilterResult.NodeNames) when
// every required term pins metadata.name with In, as upstream does; the
// framework then reports the other nodes as "node(s) didn't satisfy
// plugin(s) [NodeAffinity]".
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_AFFINITY_H_
#define LIBSCHED_PLUGINS_NODE_AFFINITY_H_

#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"
#include "libsched/model/labels.h"

namespace sched {

// config.NodeAffinityArgs: addedAffinity, a v1.NodeAffinity every pod of the
// profile must also satisfy (required) and is also scored by (preferred).
// Label keys and values are atoms of the engine's Interner.
// REQUIRES: no term that upstream parses is invalid (the decoder rejects
// them, as ValidateNodeAffinityArgs does): every non-empty required term,
// and every non-empty preferred term of non-zero weight.
struct NodeAffinityArgs {
  // addedAffinity.requiredDuringSchedulingIgnoredDuringExecution; with no
  // terms it matches no node.
  std::optional<NodeSelector> added_required;
  // addedAffinity.preferredDuringSchedulingIgnoredDuringExecution.
  std::vector<PreferredSchedulingTerm> added_preferred;
};

class NodeAffinity final : public PreFilterPlugin,
                           public FilterPlugin,
                           public PreScorePlugin,
                           public ScorePlugin,
                           public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeAffinity";
  // ErrReasonPod.
  static constexpr std::string_view kReasonPod =
      "node(s) didn't match Pod's node affinity/selector";
  // errReasonConflict: the required terms pin metadata.name to no node.
  static constexpr std::string_view kReasonConflict = "pod affinity terms conflict";

  // errReasonEnforced: the node does not match addedAffinity's required part.
  static constexpr std::string_view kReasonEnforced =
      "node(s) didn't match scheduler-enforced node affinity";

  explicit NodeAffinity(NodeAffinityArgs args = {}) : args_(std::move(args)) {}

  std::string_view Name() const override { return kName; }
  // Node Add|UpdateNodeLabel: Queue when the node now matches addedAffinity,
  // the pod's nodeSelector and required affinity and did not before (or is
  // new).
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;

  // Skip when the pod has neither a nodeSelector nor required node affinity
  // and the args add no required affinity.
  // Otherwise `result` gets the union over required terms of the
  // intersection of each term's metadata.name In values, unless some term
  // has no such requirement (then any node may match); an empty union is
  // UnschedulableAndUnresolvable kReasonConflict.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // A node that fails addedAffinity is UnschedulableAndUnresolvable
  // kReasonEnforced, before the pod's own affinity is checked.
  // REQUIRES: PreFilter returned Success in this cycle (else Error);
  // node.node() != null.
  Status Filter(const CycleState& state, const Pod& pod,
                const NodeInfo& node) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the verdict reads only the node and the pod
  // (addedAffinity is the profile's, and each profile has its own cache).
  bool FilterIsNodeLocal(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }
  // Skip when neither the pod nor the args have preferred terms; Error when
  // a pod's term with a non-zero weight is invalid (upstream parses them
  // eagerly here).
  Status PreScore(CycleState& state, const Pod& pod,
                  std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // The weights of the added and the pod's preferred terms the node matches.
  // REQUIRES: PreScore returned Success in this cycle (else Error).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  // Equivalence-class cache: the raw score reads only the node and the pod.
  bool ScoreCacheKey(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;
  // DefaultNormalizeScore's: 0.
  bool NormalizesZeroColumnTo(int64_t* normalized) const override;

 private:
  NodeAffinityArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_AFFINITY_H_
