#include "libsched/scheduler/explain.h"

#include <gtest/gtest.h>

#include "libsched/plugins/registry.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace explain_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

constexpr int64_t kGi = int64_t{1} << 30;

const NodeExplanation* FindNode(const Explanation& e, const std::string& name) {
  for (const NodeExplanation& n : e.nodes) {
    if (n.node == name) return &n;
  }
  return nullptr;
}

class ExplainTest : public ::testing::Test {
 protected:
  ExplainTest() : scheduler_(NewDefaultProfile(), 1) {}
  void AddNode(NodeBuilder b) { state_.UpsertNode(b.Build()); }
  Interner& in() { return state_.interner(); }

  ClusterState state_;
  Scheduler scheduler_;
};

TEST_F(ExplainTest, GroupsReasonsAndFindsTheNearestMisses) {
  // 3 nodes short of CPU (by 300m, 500m, 1500m), 2 tainted, 1 short of both
  // CPU and memory, 1 tainted and short of CPU (two plugins: no near miss).
  for (int i = 0; i < 3; ++i) {
    const int64_t cpu[] = {1700, 1500, 500};
    AddNode(NodeBuilder(in(), "cpu" + std::to_string(i)).Capacity(cpu[i], 8 * kGi));
  }
  for (int i = 0; i < 2; ++i) {
    AddNode(NodeBuilder(in(), "taint" + std::to_string(i))
                .Capacity(4000, 8 * kGi)
                .Taint("dedicated", "gpu", TaintEffect::kNoSchedule));
  }
  AddNode(NodeBuilder(in(), "both").Capacity(1000, 1 * kGi));
  AddNode(NodeBuilder(in(), "two").Capacity(1000, 8 * kGi).Taint("x", "", TaintEffect::kNoExecute));
  auto pod = PodBuilder(in(), "p").Container(2000, 2 * kGi).Build();

  const Explanation e = scheduler_.Explain(*pod, state_);
  EXPECT_FALSE(e.error);
  EXPECT_EQ(e.num_all_nodes, 7);
  EXPECT_EQ(e.feasible_nodes, 0);
  // The FitError: the scheduler's first failing plugin per node.
  EXPECT_EQ(e.message,
            "0/7 nodes are available: 1 Insufficient memory, 3 node(s) had untolerated "
            "taint(s), 4 Insufficient cpu.");
  ASSERT_EQ(e.reasons.size(), 3u);
  EXPECT_EQ(e.reasons[0].reason, "Insufficient cpu");
  EXPECT_EQ(e.reasons[0].nodes, 4);
  EXPECT_EQ(e.reasons[1].reason, "node(s) had untolerated taint(s)");
  EXPECT_EQ(e.reasons[1].nodes, 3);

  ASSERT_EQ(e.nearest_misses.size(), 3u);
  EXPECT_EQ(e.nearest_misses[0].text, "needs 300m more cpu on 3 nodes");
  EXPECT_EQ(e.nearest_misses[0].example_node, "cpu0");
  ASSERT_EQ(e.nearest_misses[0].shortfalls.size(), 1u);
  EXPECT_EQ(e.nearest_misses[0].shortfalls[0].amount, 300);
  EXPECT_EQ(e.nearest_misses[1].text,
            "does not tolerate taint dedicated=gpu:NoSchedule on 2 nodes");
  EXPECT_EQ(e.nearest_misses[2].text, "needs 1 more cpu and 1Gi more memory on 1 node");

  // Every Filter plugin's verdict, not only the first failing one.
  const NodeExplanation* two = FindNode(e, "two");
  ASSERT_NE(two, nullptr);
  EXPECT_EQ(two->verdict.plugin, "TaintToleration");
  int rejecting = 0;
  for (const PluginVerdict& v : two->filters) rejecting += v.code != Code::kSuccess;
  EXPECT_EQ(rejecting, 2);
  EXPECT_TRUE(two->scores.empty());
  EXPECT_EQ(e.summary, e.message +
                           " Nearest misses: needs 300m more cpu on 3 nodes; does not tolerate "
                           "taint dedicated=gpu:NoSchedule on 2 nodes; needs 1 more cpu and 1Gi "
                           "more memory on 1 node.");
}

