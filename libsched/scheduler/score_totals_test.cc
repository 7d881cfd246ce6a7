// ScoreDetail::kTotals with the equivalence cache: the weighted totals are
// summed straight from the cache's raw rows (Scheduler::ScoreTotalsFromRows)
// and must equal the general path's (per-plugin matrix, NormalizeScore per
// column, weights, sum), cycle after cycle while rows are reused and
// repaired; a failing Score, NormalizeScore or range check must end the
// cycle with the general path's error.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/plugins/helper/normalize_score.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace score_totals_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// A node's pod capacity selects a misbehaving score (every other value
// scores normally).
constexpr int64_t kScoreFails = 7;
constexpr int64_t kOutOfRange = 8;
constexpr int64_t kNormalizeFails = 9;
constexpr int64_t kNonZero = 10;

// Cacheable, no NormalizeScore: a score in [0, 100] from the node's cpu,
// or an error / 101 on the marked nodes.
class CpuScore : public ScorePlugin {
 public:
  std::string_view Name() const override { return "CpuScore"; }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    const Resource& a = n.node()->allocatable;
    if (a.allowed_pods == kScoreFails) {
      *s = 0;
      return Status::Error("cannot score " + n.node()->name);
    }
    *s = a.allowed_pods == kOutOfRange ? 101 : (a.milli_cpu / 100) % 101;
    return Status();
  }
  bool ScoreCacheKey(const CycleState&, PodSigner&) const override { return true; }
};

// Cacheable, with DefaultNormalizeScore (reversed): raw scores of at most
// 40, so normalizing changes them; fails on the marked nodes' raw 42.
class SpreadScore : public ScorePlugin {
 public:
  std::string_view Name() const override { return "SpreadScore"; }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    const Resource& a = n.node()->allocatable;
    *s = a.allowed_pods == kNormalizeFails ? 42 : (a.milli_cpu / 70) % 41;
    return Status();
  }
  bool ScoreCacheKey(const CycleState&, PodSigner&) const override { return true; }
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState&, const Pod&, std::span<int64_t> scores) const override {
    for (int64_t s : scores) {
      if (s == 42) return Status::Error("normalize saw 42");
    }
    return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
  }
};

// Cacheable, with DefaultNormalizeScore (reversed), and it says so
// (NormalizesZeroColumnTo): raw 0 except 3 on the marked nodes, so its
// column is all zero in most cycles.
class TaintLikeScore : public ScorePlugin {
 public:
  std::string_view Name() const override { return "TaintLikeScore"; }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    *s = n.node()->allocatable.allowed_pods == kNonZero ? 3 : 0;
    return Status();
  }
  bool ScoreCacheKey(const CycleState&, PodSigner&) const override { return true; }
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState&, const Pod&, std::span<int64_t> scores) const override {
    return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
  }
  bool NormalizesZeroColumnTo(int64_t* normalized) const override {
    *normalized = DefaultNormalizedZero(kMaxNodeScore, /*reverse=*/true);
    return true;
  }
};

Profile TwoScores() {
  Profile p("x");
  p.Add(std::make_unique<CpuScore>(), 2);
  p.Add(std::make_unique<SpreadScore>(), 3);
  p.Add(std::make_unique<TaintLikeScore>(), 4);
  return p;
}

// Every plugin with NormalizeScore says what a zero column gives.
Profile ZeroColumnScores() {
  Profile p("x");
  p.Add(std::make_unique<CpuScore>(), 2);
  p.Add(std::make_unique<TaintLikeScore>(), 4);
  return p;
}

template <Profile (*MakeProfile)()>
class TotalsTest : public ::testing::Test {
 protected:
  void SetNode(int i, int64_t milli_cpu, int64_t pods = 110) {
    state_.UpsertNode(NodeBuilder(state_.interner(), "n" + std::to_string(i))
                          .Capacity(milli_cpu, 1 << 30, pods)
                          .Build());
  }
  std::shared_ptr<const Pod> APod() { return PodBuilder(state_.interner(), "p").Build(); }

  // The same cycle through the general path (cache on, per-plugin scores),
  // the rows (cache on, totals only) and no cache (totals only): same
  // seed, so the same draws while the totals agree.
  Scheduler per_plugin_{MakeProfile(), 5};
  Scheduler totals_{MakeProfile(), 5};
  Scheduler uncached_{MakeProfile(), 5};
  ClusterState state_;

