// The cycle with nominated pods: RunFilterPluginsWithNominatedPods' two
// passes (framework/runtime/framework_test.go
// TestFilterPluginsWithNominatedPods) and evaluateNominatedNode
// (schedule_one_test.go "test prefilter plugin returning ..." /
// nominated node cases).
#include <gtest/gtest.h>

#include <map>

#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/queue/nominator.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/map_nominator.h"

namespace sched {
namespace nominated_pods_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

using testing::MapNominator;

// Rejects nodes without any pod: passes only when nominated pods count,
// so the second pass (without them) decides.
class NeedsCompany : public FilterPlugin {
 public:
  std::string_view Name() const override { return "NeedsCompany"; }
  Status Filter(const CycleState&, const Pod&, const NodeInfo& n) const override {
    return n.pods().empty() ? Status(Code::kUnschedulable, "node(s) had no pods") : Status();
  }
};

// A PreFilter with extensions counting added pods in its CycleState slot;
// its Filter rejects when the count is not zero.
class CountingPreFilter : public PreFilterPlugin, public FilterPlugin {
 public:
  struct Count : StateData {
    int added = 0;
  };
  std::string_view Name() const override { return "Counting"; }
  Status PreFilter(CycleState& cs, const Pod&, const ClusterState&,
                   PreFilterResult*) const override {
    cs.Write(slot(), std::make_unique<Count>());
    return Status();
  }
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& cs, const Pod&, const Pod&, const NodeInfo&) const override {
    ++cs.CopyOnWrite<Count>(slot())->added;
    return Status();
  }
  Status Filter(const CycleState& cs, const Pod&, const NodeInfo&) const override {
    return cs.Read<Count>(slot())->added == 0
               ? Status()
               : Status(Code::kUnschedulable, "saw a nominated pod");
  }
};

// A PreFilter whose AddPod extension fails.
class FailingAddPod : public PreFilterPlugin {
 public:
  std::string_view Name() const override { return "FailingAddPod"; }
  Status PreFilter(CycleState&, const Pod&, const ClusterState&,
                   PreFilterResult*) const override {
    return Status();
  }
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState&, const Pod&, const Pod&, const NodeInfo&) const override {
    return Status::Error("boom");
  }
};

class NominatedPodsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* n : {"n0", "n1"}) {
      state_.UpsertNode(NodeBuilder(state_.interner(), n).Capacity(1000, 1000).Build());
    }
  }
  std::shared_ptr<const Pod> MakePod(const std::string& name, int32_t priority, int64_t cpu,
                                     const std::string& nominated = "") {
    auto p = std::make_shared<Pod>(
        *PodBuilder(state_.interner(), name).Priority(priority).Container(cpu, 0).Build());
    p->uid = name;
    p->nominated_node_name = nominated;
    return p;
  }
  static Profile FitProfile() {
    Profile p("default-scheduler");
    p.Add(std::make_unique<NodeResourcesFit>(NodeResourcesFitArgs{}));
    return p;
  }

  ClusterState state_;
  MapNominator nominator_;
};

TEST_F(NominatedPodsTest, NominatedPodsOfEqualOrHigherPriorityTakeTheirRoom) {
  struct Case {
    const char* name;
    int32_t nominated_priority;
    bool same_uid;
    bool n0_feasible;
  };
  const Case cases[] = {
      {"higher priority nominated pod counts", 20, false, false},
      {"equal priority nominated pod counts", 10, false, false},
      {"lower priority nominated pod is ignored", 5, false, true},
      {"the pod itself is ignored", 20, true, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    nominator_.pods["n0"] = {MakePod(c.same_uid ? "p" : "other", c.nominated_priority, 600)};
    Scheduler s(FitProfile(), 1);
    const ScheduleResult r = s.Schedule(*MakePod("p", 10, 500), state_, &nominator_);
    EXPECT_EQ(r.feasible_nodes, c.n0_feasible ? 2 : 1);
    if (!c.n0_feasible) {
      ASSERT_EQ(r.failures.size(), 1u);
      EXPECT_EQ(r.failures[0].node->node()->name, "n0");
      EXPECT_EQ(r.failures[0].status.Message(), "Insufficient cpu");
    }
  }
}

TEST_F(NominatedPodsTest, BothPassesMustSucceed) {
  Profile p("x");
  p.Add(std::make_unique<NeedsCompany>());
  Scheduler s(std::move(p), 1);
  // With the nominated pod n0 has company, without it not: rejected.
  nominator_.pods["n0"] = {MakePod("other", 10, 0)};
  ScheduleResult r = s.Schedule(*MakePod("p", 10, 0), state_, &nominator_);
  EXPECT_EQ(r.message, "0/2 nodes are available: 2 node(s) had no pods.");
  // A real pod on n0 passes both passes.
  auto bound = std::make_shared<Pod>(*MakePod("bound", 0, 0));
  bound->node_name = "n0";
  state_.UpsertPod(bound);
  r = s.Schedule(*MakePod("p", 10, 0), state_, &nominator_);
  EXPECT_EQ(r.node, "n0");
}

TEST_F(NominatedPodsTest, AddPodRunsOnACloneOfTheCycleState) {
  Profile p("x");
  p.Add(std::make_unique<CountingPreFilter>());
  Scheduler s(std::move(p), 1);
  nominator_.pods["n0"] = {MakePod("other", 10, 0)};
  const ScheduleResult r = s.Schedule(*MakePod("p", 10, 0), state_, &nominator_);
  EXPECT_EQ(r.node, "n1");
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].status.Message(), "saw a nominated pod");
  // The cycle's own state never saw the nominated pod.
  EXPECT_EQ(r.cycle_state->Read<CountingPreFilter::Count>(0)->added, 0);
}