TEST_F(ExplainTest, ScoresEveryFeasibleNodeRawNormalizedAndWeighted) {
  AddNode(NodeBuilder(in(), "big").Capacity(8000, 16 * kGi));
  AddNode(NodeBuilder(in(), "small").Capacity(2000, 4 * kGi));
  auto pod = PodBuilder(in(), "p").Container(1000, 1 * kGi).Build();
  const Explanation e = scheduler_.Explain(*pod, state_);
  EXPECT_EQ(e.feasible_nodes, 2);
  EXPECT_EQ(e.message, "2/2 nodes are feasible.");
  ASSERT_FALSE(e.score_plugins.empty());
  ASSERT_EQ(e.score_plugins.size(), e.score_weights.size());
  // The same weighted totals as the scheduling cycle computes.
  Scheduler reference(NewDefaultProfile(), 1);
  const ScheduleResult r = reference.Schedule(*pod, state_);
  ASSERT_EQ(r.scored_nodes.size(), 2u);
  for (size_t i = 0; i < r.scored_nodes.size(); ++i) {
    const NodeExplanation* ne = FindNode(e, r.scored_nodes[i]->node()->name);
    ASSERT_NE(ne, nullptr);
    EXPECT_EQ(ne->total_score, r.total_scores[i]) << ne->node;
    ASSERT_EQ(ne->scores.size(), e.score_plugins.size());
    for (size_t p = 0; p < ne->scores.size(); ++p) {
      EXPECT_EQ(ne->scores[p].weighted, ne->scores[p].normalized * e.score_weights[p]);
    }
  }
  // NodeResourcesFit (LeastAllocated) scores the emptier node higher.
  size_t fit = 0;
  while (fit < e.score_plugins.size() && e.score_plugins[fit] != "NodeResourcesFit") ++fit;
  ASSERT_LT(fit, e.score_plugins.size());
  EXPECT_GT(FindNode(e, "big")->scores[fit].raw, FindNode(e, "small")->scores[fit].raw);
}

TEST_F(ExplainTest, ChangesNothingInTheScheduler) {
  for (int i = 0; i < 5; ++i) {
    AddNode(NodeBuilder(in(), "n" + std::to_string(i)).Capacity(4000, 8 * kGi));
  }
  auto pod = PodBuilder(in(), "p").Container(100, kGi).Build();
  const auto rng = scheduler_.rng();
  const size_t start = scheduler_.next_start_node_index();
  const uint64_t generation = state_.generation();
  (void)scheduler_.Explain(*pod, state_);
  EXPECT_TRUE(scheduler_.rng() == rng);
  EXPECT_EQ(scheduler_.next_start_node_index(), start);
  EXPECT_EQ(state_.generation(), generation);
}

// A PreFilter plugin with a fixed outcome.
class FixedPreFilter : public PreFilterPlugin {
 public:
  explicit FixedPreFilter(Status s) : status_(std::move(s)) {}
  std::string_view Name() const override { return "FixedPreFilter"; }
  Status PreFilter(CycleState&, const Pod&, const ClusterState&, PreFilterResult*) const override {
    return status_;
  }

 private:
  Status status_;
};

TEST_F(ExplainTest, PreFilterRejectionIsEveryNodesVerdict) {
  AddNode(NodeBuilder(in(), "a").Capacity(4000, 8 * kGi));
  AddNode(NodeBuilder(in(), "b").Capacity(4000, 8 * kGi));
  Profile profile("default-scheduler");
  profile.Add(std::make_unique<FixedPreFilter>(
      Status(Code::kUnschedulableAndUnresolvable, "pod has unbound immediate claims")));
  const Scheduler s(std::move(profile), 1);
  auto pod = PodBuilder(in(), "p").Build();
  const Explanation e = s.Explain(*pod, state_);
  EXPECT_TRUE(e.pre_filter_rejected);
  EXPECT_EQ(e.pre_filter.plugin, "FixedPreFilter");
  EXPECT_EQ(e.message, "0/2 nodes are available: pod has unbound immediate claims.");
  ASSERT_EQ(e.nodes.size(), 2u);
  for (const NodeExplanation& n : e.nodes) {
    EXPECT_EQ(n.verdict.code, Code::kUnschedulableAndUnresolvable);
    EXPECT_TRUE(n.filters.empty());
  }
  ASSERT_EQ(e.reasons.size(), 1u);
  EXPECT_EQ(e.reasons[0].nodes, 2);
}

TEST_F(ExplainTest, NoNodesIsAnError) {
  auto pod = PodBuilder(in(), "p").Build();
  const Explanation e = scheduler_.Explain(*pod, state_);
  EXPECT_TRUE(e.error);
  EXPECT_EQ(e.message, kNoNodesAvailableMsg);
  EXPECT_EQ(e.summary, e.message);
}

TEST(ExplainSummaryTest, IsCutAtAUtf8BoundaryWithinTheBound) {
  Explanation e;
  e.message = std::string(1020, 'a') + "\xc3\xa9\xc3\xa9\xc3\xa9";  // 1026 bytes
  const std::string s = ExplainSummary(e);
  EXPECT_LE(s.size(), kMaxExplainSummaryBytes);
  EXPECT_EQ(s, std::string(1020, 'a') + "...");
  e.message = "short";
  EXPECT_EQ(ExplainSummary(e), "short");
}

TEST(FormatShortfallTest, UsesKubernetesUnits) {
  struct Case {
    Shortfall in;
    std::string want;
  } cases[] = {
      {{"cpu", 300}, "300m"},           {{"cpu", 2000}, "2"},
      {{"memory", kGi}, "1Gi"},         {{"memory", 1536LL << 20}, "1536Mi"},
      {{"memory", 1000000}, "1000000"}, {{"pods", 1}, "1"},
      {{"example.com/gpu", 2}, "2"},
  };
  for (const Case& c : cases) EXPECT_EQ(FormatShortfall(c.in), c.want) << c.in.resource;
}

}  // namespace
}  // namespace explain_test
}  // namespace sched
