#include "libsched/plugins/taint_toleration.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"
#include "libsched/testing/run_score.h"

namespace sched {
namespace taint_toleration_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

struct T {  // a taint
  std::string key, value;
  TaintEffect effect;
};
struct Tol {  // a toleration
  std::string key;
  TolerationOp op;
  std::string value;
  TaintEffect effect;
};

constexpr TaintEffect kNoSchedule = TaintEffect::kNoSchedule;
constexpr TaintEffect kPrefer = TaintEffect::kPreferNoSchedule;
constexpr TaintEffect kNoExecute = TaintEffect::kNoExecute;
constexpr TolerationOp kEqual = TolerationOp::kEqual;
constexpr TolerationOp kExists = TolerationOp::kExists;

std::shared_ptr<const Pod> PodWith(Interner& in, const std::vector<Tol>& tols) {
  PodBuilder b(in, "pod1");
  for (const Tol& t : tols) b.Toleration(t.key, t.op, t.value, t.effect);
  return b.Build();
}

std::unique_ptr<NodeInfo> NodeWith(Interner& in, const std::string& name,
                                   const std::vector<T>& taints) {
  NodeBuilder b(in, name);
  for (const T& t : taints) b.Taint(t.key, t.value, t.effect);
  auto ni = std::make_unique<NodeInfo>();
  ni->SetNode(b.Build(), 1);
  return ni;
}

// Upstream's TestTaintTolerationFilter and TestTaintTolerationFilterWithFeatureGate
// (gate off; a Gt/Lt toleration tolerates nothing then, so those cases keep
// only the tolerations that count).
TEST(TaintTolerationTest, Filter) {
  struct Case {
    std::string name;
    std::vector<Tol> tolerations;
    std::vector<T> taints;
    bool want_fit;
  };
  const std::vector<Case> cases = {
      {"no tolerations, NoSchedule taint", {}, {{"dedicated", "user1", kNoSchedule}}, false},
      {"toleration matches the dedicated taint",
       {{"dedicated", kEqual, "user1", kNoSchedule}},
       {{"dedicated", "user1", kNoSchedule}},
       true},
      {"toleration for another value",
       {{"dedicated", kEqual, "user2", kNoSchedule}},
       {{"dedicated", "user1", kNoSchedule}},
       false},
      {"Exists tolerates any value",
       {{"foo", kExists, "", kNoSchedule}},
       {{"foo", "bar", kNoSchedule}},
       true},
      {"all of several taints tolerated",
       {{"dedicated", kEqual, "user2", kNoSchedule}, {"foo", kExists, "", kNoSchedule}},
       {{"dedicated", "user2", kNoSchedule}, {"foo", "bar", kNoSchedule}},
       true},
      {"non-empty effect must match",
       {{"foo", kEqual, "bar", kPrefer}},
       {{"foo", "bar", kNoSchedule}},
       false},
      {"empty effect matches NoSchedule",
       {{"foo", kEqual, "bar", TaintEffect::kNone}},
       {{"foo", "bar", kNoSchedule}},
       true},
      {"PreferNoSchedule taint is ignored by Filter",
       {{"dedicated", kEqual, "user2", kNoSchedule}},
       {{"dedicated", "user1", kPrefer}},
       true},
      {"no tolerations, PreferNoSchedule taint", {}, {{"dedicated", "user1", kPrefer}}, true},
      {"NoExecute taint counts", {}, {{"k", "v", kNoExecute}}, false},
      {"NoExecute taint tolerated", {{"k", kExists, "", kNoExecute}}, {{"k", "v", kNoExecute}},
       true},
      {"wildcard toleration", {{"", kExists, "", TaintEffect::kNone}},
       {{"a", "1", kNoSchedule}, {"b", "2", kNoExecute}}, true},
      {"gate off: only the Equal toleration counts, and suffices",
       {{"dedicated", kEqual, "user1", kNoSchedule}},
       {{"dedicated", "user1", kNoSchedule}},
       true},
      {"gate off: the Gt toleration would have been needed",
       {{"dedicated", kEqual, "user1", kNoSchedule}},
       {{"dedicated", "user1", kNoSchedule}, {"node.kubernetes.io/sla", "950", kNoSchedule}},
       false},
      {"second taint untolerated",
       {{"a", kExists, "", kNoSchedule}},
       {{"a", "1", kNoSchedule}, {"b", "2", kNoSchedule}},
       false},
  };
  for (const Case& c : cases) {
    Interner in;
    const auto pod = PodWith(in, c.tolerations);
    const auto node = NodeWith(in, "nodeA", c.taints);
    TaintToleration pl;
    CycleState state(1);
    const Status got = pl.Filter(state, *pod, *node);
    if (c.want_fit) {
      EXPECT_TRUE(got.IsSuccess()) << c.name;
    } else {
      EXPECT_EQ(got.code(), Code::kUnschedulableAndUnresolvable) << c.name;
      EXPECT_EQ(got.reasons(), std::vector<std::string_view>{"node(s) had untolerated taint(s)"})
          << c.name;
    }
  }
}

// Upstream's TestTaintTolerationScore (the Gt/Lt cases need the gate).
TEST(TaintTolerationTest, Score) {
  struct Case {
    std::string name;
    std::vector<Tol> tolerations;
    std::vector<std::vector<T>> nodes;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"tolerated taints score higher than intolerable ones",
       {{"foo", kEqual, "bar", kPrefer}},
       {{{"foo", "bar", kPrefer}}, {{"foo", "blah", kPrefer}}},
       {100, 0}},
      {"the number of tolerated taints does not matter",
       {{"cpu-type", kEqual, "arm64", kPrefer}, {"disk-type", kEqual, "ssd", kPrefer}},
       {{}, {{"cpu-type", "arm64", kPrefer}},
        {{"cpu-type", "arm64", kPrefer}, {"disk-type", "ssd", kPrefer}}},
       {100, 100, 100}},
      {"more intolerable taints, lower score",
       {{"foo", kEqual, "bar", kPrefer}},
       {{}, {{"cpu-type", "arm64", kPrefer}},
        {{"cpu-type", "arm64", kPrefer}, {"disk-type", "ssd", kPrefer}}},
       {100, 50, 0}},
      {"only PreferNoSchedule taints and tolerations count",
       {{"cpu-type", kEqual, "arm64", kNoSchedule}, {"disk-type", kEqual, "ssd", kNoSchedule}},
       {{}, {{"cpu-type", "arm64", kNoSchedule}},
        {{"cpu-type", "arm64", kPrefer}, {"disk-type", "ssd", kPrefer}}},
       {100, 100, 0}},
      {"no taints and no tolerations", {}, {{}, {{"cpu-type", "arm64", kPrefer}}}, {100, 0}},
      {"empty-effect toleration tolerates PreferNoSchedule",
       {{"cpu-type", kExists, "", TaintEffect::kNone}},
       {{{"cpu-type", "arm64", kPrefer}}, {{"disk-type", "ssd", kPrefer}}},
       {100, 0}},
      {"no node has an intolerable taint", {}, {{}, {{"k", "v", kNoSchedule}}}, {100, 100}},
  };
  for (const Case& c : cases) {
    Interner in;
    const auto pod = PodWith(in, c.tolerations);
    std::vector<std::unique_ptr<NodeInfo>> nodes;
    std::vector<const NodeInfo*> feasible;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      nodes.push_back(NodeWith(in, "node" + std::to_string(i), c.nodes[i]));
      feasible.push_back(nodes.back().get());
    }
    TaintToleration pl;
    ClusterState cs;
    CycleState state(1);
    ASSERT_TRUE(pl.PreScore(state, *pod, feasible, cs).IsSuccess()) << c.name;
    std::vector<int64_t> scores;
    ASSERT_TRUE(pl.HasNormalizeScore());
    ASSERT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, feasible, &scores).IsSuccess())
        << c.name;
    EXPECT_EQ(scores, c.want) << c.name;
  }
}

