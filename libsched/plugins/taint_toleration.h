// TaintToleration: Filter rejects nodes with a NoSchedule or NoExecute taint
// the pod does not tolerate; Score prefers nodes with fewer untolerated
// PreferNoSchedule taints. Mirrors
// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.
//
// The TaintTolerationComparisonOperators gate (Lt/Gt tolerations, alpha,
// off by default) is not supported: with it off, such a toleration
// tolerates nothing.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_TAINT_TOLERATION_H_
#define LIBSCHED_PLUGINS_TAINT_TOLERATION_H_

#include <span>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class TaintToleration final : public FilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin,
                              public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "TaintToleration";
  // The Filter reason since v1.35: it names no taint, so the FitError
  // histogram groups every tainted node under one entry.
  static constexpr std::string_view kReasonUntolerated = "node(s) had untolerated taint(s)";

  std::string_view Name() const override { return kName; }
  // Node Add|UpdateNodeTaint: Queue when the node had an untolerated
  // NoSchedule/NoExecute taint (or is new) and now has none; Pod
  // UpdatePodToleration: Queue for the pod's own update.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // REQUIRES: node.node() != null.
  Status Filter(const CycleState& state, const Pod& pod,
                const NodeInfo& node) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the verdict reads only the node and the pod.
  bool FilterIsNodeLocal(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }
  // Keeps the tolerations that can tolerate a PreferNoSchedule taint.
  Status PreScore(CycleState& state, const Pod& pod,
                  std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // The number of PreferNoSchedule taints the pod does not tolerate.
  // REQUIRES: PreScore ran in this cycle (else Error, as upstream).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  // Equivalence-class cache: the raw score reads only the node and the pod.
  bool ScoreCacheKey(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }
  bool HasNormalizeScore() const override { return true; }
  // Reversed: fewer untolerated taints score higher.
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;
  // DefaultNormalizeScore's: kMaxNodeScore (reversed).
  bool NormalizesZeroColumnTo(int64_t* normalized) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_TAINT_TOLERATION_H_
