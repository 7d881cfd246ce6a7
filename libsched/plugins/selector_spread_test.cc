// SelectorSpread PreScore / Score / NormalizeScore, with cases from
// upstream's selectorspread/selector_spread_test.go (TestSelectorSpreadScore,
// TestZoneSelectorSpreadPriority).
#include "libsched/plugins/selector_spread.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/pod_topology_spread_test_util.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/run_score.h"

namespace sched {
namespace selector_spread_test {
namespace {

using pts_test::N;

// A pod: its node, labels, namespace and controlling owner.
struct SP {
  std::string node = "";
  std::string labels = "";
  std::string ns = "default";
  ControllerKind kind = ControllerKind::kOther;
  std::string owner = "";
};

// A Service, ReplicationController, ReplicaSet or StatefulSet in "default"
// (or `ns`) selecting `labels`.
struct SW {
  WorkloadKind kind;
  std::string name;
  std::string labels;
  std::string ns = "default";
};

std::shared_ptr<const Pod> MakePod(ClusterState& cs, const SP& p, const std::string& name) {
  testing::PodBuilder b(cs.interner(), name, p.ns);
  for (const auto& [k, v] : pts_test::ParseLabels(p.labels)) b.Label(k, v);
  if (!p.node.empty()) b.NodeName(p.node);
  if (p.kind != ControllerKind::kOther) b.Controller(p.kind, p.owner);
  return b.Build();
}

void AddWorkload(ClusterState& cs, const SW& w) {
  auto out = std::make_shared<Workload>();
  out->kind = w.kind;
  out->ns = w.ns;
  out->name = w.name;
  std::vector<LabelSet::Entry> entries;
  LabelSelector selector;
  for (const auto& [k, v] : pts_test::ParseLabels(w.labels)) {
    entries.emplace_back(cs.interner().Intern(k), cs.interner().Intern(v));
    selector.requirements.push_back(testing::Req(cs.interner(), k, SelectorOp::kIn, {v}));
  }
  if (w.kind == WorkloadKind::kService || w.kind == WorkloadKind::kReplicationController) {
    out->match_labels = LabelSet(std::move(entries));
  } else {
    out->selector = std::move(selector);
  }
  cs.UpsertWorkload(std::move(out));
}

struct ScoreCase {
  std::string name;
  SP pod;
  std::vector<SP> pods;
  std::vector<SW> workloads;
  std::vector<int64_t> want;  // parallel to the nodes
};

std::vector<int64_t> RunScore(const std::vector<N>& nodes, const ScoreCase& tc) {
  ClusterState cs;
  pts_test::AddNodes(cs, nodes);
  for (size_t i = 0; i < tc.pods.size(); ++i) {
    cs.UpsertPod(MakePod(cs, tc.pods[i], "p" + std::to_string(i)));
  }
  for (const SW& w : tc.workloads) AddWorkload(cs, w);
  const auto pod = MakePod(cs, tc.pod, "pending");
  std::vector<const NodeInfo*> feasible;
  for (const N& n : nodes) feasible.push_back(cs.FindNode(n.name));
  const SelectorSpread pl;
  CycleState state(1);
  EXPECT_TRUE(pl.PreScore(state, *pod, feasible, cs).IsSuccess()) << tc.name;
  std::vector<int64_t> scores;
  EXPECT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, feasible, &scores).IsSuccess());
  return scores;
}

constexpr WorkloadKind kSvc = WorkloadKind::kService;
constexpr WorkloadKind kRc = WorkloadKind::kReplicationController;
constexpr WorkloadKind kRs = WorkloadKind::kReplicaSet;
constexpr WorkloadKind kSs = WorkloadKind::kStatefulSet;
const std::string kLabels1 = "foo=bar,baz=blah";
const std::string kLabels2 = "bar=foo,baz=blah";

TEST(SelectorSpreadScoreTest, Nodes) {
  const std::vector<N> nodes = {{"node1", ""}, {"node2", ""}};
  const std::string both = "foo=bar,bar=foo";
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled", {}, {}, {}, {100, 100}},
      {"no services", {"", kLabels1}, {{"node1", ""}}, {}, {100, 100}},
      {"different services",
       {"", kLabels1},
       {{"node1", kLabels2}},
       {{kSvc, "s1", "key=value"}},
       {100, 100}},
      {"two pods, one service pod",
       {"", kLabels1},
       {{"node1", kLabels2}, {"node2", kLabels1}},
       {{kSvc, "s1", kLabels1}},
       {100, 0}},
      {"five pods, one service pod in specific namespace",
       {"", kLabels1, "ns1"},
       {{"node1", kLabels2},
        {"node1", kLabels1},
        {"node1", kLabels1, "ns2"},
        {"node2", kLabels1, "ns1"},
        {"node2", kLabels2}},
       {{kSvc, "s1", kLabels1, "ns1"}},
       {100, 0}},
      {"three pods, two service pods on different nodes",
       {"", kLabels1},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", kLabels1}},
       {0, 0}},
      {"four pods, three service pods",
       {"", kLabels1},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", kLabels1}},
       {50, 0}},
      {"service with partial pod label matches",
       {"", kLabels1},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", "baz=blah"}},
       {0, 50}},
      {"service with partial pod label matches with service and replication controller",
       {"", kLabels1, "default", ControllerKind::kReplicationController, "rc1"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", "baz=blah"}, {kRc, "rc1", "foo=bar"}, {kRc, "rc2", "bar=foo"}},
       {0, 0}},
      {"service with partial pod label matches with service and replica set",
       {"", kLabels1, "default", ControllerKind::kReplicaSet, "rs1"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", "baz=blah"}, {kRs, "rs1", "foo=bar"}, {kRs, "rs2", "bar=foo"}},
       {0, 0}},
      {"service with partial pod label matches with service and statefulset",
       {"", kLabels1, "default", ControllerKind::kStatefulSet, "ss1"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", "baz=blah"}, {kSs, "ss1", "foo=bar"}, {kSs, "ss2", "bar=foo"}},
       {0, 0}},
      {"disjoined service and replication controller matches no pods",
       {"", both, "default", ControllerKind::kReplicationController, "rc3"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", "bar=foo"}, {kRc, "rc3", "foo=bar"}},
       {100, 100}},
      {"disjoined service and replica set matches no pods",
       {"", both, "default", ControllerKind::kReplicaSet, "rs3"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSvc, "s1", "bar=foo"}, {kRs, "rs3", "foo=bar"}},
       {100, 100}},
      {"Replication controller with partial pod label matches",
       {"", kLabels1, "default", ControllerKind::kReplicationController, "rc1"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kRc, "rc1", "foo=bar"}},
       {0, 0}},
      {"Another replication controller with partial pod label matches",
       {"", kLabels1, "default", ControllerKind::kReplicationController, "rc3"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kRc, "rc3", "baz=blah"}},
       {0, 50}},
      {"Another stateful set with partial pod label matches",
       {"", kLabels1, "default", ControllerKind::kStatefulSet, "ss3"},
       {{"node1", kLabels2}, {"node1", kLabels1}, {"node2", kLabels1}},
       {{kSs, "ss3", "baz=blah"}},
       {0, 50}},
  };
  for (const ScoreCase& tc : cases) EXPECT_EQ(RunScore(nodes, tc), tc.want) << tc.name;
}

TEST(SelectorSpreadScoreTest, Zones) {
  const std::string zone = "topology.kubernetes.io/zone=";
  const std::vector<N> nodes = {{"node1.zone1", zone + "zone1"}, {"node1.zone2", zone + "zone2"},
                                {"node2.zone2", zone + "zone2"}, {"node1.zone3", zone + "zone3"},
                                {"node2.zone3", zone + "zone3"}, {"node3.zone3", zone + "zone3"}};
  const std::vector<SW> svc = {{kSvc, "s1", "label1=l1,baz=blah"}};
  const std::string labels1 = "label1=l1,baz=blah";
  const std::string labels2 = "label2=l2,baz=blah";
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled", {}, {}, {}, {100, 100, 100, 100, 100, 100}},
      {"no services", {"", labels1}, {{"node1.zone1", ""}}, {}, {100, 100, 100, 100, 100, 100}},
      {"different services",
       {"", labels1},
       {{"node1.zone1", labels2}},
       {{kSvc, "s1", "key=value"}},
       {100, 100, 100, 100, 100, 100}},
      {"two pods, 0 matching",
       {"", labels1},
       {{"node1.zone1", labels2}, {"node1.zone2", labels2}},
       svc,
       {100, 100, 100, 100, 100, 100}},
      {"two pods, 1 matching (in z2)",
       {"", labels1},
       {{"node1.zone1", labels2}, {"node1.zone2", labels1}},
       svc,
       {100, 0, 33, 100, 100, 100}},
      {"five pods, 3 matching (z2=2, z3=1)",
       {"", labels1},
       {{"node1.zone1", labels2},
        {"node1.zone2", labels1},
        {"node2.zone2", labels1},
        {"node1.zone3", labels2},
        {"node2.zone3", labels1}},
       svc,
       {100, 0, 0, 66, 33, 66}},
      {"four pods, 3 matching (z1=1, z2=1, z3=1)",
       {"", labels1},
       {{"node1.zone1", labels1},
        {"node1.zone2", labels1},
        {"node2.zone2", labels2},
        {"node1.zone3", labels1}},
       svc,
       {0, 0, 33, 0, 33, 33}},
      {"five pods, 4 matching (z1=1, z2=2, z3=1)",
       {"", labels1},
       {{"node1.zone1", labels1},
        {"node1.zone2", labels1},
        {"node2.zone2", labels1},
        {"node2.zone2", labels2},
        {"node1.zone3", labels1}},
       svc,
       {33, 0, 0, 33, 66, 66}},
      {"Replication controller spreading (z1=0, z2=1, z3=2)",
       {"", labels1, "default", ControllerKind::kReplicationController, "rc1"},
       {{"node1.zone3", labels1}, {"node1.zone2", labels1}, {"node1.zone3", labels1}},
       {{kRc, "rc1", labels1}},
       {100, 50, 66, 0, 33, 33}},
  };
  for (const ScoreCase& tc : cases) EXPECT_EQ(RunScore(nodes, tc), tc.want) << tc.name;
}

// "Another statefulset with TopologySpreadConstraints set in pod": the
// plugin stays out (upstream scores every node 0).
TEST(SelectorSpreadScoreTest, SkipsPodsWithSpreadConstraints) {
  ClusterState cs;
  pts_test::AddNodes(cs, {{"node1", ""}});
  testing::PodBuilder b(cs.interner(), "p");
  b.Label("foo", "bar").Spread(pts_test::Make(cs.interner(), {1, "foo", ""}));
  const auto pod = b.Build();
  std::vector<const NodeInfo*> feasible = {cs.FindNode("node1")};
  CycleState state(1);
  EXPECT_TRUE(SelectorSpread().PreScore(state, *pod, feasible, cs).IsSkip());
}

}  // namespace
}  // namespace selector_spread_test
}  // namespace sched
