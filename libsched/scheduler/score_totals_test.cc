// ScoreDetail::kTotals with the equivalence cache: the weighted totals are
// summed straight from the cache's raw rows (Scheduler::ScoreTotalsFromRows)
// and, for live Score plugins (ScoreCacheKey false, as PodTopologySpread
// with its default constraints), from each live column scored whole
// (ScorePlugin::ScoreAll), normalized and weighted
// (Scheduler::ScoreTotalsWithLiveColumns). They must equal the general
// path's (per-plugin matrix, NormalizeScore per column, weights, sum) and
// the uncached path's, cycle after cycle while rows are reused and
// repaired; a failing Score, NormalizeScore or range check, or a live
// plugin that declines ScoreAll, must leave the cycle to the general path,
// with its error.
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
constexpr int64_t kLiveOutOfRange = 11;

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

// Live (never cacheable), with DefaultNormalizeScore (reversed): raw
// scores of at most 40 from the node's cpu and a per-scheduler cycle
// count, so a stale cached value would show; 101 raw (out of range after
// normalizing: it is not) or 42 (NormalizeScore fails) on marked nodes.
// With `score_all`, ScoreAll gives Score's values on the marked nodes.
class LiveSpread : public ScorePlugin {
 public:
  LiveSpread(const int* cycle, bool score_all) : cycle_(cycle), score_all_(score_all) {}
  std::string_view Name() const override { return "LiveSpread"; }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    const Resource& a = n.node()->allocatable;
    if (a.allowed_pods == kNormalizeFails) {
      *s = 42;
    } else {
      *s = (a.milli_cpu / 70 + *cycle_ * 3) % 41;
    }
    return Status();
  }
  bool ScoreAll(const CycleState& cs, const Pod& pod, std::span<const NodeInfo* const> nodes,
                std::span<const char> which, std::span<int64_t> scores) const override {
    if (!score_all_) return false;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (which[i]) Score(cs, pod, *nodes[i], &scores[i]);
    }
    return true;
  }
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState&, const Pod&, std::span<int64_t> scores) const override {
    for (int64_t s : scores) {
      if (s == 42) return Status::Error("normalize saw 42");
    }
    return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
  }

 private:
  const int* cycle_;
  bool score_all_;
};

// Live, no NormalizeScore: 101 on the nodes with kLiveOutOfRange pods.
class LiveDirect : public ScorePlugin {
 public:
  std::string_view Name() const override { return "LiveDirect"; }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    const Resource& a = n.node()->allocatable;
    *s = a.allowed_pods == kLiveOutOfRange ? 101 : (a.milli_cpu / 30) % 101;
    return Status();
  }
  bool ScoreAll(const CycleState& cs, const Pod& pod, std::span<const NodeInfo* const> nodes,
                std::span<const char> which, std::span<int64_t> scores) const override {
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (which[i]) Score(cs, pod, *nodes[i], &scores[i]);
    }
    return true;
  }
};

// The fixture's profiles: `cycle` counts the cycles (the live plugins'
// scores move with it), `score_all` says whether LiveSpread takes ScoreAll.
Profile TwoScores(const int*, bool) {
  Profile p("x");
  p.Add(std::make_unique<CpuScore>(), 2);
  p.Add(std::make_unique<SpreadScore>(), 3);
  p.Add(std::make_unique<TaintLikeScore>(), 4);
  return p;
}

// Every plugin with NormalizeScore says what a zero column gives.
Profile ZeroColumnScores(const int*, bool) {
  Profile p("x");
  p.Add(std::make_unique<CpuScore>(), 2);
  p.Add(std::make_unique<TaintLikeScore>(), 4);
  return p;
}

// Cacheable plugins and two live ones.
Profile LiveScores(const int* cycle, bool score_all) {
  Profile p("x");
  p.Add(std::make_unique<CpuScore>(), 2);
  p.Add(std::make_unique<LiveSpread>(cycle, score_all), 3);
  p.Add(std::make_unique<LiveDirect>(), 1);
  return p;
}

