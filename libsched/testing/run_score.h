// Runs a Score plugin over nodes the way the framework does (Score per
// node, then NormalizeScore), for plugin tests. Test-only.
#ifndef LIBSCHED_TESTING_RUN_SCORE_H_
#define LIBSCHED_TESTING_RUN_SCORE_H_

#include <span>
#include <vector>

#include "libsched/framework/plugin.h"

namespace sched::testing {

// Fills `scores` (parallel to `nodes`); returns the first failing status.
Status ScoreAndNormalize(const ScorePlugin& plugin, const CycleState& state, const Pod& pod,
                         std::span<const NodeInfo* const> nodes, std::vector<int64_t>* scores);

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_RUN_SCORE_H_