TEST(TaintTolerationTest, RawScoreCountsIntolerableTaints) {
  Interner in;
  const auto pod = PodWith(in, {{"a", kEqual, "1", kPrefer}});
  const auto node = NodeWith(in, "n", {{"a", "1", kPrefer}, {"b", "2", kPrefer},
                                       {"c", "3", kPrefer}, {"d", "4", kNoSchedule}});
  TaintToleration pl;
  ClusterState cs;
  CycleState state(1);
  const NodeInfo* feasible[] = {node.get()};
  ASSERT_TRUE(pl.PreScore(state, *pod, feasible, cs).IsSuccess());
  int64_t s = 0;
  ASSERT_TRUE(pl.Score(state, *pod, *node, &s).IsSuccess());
  EXPECT_EQ(s, 2);
}

TEST(TaintTolerationTest, ScoreWithoutPreScoreIsAnError) {
  Interner in;
  const auto pod = PodWith(in, {});
  const auto node = NodeWith(in, "n", {});
  TaintToleration pl;
  CycleState state(1);
  int64_t s = 0;
  EXPECT_EQ(pl.Score(state, *pod, *node, &s).code(), Code::kError);
}

TEST(TaintTolerationTest, Name) { EXPECT_EQ(TaintToleration().Name(), "TaintToleration"); }

}  // namespace
}  // namespace taint_toleration_test
}  // namespace sched
