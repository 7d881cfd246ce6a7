#include "libsched/scheduler/scheduler.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "libsched/testing/builders.h"

namespace sched {
namespace scheduler_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// A Filter plugin that rejects the listed nodes with fixed reasons.
class FakeFilter : public FilterPlugin {
 public:
  FakeFilter(std::string name, std::map<std::string, Status> rejects)
      : name_(std::move(name)), rejects_(std::move(rejects)) {}
  std::string_view Name() const override { return name_; }
  Status Filter(const CycleState&, const Pod&, const NodeInfo& n) const override {
    auto it = rejects_.find(n.node()->name);
    return it == rejects_.end() ? Status() : it->second;
  }

 private:
  std::string name_;
  std::map<std::string, Status> rejects_;
};

// A PreFilter plugin returning a fixed status and node restriction.
class FakePreFilter : public PreFilterPlugin, public FilterPlugin {
 public:
  FakePreFilter(std::string name, Status s, std::optional<std::vector<std::string>> nodes = {})
      : name_(std::move(name)), status_(std::move(s)), nodes_(std::move(nodes)) {}
  std::string_view Name() const override { return name_; }
  Status PreFilter(CycleState&, const Pod&, const ClusterState&,
                   PreFilterResult* r) const override {
    if (nodes_) {
      r->all_nodes = false;
      r->node_names = *nodes_;
    }
    return status_;
  }
  // Rejects every node, so a test sees whether Filter ran after a Skip.
  Status Filter(const CycleState&, const Pod&, const NodeInfo&) const override {
    return Status(Code::kUnschedulable, "filter ran");
  }

 private:
  std::string name_;
  Status status_;
  std::optional<std::vector<std::string>> nodes_;
};

class FakeScore : public ScorePlugin {
 public:
  FakeScore(std::string name, std::map<std::string, int64_t> scores)
      : name_(std::move(name)), scores_(std::move(scores)) {}
  std::string_view Name() const override { return name_; }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    auto it = scores_.find(n.node()->name);
    *s = it == scores_.end() ? 0 : it->second;
    return Status();
  }

 private:
  std::string name_;
  std::map<std::string, int64_t> scores_;
};

// Skips its Filter for pods labeled skip-filter (else rejects n0, or every
// node but n1 for pods labeled one-node) and its Score for pods labeled
// skip-score (else scores n<i> 10 * i): what a cycle leaves in its
// CycleState and scratch differs from pod to pod.
class SkippingPlugin : public PreFilterPlugin,
                       public FilterPlugin,
                       public PreScorePlugin,
                       public ScorePlugin {
 public:
  explicit SkippingPlugin(Interner& in)
      : skip_filter_(in.Pin("skip-filter")),
        skip_score_(in.Pin("skip-score")),
        one_node_(in.Pin("one-node")) {}
  std::string_view Name() const override { return "Skipping"; }
  Status PreFilter(CycleState&, const Pod& pod, const ClusterState&,
                   PreFilterResult*) const override {
    return pod.labels.Has(skip_filter_) ? Status(Code::kSkip) : Status();
  }
  Status Filter(const CycleState&, const Pod& pod, const NodeInfo& n) const override {
    const bool fits = pod.labels.Has(one_node_) ? n.node()->name == "n1" : n.node()->name != "n0";
    return fits ? Status() : Status(Code::kUnschedulable, "rejected");
  }
  Status PreScore(CycleState&, const Pod& pod, std::span<const NodeInfo* const>,
                  const ClusterState&) const override {
    return pod.labels.Has(skip_score_) ? Status(Code::kSkip) : Status();
  }
  Status Score(const CycleState&, const Pod&, const NodeInfo& n, int64_t* s) const override {
    *s = 10 * std::stoi(n.node()->name.substr(1));
    return Status();
  }

 private:
  Atom skip_filter_;
  Atom skip_score_;
  Atom one_node_;
};

