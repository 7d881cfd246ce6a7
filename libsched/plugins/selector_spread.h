// SelectorSpread (legacy, not in the default profile): prefers nodes, and
// zones, with fewer pods of the pod's Services and controller. The Policy
// API's SelectorSpreadPriority translates onto it; upstream replaced it
// with PodTopologySpread's system default constraints.
// Mirrors pkg/scheduler/framework/plugins/selectorspread/selector_spread.go
// (its logic is the same from v1.18 to its removal; test cases from its last
// test file). The selector comes from the shared helper.DefaultSelector as
// upstream's last versions build it (the controlling ownerReference only;
// before ~v1.22 every ReplicationController / ReplicaSet / StatefulSet
// selecting the pod was merged in).
//
// PreScore: Skip for a pod with spec.topologySpreadConstraints; otherwise
// the selector is helper.DefaultSelector's (Services matching the pod, its
// controlling ReplicationController, ReplicaSet or StatefulSet).
// Score: the non-terminating pods on the node, in the pod's namespace, that
// the selector matches (0 for an empty selector).
// NormalizeScore, in float64 as upstream: with maxNode the largest count
// and, over the nodes with a zone key (GetZoneKey: region and zone labels,
// beta first), maxZone the largest per-zone sum,
//   node = 100 * (maxNode - count) / maxNode        (100 when maxNode = 0)
//   zone = 100 * (maxZone - zoneSum) / maxZone      (100 when maxZone = 0)
//   score = int64(node / 3 + zone * 2 / 3) for a node with a zone,
//           int64(node) for one without (or when no node has a zone).
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_SELECTOR_SPREAD_H_
#define LIBSCHED_PLUGINS_SELECTOR_SPREAD_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "libsched/framework/plugin.h"

namespace sched {

class SelectorSpread final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "SelectorSpread";

  std::string_view Name() const override { return kName; }

  // Skip when the pod has topology spread constraints. Records the selector
  // and the zone of each feasible node (upstream reads the zones in
  // NormalizeScore from the snapshot; ours gets none).
  Status PreScore(CycleState& state, const Pod& pod, std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // REQUIRES: PreScore ran on `state` for `pod` and did not skip.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  bool HasNormalizeScore() const override { return true; }
  // `scores` parallel to PreScore's `feasible`.
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_SELECTOR_SPREAD_H_
