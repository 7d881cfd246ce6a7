#include "libsched/plugins/internal/pod_topology_spread_normalize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace sched::pts_internal {
namespace pod_topology_spread_normalize_test {
namespace {

struct Case {
  std::string name;
  std::vector<int64_t> scores;
  std::vector<uint8_t> ignored;  // empty: none
  std::vector<int64_t> want;
};

TEST(ReverseNormalizeTest, Cases) {
  const std::vector<Case> cases = {
      // min 3, max 5: 100 * (8 - s) / 5; 2 values < 6 nodes (the table).
      {"table", {3, 5, 4, 3, 5, 4}, {}, {100, 60, 80, 100, 60, 80}},
      {"table, one node", {5}, {}, {100}},
      // 10 values >= 2 nodes: divided per node.
      {"per node", {0, 10}, {}, {100, 0}},
      {"per node, ignored", {9, 0, 10}, {1, 0, 0}, {0, 100, 0}},
      // The ignored nodes' scores lie below and above the others' range.
      {"table, ignored out of range", {0, 5, 5, 6, 6, 6, 40}, {1, 0, 0, 0, 0, 0, 1},
       {0, 100, 100, 83, 83, 83, 0}},
      {"max 0", {0, 0, 0}, {}, {100, 100, 100}},
      {"max 0, ignored", {7, 0}, {1, 0}, {0, 100}},
      {"every node ignored", {3, 4}, {1, 1}, {0, 0}},
  };
  for (const Case& tc : cases) {
    std::vector<int64_t> scores = tc.scores;
    ReverseNormalize(scores, tc.ignored);
    EXPECT_EQ(scores, tc.want) << tc.name;
  }
}

// Against upstream's loop (one division per node), on columns whose spans
// fall on either side of the node count.
TEST(ReverseNormalizeTest, SameAsDividingPerNode) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 2000; ++round) {
    const size_t n = 1 + rng() % 40;
    const int64_t spread = 1 + static_cast<int64_t>(rng() % 80);
    std::vector<int64_t> scores(n);
    std::vector<uint8_t> ignored(round % 2 == 0 ? 0 : n);
    for (int64_t& s : scores) s = static_cast<int64_t>(rng() % static_cast<uint64_t>(spread));
    for (uint8_t& i : ignored) i = rng() % 4 == 0 ? 1 : 0;
    int64_t lo = std::numeric_limits<int64_t>::max();
    int64_t hi = 0;
    for (size_t i = 0; i < n; ++i) {
      if (!ignored.empty() && ignored[i]) continue;
      lo = std::min(lo, scores[i]);
      hi = std::max(hi, scores[i]);
    }
    std::vector<int64_t> want(n);
    for (size_t i = 0; i < n; ++i) {
      if (!ignored.empty() && ignored[i]) continue;
      want[i] = hi == 0 ? 100 : 100 * (hi + lo - scores[i]) / hi;
    }
    ReverseNormalize(scores, ignored);
    ASSERT_EQ(scores, want) << "round " << round;
  }
}

}  // namespace
}  // namespace pod_topology_spread_normalize_test
}  // namespace sched::pts_internal