class SchedulerTest : public ::testing::Test {
 protected:
  void AddNodes(int n, const std::string& prefix = "n") {
    for (int i = 0; i < n; ++i) {
      state_.UpsertNode(NodeBuilder(state_.interner(), prefix + std::to_string(i)).Build());
    }
  }
  std::shared_ptr<const Pod> APod() { return PodBuilder(state_.interner(), "p").Build(); }

  ClusterState state_;
};

TEST_F(SchedulerTest, FitErrorHistogramIsSortedWithFirstFailingPluginPerNode) {
  AddNodes(3);
  Profile p("default-scheduler");
  p.Add(std::make_unique<FakeFilter>(
      "A", std::map<std::string, Status>{
               {"n1", Status(Code::kUnschedulableAndUnresolvable,
                             "node(s) didn't match Pod's node affinity/selector")},
               {"n2", Status(Code::kUnschedulableAndUnresolvable,
                             "node(s) didn't match Pod's node affinity/selector")}}));
  p.Add(std::make_unique<FakeFilter>(
      "B", std::map<std::string, Status>{
               {"n0", Status(Code::kUnschedulable, "Insufficient cpu")},
               {"n1", Status(Code::kUnschedulable, "never reported: A failed first")}}));
  Scheduler s(std::move(p), 1);
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_EQ(r.node, "");
  EXPECT_FALSE(r.error);
  EXPECT_EQ(r.message,
            "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node "
            "affinity/selector.");
  ASSERT_EQ(r.failures.size(), 3u);
  for (const auto& f : r.failures) {
    EXPECT_EQ(f.status.plugin(), f.node->node()->name == "n0" ? "B" : "A");
  }
  EXPECT_EQ(r.evaluated_nodes, 3);
  EXPECT_EQ(r.feasible_nodes, 0);
}

TEST_F(SchedulerTest, HistogramSortsFormattedStringsCountsIncluded) {
  AddNodes(12);
  std::map<std::string, Status> rejects;
  for (int i = 0; i < 10; ++i) rejects["n" + std::to_string(i)] = Status(Code::kUnschedulable, "b");
  rejects["n10"] = Status(Code::kUnschedulable, std::vector<std::string_view>{"a", "c"});
  rejects["n11"] = Status(Code::kUnschedulable, "a");
  Profile p("x");
  p.Add(std::make_unique<FakeFilter>("F", rejects));
  Scheduler s(std::move(p), 1);
  // "10 b" sorts before "2 a": upstream sorts the formatted entries.
  EXPECT_EQ(s.Schedule(*APod(), state_).message, "0/12 nodes are available: 1 c, 10 b, 2 a.");
}

TEST_F(SchedulerTest, PreFilterOutcomes) {
  struct Case {
    const char* name;
    std::vector<std::pair<std::string, Status>> pre_filters;
    std::string want_node;
    std::string want_message;
  };
  const Case cases[] = {
      {"unresolvable stops at once",
       {{"P1", Status(Code::kUnschedulableAndUnresolvable, "first")},
        {"P2", Status(Code::kUnschedulable, "second")}},
       "",
       "0/2 nodes are available: first."},
      {"the last unschedulable wins",
       {{"P1", Status(Code::kUnschedulable, "first")},
        {"P2", Status(Code::kUnschedulable, "second")}},
       "",
       "0/2 nodes are available: second."},
  };
  for (const auto& c : cases) {
    ClusterState st;
    st.UpsertNode(NodeBuilder(st.interner(), "n0").Build());
    st.UpsertNode(NodeBuilder(st.interner(), "n1").Build());
    Profile p("x");
    for (const auto& [name, status] : c.pre_filters) {
      p.Add(std::make_unique<FakePreFilter>(name, status));
    }
    Scheduler s(std::move(p), 1);
    ScheduleResult r = s.Schedule(*PodBuilder(st.interner(), "p").Build(), st);
    EXPECT_EQ(r.node, c.want_node) << c.name;
    EXPECT_EQ(r.message, c.want_message) << c.name;
    EXPECT_TRUE(r.absent_status.has_value()) << c.name;
    EXPECT_TRUE(r.failures.empty()) << c.name;
  }
}

