#include "libsched/plugins/internal/pod_topology_spread_normalize.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "libsched/framework/plugin.h"

namespace sched::pts_internal {

void ReverseNormalize(std::span<int64_t> scores, std::span<const uint8_t> ignored) {
  // The ignored nodes end at 0; the others' minimum and maximum decide.
  // Loops without a test per node when no node is ignored.
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  if (ignored.empty()) {
    for (const int64_t score : scores) {
      min_score = std::min(min_score, score);
      max_score = std::max(max_score, score);
    }
  } else {
    for (size_t n = 0; n < scores.size(); ++n) {
      if (ignored[n]) continue;
      min_score = std::min(min_score, scores[n]);
      max_score = std::max(max_score, scores[n]);
    }
  }
  const auto reverse = [&](int64_t score) {
    return kMaxNodeScore * (max_score + min_score - score) / max_score;
  };
  const uint64_t span = static_cast<uint64_t>(max_score) - static_cast<uint64_t>(min_score);
  if (max_score == 0) {
    std::fill(scores.begin(), scores.end(), kMaxNodeScore);
  } else if (span < scores.size()) {
    // Fewer values than nodes (the scores are small counts): one division
    // per value into a table by score - min_score. An ignored node's score
    // may lie outside it: moved in, and set to 0 below.
    for (size_t n = 0; n < ignored.size(); ++n) {
      if (ignored[n]) scores[n] = min_score;
    }
    std::vector<int64_t> table(span + 1);
    for (uint64_t v = 0; v <= span; ++v) table[v] = reverse(min_score + static_cast<int64_t>(v));
    for (int64_t& score : scores) score = table[static_cast<uint64_t>(score - min_score)];
  } else {
    for (int64_t& score : scores) score = reverse(score);
  }
  for (size_t n = 0; n < ignored.size(); ++n) {
    if (ignored[n]) scores[n] = 0;
  }
}

}  // namespace sched::pts_internal