template <Profile (*MakeProfile)(const int*, bool), bool kScoreAll = true>
class TotalsTest : public ::testing::Test {
 public:
  // With live plugins: their columns summed with the rows (LiveSpread
  // takes ScoreAll), else the general path's per-plugin matrix.
  static constexpr bool kLiveSummed = kScoreAll;

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
  int cycle_ = 0;
  Scheduler per_plugin_{MakeProfile(&cycle_, kScoreAll), 5};
  Scheduler totals_{MakeProfile(&cycle_, kScoreAll), 5};
  Scheduler uncached_{MakeProfile(&cycle_, kScoreAll), 5};
  ClusterState state_;

  void SetUp() override {
    per_plugin_.set_equivalence_cache(true);
    totals_.set_equivalence_cache(true);
    for (int i = 0; i < 40; ++i) SetNode(i, 500 + 337 * i);
  }

  // Runs one cycle on the three; expects the same result. Returns the
  // totals-only cycle's result.
  ScheduleResult Cycle(const std::string& what) {
    ++cycle_;
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
// The live columns with ScoreAll (summed with the rows) and without it
// (the general path).
template <typename T>
class LiveColumnTotalsTest : public T {};
using LiveFixtures = ::testing::Types<TotalsTest<LiveScores, true>, TotalsTest<LiveScores, false>>;
TYPED_TEST_SUITE(LiveColumnTotalsTest, LiveFixtures);

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

// The totals go through scratch kept across cycles: a cycle that scores
// fewer nodes than the last one gets exactly its own totals.
TEST_F(ScoreTotalsTest, FewerNodesThanTheLastCycle) {
  for (const size_t nodes : {40u, 25u, 31u, 12u}) {
    while (state_.NodeList().size() > nodes) {
      ASSERT_TRUE(state_.RemoveNode("n" + std::to_string(state_.NodeList().size() - 1)));
    }
    for (size_t i = state_.NodeList().size(); i < nodes; ++i) SetNode(static_cast<int>(i), 700);
    const ScheduleResult r = Cycle(std::to_string(nodes) + " nodes");
    ASSERT_FALSE(r.error) << r.message;
    EXPECT_EQ(r.total_scores.size(), nodes);
  }
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

TYPED_TEST(LiveColumnTotalsTest, TotalsEqualTheGeneralPath) {
  for (int round = 0; round < 30; ++round) {
    const ScheduleResult r = this->Cycle("round " + std::to_string(round));
    ASSERT_FALSE(r.error) << r.message;
    ASSERT_EQ(r.total_scores.size(), 40u);
    // With ScoreAll, summed from the rows and the live columns: no
    // per-plugin matrix; without, the general path's.
    EXPECT_EQ(r.plugin_scores.empty(), TypeParam::kLiveSummed) << round;
    // Some nodes change: their rows are scored afresh, the rest reused.
    this->SetNode((round * 7) % 40, 900 + 211 * round);
    this->SetNode((round * 13 + 5) % 40, 300 + 97 * round);
  }
  const EcacheStats& st = *this->totals_.equivalence_cache_stats();
  EXPECT_GT(st.reused, 0);
  EXPECT_GT(st.repairs, 0);
  EXPECT_EQ(st.reused, this->per_plugin_.equivalence_cache_stats()->reused);
  EXPECT_EQ(st.repairs, this->per_plugin_.equivalence_cache_stats()->repairs);
}

TYPED_TEST(LiveColumnTotalsTest, ErrorsAreTheGeneralPaths) {
  this->Cycle("warm");  // every row cached
  struct Case {
    int64_t pods;
    std::string message;
  };
  const std::vector<Case> cases = {
      {kLiveOutOfRange,
       "plugin \"LiveDirect\" returns an invalid score 101, it should in the range of [0, 100] "
       "after normalizing"},
      {kNormalizeFails, "running Normalize on Score plugins: normalize saw 42"},
  };
  for (const Case& c : cases) {
    this->SetNode(3, 1000, c.pods);  // a fresh row among cached ones
    const ScheduleResult r = this->Cycle("pods " + std::to_string(c.pods));
    EXPECT_TRUE(r.error);
    EXPECT_EQ(r.message, c.message);
    this->SetNode(3, 1000);
    const ScheduleResult after = this->Cycle("after pods " + std::to_string(c.pods));
    EXPECT_FALSE(after.error) << after.message;
  }
}

}  // namespace
}  // namespace score_totals_test
}  // namespace sched
