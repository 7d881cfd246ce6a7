// DefaultNormalizeScore: scales scores to [0, max_priority] by the highest
// score, optionally reversed, mirroring
// pkg/scheduler/framework/plugins/helper/normalize_score.go.
//
// Thread-safety: a pure function of its arguments.
#ifndef LIBSCHED_PLUGINS_HELPER_NORMALIZE_SCORE_H_
#define LIBSCHED_PLUGINS_HELPER_NORMALIZE_SCORE_H_

#include <cstdint>
#include <span>

#include "libsched/framework/status.h"

namespace sched {

// Each score becomes max_priority * score / max (integer division), where
// max is the largest score and at least 0; `reverse` then maps s to
// max_priority - s. When max is 0 the scores stay as they are, or all
// become max_priority when reversed. Always returns Success.
Status DefaultNormalizeScore(int64_t max_priority, bool reverse, std::span<int64_t> scores);

// What DefaultNormalizeScore makes of every cell of a column whose scores
// are all 0 (ScorePlugin::NormalizesZeroColumnTo): max_priority when
// `reverse`, else 0.
constexpr int64_t DefaultNormalizedZero(int64_t max_priority, bool reverse) {
  return reverse ? max_priority : 0;
}

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_NORMALIZE_SCORE_H_