TEST_F(SchedulerTest, PreFilterSkipDisablesThatPluginsFilter) {
  AddNodes(2);
  Profile p("x");
  p.Add(std::make_unique<FakePreFilter>("P", Status(Code::kSkip)));
  Scheduler s(std::move(p), 1);
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_FALSE(r.node.empty());
  EXPECT_TRUE(r.failures.empty());
  // Without Score plugins upstream stops at the first feasible node.
  EXPECT_EQ(r.feasible_nodes, 1);
}

TEST_F(SchedulerTest, PreFilterResultRestrictsNodesAndNamesThePlugin) {
  AddNodes(4);
  Profile p("x");
  p.Add(std::make_unique<FakePreFilter>("NodeAffinity", Status(), std::vector<std::string>{"n1"}));
  p.Add(std::make_unique<FakeFilter>(
      "Fit", std::map<std::string, Status>{{"n1", Status(Code::kUnschedulable, "Insufficient cpu")}}));
  Scheduler s(std::move(p), 1);
  // n1 passes the restriction; FakePreFilter's own Filter then rejects it.
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_EQ(r.evaluated_nodes, 1);
  EXPECT_EQ(r.message,
            "0/4 nodes are available: 1 filter ran, 3 node(s) didn't satisfy plugin(s) "
            "[NodeAffinity].");
}

TEST_F(SchedulerTest, DisjointPreFilterResultsRejectThePod) {
  AddNodes(3);
  Profile p("x");
  p.Add(std::make_unique<FakePreFilter>("B", Status(), std::vector<std::string>{"n1"}));
  p.Add(std::make_unique<FakePreFilter>("A", Status(), std::vector<std::string>{"n2"}));
  Scheduler s(std::move(p), 1);
  EXPECT_EQ(s.Schedule(*APod(), state_).message,
            "0/3 nodes are available: node(s) didn't satisfy plugin(s) [A B] simultaneously.");
}

// RunPreFilterPlugins' pluginsWithNodes, which schedule_one.go makes the
// start of Diagnosis.UnschedulablePlugins: the plugins whose result left
// nodes out, unless a plugin's UnschedulableAndUnresolvable stopped PreFilter.
TEST_F(SchedulerTest, RestrictingPluginsFollowRunPreFilterPlugins) {
  using Names = std::vector<std::string>;
  struct Plugin {
    std::string name;
    Status status;
    std::optional<Names> nodes;
  };
  struct Case {
    const char* name;
    std::vector<Plugin> plugins;
    std::vector<std::string_view> want;
  };
  const Case cases[] = {
      {"no restriction", {{"A", Status(), std::nullopt}}, {}},
      {"a restriction that lets nodes through", {{"A", Status(), Names{"n1"}}}, {"A"}},
      {"disjoint restrictions",
       {{"B", Status(), Names{"n1"}}, {"A", Status(), Names{"n2"}}},
       {"A", "B"}},
      {"then Unschedulable: the set is kept",
       {{"A", Status(), Names{"n1"}}, {"U", Status(Code::kUnschedulable, "u"), std::nullopt}},
       {"A"}},
      {"then UnschedulableAndUnresolvable: no set",
       {{"A", Status(), Names{"n1"}},
        {"R", Status(Code::kUnschedulableAndUnresolvable, "r"), std::nullopt}},
       {}},
  };
  AddNodes(3);
  for (const Case& c : cases) {
    Profile p("x");
    for (const Plugin& pl : c.plugins) {
      p.Add(std::make_unique<FakePreFilter>(pl.name, pl.status, pl.nodes));
    }
    Scheduler s(std::move(p), 1);
    EXPECT_EQ(s.Schedule(*APod(), state_).restricting_plugins, c.want) << c.name;
  }
}

TEST_F(SchedulerTest, NoNodesIsAnError) {
  Scheduler s(Profile("x"), 1);
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.message, "no nodes available to schedule pods");
}

