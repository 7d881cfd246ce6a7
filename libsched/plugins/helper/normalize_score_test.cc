#include "libsched/plugins/helper/normalize_score.h"

#include <gtest/gtest.h>

#include <vector>

#include "libsched/framework/plugin.h"

namespace sched {
namespace normalize_score_test {
namespace {

// The cases of upstream's TestDefaultNormalizeScore, plus negative scores.
TEST(DefaultNormalizeScoreTest, Table) {
  struct Case {
    bool reverse;
    std::vector<int64_t> scores;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {false, {1, 2, 3, 4}, {25, 50, 75, 100}},
      {true, {1, 2, 3, 4}, {75, 50, 25, 0}},
      {false, {1000, 10, 20, 30}, {100, 1, 2, 3}},
      {true, {1000, 10, 20, 30}, {0, 99, 98, 97}},
      {false, {1, 1, 1, 1}, {100, 100, 100, 100}},
      {false, {1000, 1, 1, 1}, {100, 0, 0, 0}},
      {true, {0, 1, 1, 1}, {100, 0, 0, 0}},
      {false, {0, 0, 0, 0}, {0, 0, 0, 0}},
      {true, {0, 0, 0, 0}, {100, 100, 100, 100}},
      {false, {}, {}},
      {true, {}, {}},
      // The maximum starts at 0: negative scores alone are left as they are
      // (or all become max when reversed); with a positive maximum they
      // scale like any other score, truncating toward zero.
      {false, {-5, -1}, {-5, -1}},
      {true, {-5, -1}, {100, 100}},
      {false, {-3, 4}, {-75, 100}},
      {true, {-3, 4}, {175, 0}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    std::vector<int64_t> scores = cases[i].scores;
    const Status s = DefaultNormalizeScore(kMaxNodeScore, cases[i].reverse, scores);
    EXPECT_TRUE(s.IsSuccess()) << "case " << i;
    EXPECT_EQ(scores, cases[i].want) << "case " << i;
  }
}

}  // namespace
}  // namespace normalize_score_test
}  // namespace sched