TEST_F(NominatedPodsTest, AddPodErrorEndsTheCycle) {
  Profile p("x");
  p.Add(std::make_unique<FailingAddPod>());
  Scheduler s(std::move(p), 1);
  nominator_.pods["n0"] = {MakePod("other", 10, 0)};
  const ScheduleResult r = s.Schedule(*MakePod("p", 10, 0), state_, &nominator_);
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.node, "");
  EXPECT_EQ(r.message, "running AddPod on PreFilter plugin \"FailingAddPod\": boom");
}

TEST_F(NominatedPodsTest, NominatedNodeIsTriedFirstAndAloneWhenItFits) {
  Scheduler s(FitProfile(), 1);
  for (const char* node : {"n0", "n1"}) {
    const ScheduleResult r = s.Schedule(*MakePod("p", 10, 500, node), state_, &nominator_);
    EXPECT_EQ(r.node, node);
    EXPECT_EQ(r.evaluated_nodes, 1);
    EXPECT_EQ(r.feasible_nodes, 1);
  }
  // An unknown nominated node is skipped.
  const ScheduleResult r = s.Schedule(*MakePod("p", 10, 500, "gone"), state_);
  EXPECT_EQ(r.evaluated_nodes, 2);
}

TEST_F(NominatedPodsTest, NominatedNodeThatNoLongerFitsIsReportedOnce) {
  auto bound = std::make_shared<Pod>(*MakePod("bound", 0, 800));
  bound->node_name = "n1";
  state_.UpsertPod(bound);
  Scheduler s(FitProfile(), 1);
  const ScheduleResult r = s.Schedule(*MakePod("p", 10, 500, "n1"), state_);
  EXPECT_EQ(r.node, "n0");
  EXPECT_EQ(r.evaluated_nodes, 2);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].node->node()->name, "n1");
}

// PodTopologySpread counts a nominated pod through its AddPod extension:
// on n0 the nominated web pod makes the skew 1 + 1 - 0 > 1, so only n1 is
// feasible; without nominations both are.
TEST_F(NominatedPodsTest, TopologySpreadCountsNominatedPods) {
  ClusterState state;
  for (const char* n : {"n0", "n1"}) {
    state.UpsertNode(NodeBuilder(state.interner(), n).Label("node", n).Build());
  }
  TopologySpreadConstraint c;
  c.topology_key = state.interner().Intern("node");
  c.selector.emplace().requirements.push_back(
      testing::Req(state.interner(), "app", SelectorOp::kIn, {"web"}));
  auto web = [&](const std::string& name) {
    auto p = std::make_shared<Pod>(
        *PodBuilder(state.interner(), name).Label("app", "web").Priority(10).Spread(c).Build());
    p->uid = name;
    return p;
  };
  Profile p("x");
  p.Add(std::make_unique<PodTopologySpread>(PodTopologySpreadArgs{}));
  Scheduler s(std::move(p), 1);
  EXPECT_EQ(s.Schedule(*web("p"), state).feasible_nodes, 2);
  nominator_.pods["n0"] = {web("nominated")};
  const ScheduleResult r = s.Schedule(*web("p"), state, &nominator_);
  EXPECT_EQ(r.node, "n1");
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].node->node()->name, "n0");
  EXPECT_EQ(r.failures[0].status.Message(), PodTopologySpread::kReasonConstraintsNotMatch);
}

// Issue 19, round nine: the equivalence cache keeps a node's verdict with
// its nominated pods under the version of the node's nominations, not the
// Pod objects: once a nominated pod is deleted, nothing holds it.
TEST_F(NominatedPodsTest, CachedNominatedVerdictReleasesADeletedPod) {
  Nominator nominator;
  std::shared_ptr<const Pod> big = MakePod("big", 20, 600);
  const std::weak_ptr<const Pod> weak = big;
  nominator.AddNominatedPod(big, "n0");
  Scheduler s(FitProfile(), 1);
  s.set_equivalence_cache(true);
  for (const char* name : {"a", "b"}) {  // the second reads the cached verdict
    const ScheduleResult r = s.Schedule(*MakePod(name, 10, 500), state_, &nominator);
    EXPECT_EQ(r.feasible_nodes, 1);
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].node->node()->name, "n0");
  }
  EXPECT_GT(s.equivalence_cache_stats()->reused, 0u);
  nominator.DeleteNominatedPodIfExists(*big);
  big.reset();
  EXPECT_TRUE(weak.expired());
  // n0 has room again; the cached verdict with the pod is not read.
  EXPECT_EQ(s.Schedule(*MakePod("c", 10, 500), state_, &nominator).feasible_nodes, 2);
}


}  // namespace
}  // namespace nominated_pods_test
}  // namespace sched