TEST_F(SchedulerTest, WeightedScoresPickTheBestNode) {
  AddNodes(3);
  Profile p("x");
  p.Add(std::make_unique<FakeScore>("S1", std::map<std::string, int64_t>{{"n0", 100}, {"n1", 50}}), 1);
  p.Add(std::make_unique<FakeScore>("S2", std::map<std::string, int64_t>{{"n1", 30}, {"n2", 40}}), 3);
  Scheduler s(std::move(p), 7);
  ScheduleResult r = s.Schedule(*APod(), state_);
  // n0: 100, n1: 50 + 90 = 140, n2: 120.
  EXPECT_EQ(r.node, "n1");
  ASSERT_EQ(r.score_plugins.size(), 2u);
  std::map<std::string, int64_t> totals;
  for (size_t i = 0; i < r.scored_nodes.size(); ++i) {
    totals[r.scored_nodes[i]->node()->name] = r.total_scores[i];
  }
  EXPECT_EQ(totals, (std::map<std::string, int64_t>{{"n0", 100}, {"n1", 140}, {"n2", 120}}));
}

TEST_F(SchedulerTest, OutOfRangeScoreIsAnError) {
  AddNodes(2);
  Profile p("x");
  p.Add(std::make_unique<FakeScore>("Bad", std::map<std::string, int64_t>{{"n0", 101}}));
  Scheduler s(std::move(p), 1);
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.node, "");
}

TEST_F(SchedulerTest, OutOfRangeScoreNamesTheFirstScoredNodeOutOfRange) {
  AddNodes(6);
  const std::map<std::string, int64_t> bad{{"n2", 150}, {"n4", -1}};
  Profile p("x");
  p.Add(std::make_unique<FakeScore>("Good", std::map<std::string, int64_t>{{"n1", 7}}), 2);
  p.Add(std::make_unique<FakeScore>("Bad", bad), 3);
  Scheduler s(std::move(p), 1);
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.node, "");
  int64_t first = 0;  // the first out-of-range score in the scored order
  for (const NodeInfo* n : r.scored_nodes) {
    if (auto it = bad.find(n->node()->name); it != bad.end()) {
      first = it->second;
      break;
    }
  }
  ASSERT_NE(first, 0);
  EXPECT_EQ(r.message, "plugin \"Bad\" returns an invalid score " + std::to_string(first) +
                           ", it should in the range of [0, 100] after normalizing");
}

TEST_F(SchedulerTest, TiesAreBrokenBySeedDeterministicallyAndCoverEveryTiedNode) {
  AddNodes(4);
  auto profile = [] {
    Profile p("x");
    p.Add(std::make_unique<FakeScore>(
        "S", std::map<std::string, int64_t>{{"n0", 10}, {"n1", 10}, {"n2", 10}, {"n3", 1}}));
    return p;
  };
  std::set<std::string> chosen;
  for (uint64_t seed = 0; seed < 64; ++seed) {
    Scheduler a(profile(), seed), b(profile(), seed);
    const std::string na = a.Schedule(*APod(), state_).node;
    EXPECT_EQ(na, b.Schedule(*APod(), state_).node) << "seed " << seed;
    chosen.insert(na);
  }
  EXPECT_EQ(chosen, (std::set<std::string>{"n0", "n1", "n2"}));
}

TEST_F(SchedulerTest, SingleFeasibleNodeSkipsScoring) {
  AddNodes(3);
  Profile p("x");
  p.Add(std::make_unique<FakeFilter>(
      "F", std::map<std::string, Status>{{"n0", Status(Code::kUnschedulable, "x")},
                                         {"n2", Status(Code::kUnschedulable, "x")}}));
  p.Add(std::make_unique<FakeScore>("Bad", std::map<std::string, int64_t>{{"n1", 1000}}));
  Scheduler s(std::move(p), 1);
  ScheduleResult r = s.Schedule(*APod(), state_);
  EXPECT_EQ(r.node, "n1");
  EXPECT_FALSE(r.error);
  EXPECT_TRUE(r.scored_nodes.empty());
  EXPECT_EQ(r.evaluated_nodes, 3);
}