  void SetUp() override {
    per_plugin_.set_equivalence_cache(true);
    totals_.set_equivalence_cache(true);
    for (int i = 0; i < 40; ++i) SetNode(i, 500 + 337 * i);
  }

  // Runs one cycle on the three; expects the same result. Returns the
  // totals-only cycle's result.
  ScheduleResult Cycle(const std::string& what) {
    const ScheduleResult a = per_plugin_.Schedule(*APod(), state_, nullptr, ScoreDetail::kPerPlugin);
    ScheduleResult b = totals_.Schedule(*APod(), state_, nullptr, ScoreDetail::kTotals);
    const ScheduleResult c = uncached_.Schedule(*APod(), state_, nullptr, ScoreDetail::kTotals);
    for (const ScheduleResult* r : {static_cast<const ScheduleResult*>(&b), &c}) {
      EXPECT_EQ(r->error, a.error) << what;
      EXPECT_EQ(r->message, a.message) << what;
      EXPECT_EQ(r->node, a.node) << what;
      EXPECT_EQ(r->scored_nodes, a.scored_nodes) << what;
      EXPECT_EQ(r->total_scores, a.total_scores) << what;
    }
    return b;
  }
};

using ScoreTotalsTest = TotalsTest<TwoScores>;
using ZeroColumnsTest = TotalsTest<ZeroColumnScores>;

TEST_F(ScoreTotalsTest, RowTotalsEqualTheGeneralPath) {
  for (int round = 0; round < 30; ++round) {
    const ScheduleResult r = Cycle("round " + std::to_string(round));
    ASSERT_FALSE(r.error) << r.message;
    ASSERT_EQ(r.total_scores.size(), 40u);
    // Summed from the rows: no per-plugin matrix.
    EXPECT_TRUE(r.plugin_scores.empty()) << round;
    // Some nodes change: their rows are scored afresh, the rest reused.
    SetNode((round * 7) % 40, 900 + 211 * round);
    SetNode((round * 13 + 5) % 40, 300 + 97 * round);
  }
  const EcacheStats& st = *totals_.equivalence_cache_stats();
  EXPECT_GT(st.reused, 0);
  EXPECT_GT(st.repairs, 0);
  EXPECT_EQ(st.reused, per_plugin_.equivalence_cache_stats()->reused);
  EXPECT_EQ(st.repairs, per_plugin_.equivalence_cache_stats()->repairs);
}

// TaintLikeScore's column all zero (its declared value, no column built)
// or not (normalized), cycle after cycle as rows are reused and repaired:
// the totals equal the general path's.
TEST_F(ZeroColumnsTest, TotalsEqualTheGeneralPath) {
  for (int round = 0; round < 12; ++round) {
    const bool nonzero = round % 3 == 1;
    SetNode(5, 1200 + 50 * round, nonzero ? kNonZero : 110);
    const ScheduleResult r = Cycle("round " + std::to_string(round));
    ASSERT_FALSE(r.error) << r.message;
    ASSERT_EQ(r.total_scores.size(), 40u);
    EXPECT_TRUE(r.plugin_scores.empty()) << round;
  }
}

TEST_F(ScoreTotalsTest, ErrorsAreTheGeneralPaths) {
  Cycle("warm");  // every row cached
  struct Case {
    int64_t pods;
    std::string message;
  };
  const std::vector<Case> cases = {
      {kScoreFails, "running Score plugin \"CpuScore\": cannot score n3"},
      {kOutOfRange,
       "plugin \"CpuScore\" returns an invalid score 101, it should in the range of [0, 100] "
       "after normalizing"},
      {kNormalizeFails, "running Normalize on Score plugins: normalize saw 42"},
  };
  for (const Case& c : cases) {
    SetNode(3, 1000, c.pods);  // a fresh row among cached ones
    const ScheduleResult r = Cycle("pods " + std::to_string(c.pods));
    EXPECT_TRUE(r.error);
    EXPECT_EQ(r.message, c.message);
    SetNode(3, 1000);
    EXPECT_FALSE(Cycle("after pods " + std::to_string(c.pods)).error);
  }
}

}  // namespace
}  // namespace score_totals_test
}  // namespace sched
