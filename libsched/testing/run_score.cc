#include "libsched/testing/run_score.h"

namespace sched::testing {

Status ScoreAndNormalize(const ScorePlugin& plugin, const CycleState& state, const Pod& pod,
                         std::span<const NodeInfo* const> nodes, std::vector<int64_t>* scores) {
  scores->assign(nodes.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i) {
    Status s = plugin.Score(state, pod, *nodes[i], &(*scores)[i]);
    if (!s.IsSuccess()) return s;
  }
  return plugin.HasNormalizeScore() ? plugin.NormalizeScore(state, pod, *scores) : Status();
}

}  // namespace sched::testing
