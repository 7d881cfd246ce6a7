// NodeLabel: the legacy CheckNodeLabelPresence predicate and NodeLabel
// (labelPreference) priority of Policy configs, mirroring
// pkg/scheduler/framework/plugins/nodelabel/node_label.go (kube-scheduler
// v1.20; removed upstream in v1.23).
//
// Filter: a node fits when it has every presentLabels key and none of the
// absentLabels keys (values do not matter); otherwise
// UnschedulableAndUnresolvable "node(s) didn't have the requested labels".
// Score: 100 per presentLabelsPreference key the node has and per
// absentLabelsPreference key it lacks, divided by the number of preference
// keys (0 with none).
//
// Upstream's plugin has neither PreFilter nor PreScore; here they resolve
// the label keys to interned ids once per cycle, since Filter and Score get
// no interner.
//
// Thread-safety: immutable after construction; const methods may be called
// concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_LABEL_H_
#define LIBSCHED_PLUGINS_NODE_LABEL_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/plugin.h"

namespace sched {

// config.NodeLabelArgs (v1.20): label keys. Validated by the config
// decoder (no key both present and absent).
struct NodeLabelArgs {
  std::vector<std::string> present_labels;
  std::vector<std::string> absent_labels;
  std::vector<std::string> present_labels_preference;
  std::vector<std::string> absent_labels_preference;
};

class NodeLabel final : public PreFilterPlugin,
                        public FilterPlugin,
                        public PreScorePlugin,
                        public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeLabel";
  // ErrReasonPresenceViolated.
  static constexpr std::string_view kReasonPresenceViolated =
      "node(s) didn't have the requested labels";

  explicit NodeLabel(NodeLabelArgs args) : args_(std::move(args)) {}
  std::string_view Name() const override { return kName; }

  // Skips when there are no presentLabels / absentLabels.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // REQUIRES: PreFilter ran on `state` (else Error).
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  // Skips when there are no preference labels.
  Status PreScore(CycleState& state, const Pod& pod, std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // REQUIRES: PreScore ran on `state` (else Error).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;

 private:
  NodeLabelArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_LABEL_H_
