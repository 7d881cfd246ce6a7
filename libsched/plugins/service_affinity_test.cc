// ServiceAffinity PreFilter / Filter / AddPod / RemovePod and PreScore /
// Score / NormalizeScore, with cases from upstream's
// serviceaffinity/service_affinity_test.go (v1.21): TestServiceAffinity,
// TestServiceAffinityScore, TestPreFilterStateAddRemovePod,
// TestPreFilterDisabled.
#include "libsched/plugins/service_affinity.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/pod_topology_spread_test_util.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/run_score.h"

namespace sched {
namespace service_affinity_test {
namespace {

using pts_test::N;
using pts_test::P;

const std::vector<N> kRegionNodes = {{"machine1", "region=r1,zone=z11"},
                                     {"machine2", "region=r1,zone=z12"},
                                     {"machine3", "region=r2,zone=z21"},
                                     {"machine4", "region=r2,zone=z22"},
                                     {"machine5", "region=r2,zone=z22"}};

struct FilterCase {
  std::string name;
  P pod;                // the pod to schedule (node: its nodeSelector region)
  std::vector<P> pods;  // placed pods
  std::vector<std::pair<std::string, std::string>> services;  // namespace, selector
  std::string node;
  std::vector<std::string> labels;  // affinityLabels
  Code want;
};

std::shared_ptr<const Pod> PendingPod(ClusterState& cs, const P& p) {
  testing::PodBuilder b(cs.interner(), "pending", p.ns);
  for (const auto& [k, v] : pts_test::ParseLabels(p.labels)) b.Label(k, v);
  if (!p.node.empty()) b.NodeSelector("region", p.node);
  return b.Build();
}

TEST(ServiceAffinityFilterTest, Cases) {
  const std::string foo = "foo=bar";
  const std::vector<FilterCase> cases = {
      {"nothing scheduled", {"", "", ""}, {}, {}, "machine1", {"region"}, Code::kSuccess},
      {"pod with region label match",
       {"", "r1", ""},
       {},
       {},
       "machine1",
       {"region"},
       Code::kSuccess},
      {"pod with region label mismatch",
       {"", "r2", ""},
       {},
       {},
       "machine1",
       {"region"},
       Code::kUnschedulable},
      {"service pod on same node",
       {"", "", foo},
       {{"p", "machine1", foo}},
       {{"default", foo}},
       "machine1",
       {"region"},
       Code::kSuccess},
      {"service pod on different node, region match",
       {"", "", foo},
       {{"p", "machine2", foo}},
       {{"default", foo}},
       "machine1",
       {"region"},
       Code::kSuccess},
      {"service pod on different node, region mismatch",
       {"", "", foo},
       {{"p", "machine3", foo}},
       {{"default", foo}},
       "machine1",
       {"region"},
       Code::kUnschedulable},
      {"service in different namespace, region mismatch",
       {"", "", foo, "ns1"},
       {{"p", "machine3", foo, "ns1"}},
       {{"ns2", foo}},
       "machine1",
       {"region"},
       Code::kSuccess},
      {"pod in different namespace, region mismatch",
       {"", "", foo, "ns1"},
       {{"p", "machine3", foo, "ns2"}},
       {{"ns1", foo}},
       "machine1",
       {"region"},
       Code::kSuccess},
      {"service and pod in same namespace, region mismatch",
       {"", "", foo, "ns1"},
       {{"p", "machine3", foo, "ns1"}},
       {{"ns1", foo}},
       "machine1",
       {"region"},
       Code::kUnschedulable},
      {"service pod on different node, multiple labels, not all match",
       {"", "", foo},
       {{"p", "machine2", foo}},
       {{"default", foo}},
       "machine1",
       {"region", "zone"},
       Code::kUnschedulable},
      {"service pod on different node, multiple labels, all match",
       {"", "", foo},
       {{"p", "machine5", foo}},
       {{"default", foo}},
       "machine4",
       {"region", "zone"},
       Code::kSuccess},
      // Ours: a repeated label, and one no object carries.
      {"repeated label, pod fixes it",
       {"", "r1", foo},
       {{"p", "machine3", foo}},
       {{"default", foo}},
       "machine1",
       {"region", "region"},
       Code::kSuccess},
      {"label no node has",
       {"", "", foo},
       {{"p", "machine3", foo}},
       {{"default", foo}},
       "machine1",
       {"rack"},
       Code::kSuccess},
  };
  for (const FilterCase& tc : cases) {
    ClusterState cs;
    pts_test::AddNodes(cs, kRegionNodes);
    pts_test::AddPods(cs, tc.pods);
    for (const auto& [ns, selector] : tc.services) pts_test::AddService(cs, "s", selector, ns);
    const auto pod = PendingPod(cs, tc.pod);
    const ServiceAffinity pl({tc.labels, {}});
    CycleState state(1);
    PreFilterResult r;
    ASSERT_TRUE(pl.PreFilter(state, *pod, cs, &r).IsSuccess()) << tc.name;
    const Status s = pl.Filter(state, *pod, *cs.FindNode(tc.node));
    EXPECT_EQ(s.code(), tc.want) << tc.name;
    if (s.code() == Code::kUnschedulable) {
      EXPECT_EQ(s.Message(), "node(s) didn't match service affinity") << tc.name;
    }
  }
}

TEST(ServiceAffinityFilterTest, NoAffinityLabelsSkips) {
  ClusterState cs;
  pts_test::AddNodes(cs, kRegionNodes);
  const auto pod = PendingPod(cs, {"", "r2", ""});
  CycleState state(1);
  PreFilterResult r;
  EXPECT_TRUE(ServiceAffinity({{}, {"zone"}}).PreFilter(state, *pod, cs, &r).IsSkip());
}

// TestPreFilterDisabled.
TEST(ServiceAffinityFilterTest, FilterWithoutPreFilterIsAnError) {
  ClusterState cs;
  pts_test::AddNodes(cs, kRegionNodes);
  const auto pod = PendingPod(cs, {"", "", ""});
  CycleState state(1);
  const Status s = ServiceAffinity({{"region"}, {}}).Filter(state, *pod, *cs.FindNode("machine1"));
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(), "error reading \"PreFilterServiceAffinity\" from cycleState: not found");
  EXPECT_EQ(
      ServiceAffinity({{"region"}, {}}).AddPod(state, *pod, *pod, *cs.FindNode("machine1")).code(),
      Code::kError);
  EXPECT_EQ(ServiceAffinity({{"region"}, {}})
                .RemovePod(state, *pod, *pod, *cs.FindNode("machine1"))
                .code(),
            Code::kError);
}

// TestPreFilterStateAddRemovePod, observed through Filter: a nominated
// pod of the Service on machine3 (region r2) pins the pod to r2 until it is
// removed again; a pod preemption took off a node stops counting there.
TEST(ServiceAffinityFilterTest, AddPodAndRemovePod) {
  const std::string foo = "foo=bar";
  ClusterState cs;
  pts_test::AddNodes(cs, kRegionNodes);
  pts_test::AddPods(cs, {{"p2", "machine3", ""}});  // not the Service's
  pts_test::AddService(cs, "s", foo);
  const auto pod = PendingPod(cs, {"", "", foo});
  const ServiceAffinity pl({{"region"}, {}});
  CycleState state(1);
  PreFilterResult r;
  ASSERT_TRUE(pl.PreFilter(state, *pod, cs, &r).IsSuccess());
  const NodeInfo& machine1 = *cs.FindNode("machine1");
  EXPECT_TRUE(pl.Filter(state, *pod, machine1).IsSuccess());

  const auto added = pts_test::MakePod(cs, P{"added", "", foo});
  NodeInfo machine3 = *cs.FindNode("machine3");
  machine3.AddPod(added, 1);
  CycleState with = state.Clone();
  ASSERT_TRUE(pl.AddPod(with, *pod, *added, machine3).IsSuccess());
  EXPECT_EQ(pl.Filter(with, *pod, machine1).code(), Code::kUnschedulable);
  EXPECT_TRUE(pl.Filter(with, *pod, machine3).IsSuccess());
  EXPECT_TRUE(pl.Filter(state, *pod, machine1).IsSuccess());  // the clone was copied

  // Preemption: the pod leaves machine3's NodeInfo. Without RemovePod it no
  // longer counts there (FilterOutPods); with it, nowhere.
  machine3.RemovePod(added.get(), 2);
  EXPECT_TRUE(pl.Filter(with, *pod, machine3).IsSuccess());
  ASSERT_TRUE(pl.RemovePod(with, *pod, *added, machine3).IsSuccess());
  EXPECT_TRUE(pl.Filter(with, *pod, machine1).IsSuccess());

  // A pod in another namespace, or that the pod's labels do not select, is
  // not added.
  const auto other_ns = pts_test::MakePod(cs, P{"x", "", foo, "ns1"});
  const auto unlabeled = pts_test::MakePod(cs, P{"y", "", ""});
  ASSERT_TRUE(pl.AddPod(with, *pod, *other_ns, machine3).IsSuccess());
  ASSERT_TRUE(pl.AddPod(with, *pod, *unlabeled, machine3).IsSuccess());
  EXPECT_TRUE(pl.Filter(with, *pod, machine1).IsSuccess());
}

struct ScoreCase {
  std::string name;
  std::string pod_labels;
  std::vector<P> pods;
  std::vector<std::string> services;  // selectors, in namespace default
  std::vector<std::string> labels;    // antiAffinityLabelsPreference
  std::vector<int64_t> want;          // machine11, 12, 21, 22, 01, 02
  bool racks = false;
};

TEST(ServiceAffinityScoreTest, Cases) {
  const std::string labels1 = "foo=bar,baz=blah";
  const std::string labels2 = "bar=foo,baz=blah";
  const std::vector<N> zoned = {{"machine11", "zone=zone1"}, {"machine12", "zone=zone1"},
                                {"machine21", "zone=zone2"}, {"machine22", "zone=zone2"},
                                {"machine01", "name=value"}, {"machine02", "name=value"}};
  const std::vector<N> racked = {{"machine11", "zone=zone1,rack=rack1"},
                                 {"machine12", "zone=zone1,rack=rack2"},
                                 {"machine21", "zone=zone2,rack=rack1"},
                                 {"machine22", "zone=zone2,rack=rack1"},
                                 {"machine01", "name=value"},
                                 {"machine02", "name=value"}};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled", "", {}, {}, {"zone"}, {100, 100, 100, 100, 0, 0}},
      {"no services", labels1, {{"a", "machine11", ""}}, {}, {"zone"}, {100, 100, 100, 100, 0, 0}},
      {"different services",
       labels1,
       {{"a", "machine11", labels2}},
       {"key=value"},
       {"zone"},
       {100, 100, 100, 100, 0, 0}},
      {"three pods, one service pod",
       labels1,
       {{"a", "machine01", labels2}, {"b", "machine11", labels2}, {"c", "machine21", labels1}},
       {labels1},
       {"zone"},
       {100, 100, 0, 0, 0, 0}},
      {"three pods, two service pods on different machines",
       labels1,
       {{"a", "machine11", labels2}, {"b", "machine11", labels1}, {"c", "machine21", labels1}},
       {labels1},
       {"zone"},
       {50, 50, 50, 50, 0, 0}},
      // Upstream's pods without a namespace are in another namespace here.
      {"three service label match pods in different namespaces",
       labels1,
       {{"a", "machine11", labels1, "other"},
        {"b", "machine11", labels1},
        {"c", "machine21", labels1, "other"},
        {"d", "machine21", labels1, "ns1"}},
       {labels1},
       {"zone"},
       {0, 0, 100, 100, 0, 0}},
      {"four pods, three service pods",
       labels1,
       {{"a", "machine11", labels2},
        {"b", "machine11", labels1},
        {"c", "machine21", labels1},
        {"d", "machine21", labels1}},
       {labels1},
       {"zone"},
       {66, 66, 33, 33, 0, 0}},
      {"service with partial pod label matches",
       labels1,
       {{"a", "machine11", labels2}, {"b", "machine11", labels1}, {"c", "machine21", labels1}},
       {"baz=blah"},
       {"zone"},
       {33, 33, 66, 66, 0, 0}},
      {"service pod on non-zoned node",
       labels1,
       {{"a", "machine01", labels1},
        {"b", "machine11", labels1},
        {"c", "machine21", labels1},
        {"d", "machine21", labels1}},
       {labels1},
       {"zone"},
       {75, 75, 50, 50, 0, 0}},
      {"three pods, two service pods, with rack label",
       labels1,
       {{"a", "machine01", labels2}, {"b", "machine11", labels1}, {"c", "machine21", labels1}},
       {labels1},
       {"zone", "rack"},
       {25, 75, 25, 25, 0, 0},
       true},
      // Ours: terminating pods do not count; no preference labels score 0.
      {"terminating pods are ignored",
       labels1,
       {{"a", "machine11", labels1, "default", true}, {"b", "machine21", labels1}},
       {labels1},
       {"zone"},
       {100, 100, 0, 0, 0, 0}},
      {"no preference labels",
       labels1,
       {{"b", "machine21", labels1}},
       {labels1},
       {},
       {0, 0, 0, 0, 0, 0}},
  };
  for (const ScoreCase& tc : cases) {
    ClusterState cs;
    const std::vector<N>& nodes = tc.racks ? racked : zoned;
    pts_test::AddNodes(cs, nodes);
    pts_test::AddPods(cs, tc.pods);
    for (size_t i = 0; i < tc.services.size(); ++i) {
      pts_test::AddService(cs, "s" + std::to_string(i), tc.services[i]);
    }
    const auto pod = pts_test::MakePod(cs, P{"pending", "", tc.pod_labels});
    std::vector<const NodeInfo*> feasible;
    for (const N& n : nodes) feasible.push_back(cs.FindNode(n.name));
    const ServiceAffinity pl({{}, tc.labels});
    CycleState state(1);
    ASSERT_TRUE(pl.PreScore(state, *pod, feasible, cs).IsSuccess()) << tc.name;
    std::vector<int64_t> scores;
    ASSERT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, feasible, &scores).IsSuccess());
    EXPECT_EQ(scores, tc.want) << tc.name;
  }
}

TEST(ServiceAffinityScoreTest, ScoreWithoutPreScoreIsAnError) {
  ClusterState cs;
  pts_test::AddNodes(cs, {{"n", ""}});
  const auto pod = pts_test::MakePod(cs, P{"p", "", ""});
  CycleState state(1);
  int64_t score;
  EXPECT_EQ(ServiceAffinity({}).Score(state, *pod, *cs.FindNode("n"), &score).code(), Code::kError);
}

}  // namespace
}  // namespace service_affinity_test
}  // namespace sched