TEST_F(SchedulerTest, AdaptivePercentageAndRotatingStartIndex) {
  struct Case {
    int nodes;
    int32_t percentage;
    int64_t want_evaluated;
  };
  // numFeasibleNodesToFind: all below 100; max(100, n*max(5, 50-n/125)/100).
  const Case cases[] = {{50, 0, 50}, {100, 0, 100}, {500, 0, 230}, {1000, 0, 420},
                        {500, 10, 100}, {500, 100, 500}, {500, 30, 150}};
  for (const auto& c : cases) {
    ClusterState st;
    for (int i = 0; i < c.nodes; ++i) {
      st.UpsertNode(NodeBuilder(st.interner(), "n" + std::to_string(i)).Build());
    }
    Profile p("x");
    p.set_percentage_of_nodes_to_score(c.percentage);
    p.Add(std::make_unique<FakeScore>("S", std::map<std::string, int64_t>{}));
    Scheduler s(std::move(p), 1);
    auto pod = PodBuilder(st.interner(), "p").Build();
    ScheduleResult r1 = s.Schedule(*pod, st);
    EXPECT_EQ(r1.evaluated_nodes, c.want_evaluated) << c.nodes << " nodes, " << c.percentage << "%";
    ScheduleResult r2 = s.Schedule(*pod, st);
    if (c.want_evaluated < c.nodes) {
      // The next cycle starts where the previous one stopped.
      std::set<const NodeInfo*> first(r1.scored_nodes.begin(), r1.scored_nodes.end());
      for (const NodeInfo* node : r2.scored_nodes) {
        if (static_cast<int64_t>(2 * c.want_evaluated) <= c.nodes) {
          EXPECT_EQ(first.count(node), 0u) << c.nodes;
        }
      }
    }
  }
}

TEST_F(SchedulerTest, RecycledResultsScheduleAsNewOnes) {
  // Each sequence of pods through a scheduler that recycles every result
  // and through one that does not: the same cycles, whatever the last
  // cycle left in the recycled CycleState and vectors.
  AddNodes(5);
  const std::vector<std::vector<std::string>> cases = {
      {"", "skip-filter", ""},
      {"skip-score", "", "skip-score"},
      {"skip-filter", "skip-score", "skip-filter"},
      {"", "", "skip-score", "skip-filter", ""},
      {"one-node", "", "one-node", "skip-score"},
  };
  auto profile = [this] {
    Profile p("x");
    p.Add(std::make_unique<SkippingPlugin>(state_.interner()));
    return p;
  };
  for (const auto& labels : cases) {
    Scheduler recycling(profile(), 3), plain(profile(), 3);
    for (size_t i = 0; i < labels.size(); ++i) {
      PodBuilder b(state_.interner(), "p" + std::to_string(i));
      if (!labels[i].empty()) b.Label(labels[i], "");
      const auto pod = b.Build();
      ScheduleResult got = recycling.Schedule(*pod, state_);
      const ScheduleResult want = plain.Schedule(*pod, state_);
      const std::string where = "pod " + std::to_string(i) + " " + labels[i];
      const int64_t feasible = labels[i] == "one-node" ? 1 : labels[i] == "skip-filter" ? 5 : 4;
      EXPECT_EQ(got.feasible_nodes, feasible) << where;
      EXPECT_EQ(got.node, want.node) << where;
      EXPECT_EQ(got.message, want.message) << where;
      EXPECT_EQ(got.feasible_nodes, want.feasible_nodes) << where;
      EXPECT_EQ(got.scored_nodes, want.scored_nodes) << where;
      EXPECT_EQ(got.total_scores, want.total_scores) << where;
      recycling.Recycle(std::move(got));
    }
  }
}

}  // namespace
}  // namespace scheduler_test
}  // namespace sched
