// PodTopologySpread PreScore / Score / NormalizeScore, with cases from
// upstream's podtopologyspread/scoring_test.go (TestPodTopologySpreadScore,
// TestPreScoreSkip) plus the default constraints from Services and
// controllers (helper.DefaultSelector).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "libsched/plugins/internal/pod_topology_spread_common.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/testing/pod_topology_spread_test_util.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/run_score.h"

namespace sched {
namespace pod_topology_spread_scoring_test {
namespace {

using pts_test::C;
using pts_test::N;
using pts_test::P;
using pts_test::PodSpec;

constexpr NodeInclusionPolicy kIgnore = NodeInclusionPolicy::kIgnore;
const std::string kHost = "kubernetes.io/hostname";

std::vector<N> HostNodes(const std::vector<std::string>& names, const std::string& extra = "") {
  std::vector<N> out;
  for (const std::string& n : names) out.push_back({n, kHost + "=" + n + extra});
  return out;
}
// Matching pods spread as 4/3/2/1 on node-a..d.
const std::vector<P> kPods4321 = {
    {"p-a1", "node-a", "foo"}, {"p-a2", "node-a", "foo"}, {"p-a3", "node-a", "foo"},
    {"p-a4", "node-a", "foo"}, {"p-b1", "node-b", "foo"}, {"p-b2", "node-b", "foo"},
    {"p-b3", "node-b", "foo"}, {"p-c1", "node-c", "foo"}, {"p-c2", "node-c", "foo"},
    {"p-d1", "node-d", "foo"}};
const std::vector<P> kPods2201 = {{"p-a1", "node-a", "foo"}, {"p-a2", "node-a", "foo"},
                                  {"p-b1", "node-b", "foo"}, {"p-d1", "node-d", "foo"},
                                  {"p-d2", "node-d", "foo"}, {"p-d3", "node-d", "foo"}};
const std::vector<P> kPods4211 = {
    {"p-a1", "node-a", "foo"}, {"p-a2", "node-a", "foo"}, {"p-a3", "node-a", "foo"},
    {"p-a4", "node-a", "foo"}, {"p-b1", "node-b", "foo"}, {"p-b2", "node-b", "foo"},
    {"p-x1", "node-x", "foo"}, {"p-y1", "node-y", "foo"}, {"p-y2", "node-y", "foo"},
    {"p-y3", "node-y", "foo"}};
const std::vector<N> kZoneHostNodes = {{"node-a", "zone=zone1," + kHost + "=node-a"},
                                       {"node-b", "zone=zone1," + kHost + "=node-b"},
                                       {"node-x", "zone=zone2," + kHost + "=node-x"},
                                       {"node-y", "zone=zone2," + kHost + "=node-y"}};

struct ScoreCase {
  std::string name;
  PodSpec pod;
  std::vector<N> nodes;       // all nodes of the cluster
  std::vector<std::string> feasible;  // the nodes that passed Filter, in order
  std::vector<P> pods;
  std::vector<int64_t> want;  // parallel to feasible
  std::vector<std::pair<std::string, std::string>> services = {};  // name, selector
  PodTopologySpreadArgs args = {};
};

std::vector<int64_t> RunScore(const ScoreCase& tc, Status* pre_score) {
  ClusterState cs;
  pts_test::AddNodes(cs, tc.nodes);
  pts_test::AddPods(cs, tc.pods);
  for (const auto& [name, selector] : tc.services) pts_test::AddService(cs, name, selector);
  const auto pod = pts_test::MakePod(cs, tc.pod);
  std::vector<const NodeInfo*> feasible;
  for (const std::string& n : tc.feasible) feasible.push_back(cs.FindNode(n));
  const PodTopologySpread pl(tc.args);
  CycleState state(1);
  *pre_score = pl.PreScore(state, *pod, feasible, cs);
  std::vector<int64_t> scores;
  if (!pre_score->IsSuccess()) return scores;
  // ScoreAll on every node and on every other one: what Score gives on
  // those, the others untouched.
  for (const size_t stride : {1, 2}) {
    std::vector<char> which(feasible.size());
    for (size_t i = 0; i < which.size(); i += stride) which[i] = 1;
    std::vector<int64_t> column(feasible.size(), -1);
    EXPECT_TRUE(pl.ScoreAll(state, *pod, feasible, which, column)) << tc.name;
    for (size_t i = 0; i < feasible.size(); ++i) {
      int64_t want = -1;
      if (which[i]) {
        EXPECT_TRUE(pl.Score(state, *pod, *feasible[i], &want).IsSuccess());
      }
      EXPECT_EQ(column[i], want) << tc.name << ", node " << i << ", stride " << stride;
    }
  }
  EXPECT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, feasible, &scores).IsSuccess());
  return scores;
}

TEST(PodTopologySpreadScoreTest, Scores) {
  const std::vector<std::string> abcd = {"node-a", "node-b", "node-c", "node-d"};
  const auto node_selector_foo = [](Interner&, testing::PodBuilder& b) {
    b.NodeSelector("foo", "");
  };
  const std::vector<N> abc_foo = {
      {"node-a", "node=node-a,foo"}, {"node-b", "node=node-b,foo"}, {"node-c", "node=node-c"}};
  const std::vector<P> pods_2_1_1 = {{"p-a1", "node-a", "foo"},
                                     {"p-a2", "node-a", "foo"},
                                     {"p-b1", "node-b", "foo"},
                                     {"p-c1", "node-c", "foo"}};
  const std::vector<ScoreCase> cases = {
      {"one constraint on node, no existing pods",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes({"node-a", "node-b"}),
       {"node-a", "node-b"},
       {},
       {100, 100}},
      {"one constraint on node, only one node is candidate",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes({"node-a", "node-b"}),
       {"node-a"},
       {{"p-a1", "node-a", "foo"}, {"p-a2", "node-a", "foo"}, {"p-b1", "node-b", "foo"}},
       {100}},
      {"one constraint on node, all nodes have the same number of matching pods",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes({"node-a", "node-b"}),
       {"node-a", "node-b"},
       {{"p-a1", "node-a", "foo"}, {"p-b1", "node-b", "foo"}},
       {100, 100}},
      {"one constraint on node, all 4 nodes are candidates",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes(abcd),
       abcd,
       kPods2201,
       {20, 60, 100, 0}},
      {"one constraint on node, null selector",
       {"foo", {{1, kHost, "", false}}},
       HostNodes(abcd),
       abcd,
       kPods2201,
       {100, 100, 100, 100}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=2",
       {"foo", {{2, kHost, "foo", false}}},
       HostNodes(abcd),
       abcd,
       kPods2201,
       {33, 66, 100, 16}},
      {"one constraint on node, all 4 nodes are candidates, maxSkew=3",
       {"foo", {{3, kHost, "foo", false}}},
       HostNodes(abcd),
       abcd,
       kPods4321,
       {44, 66, 77, 100}},
      {"system defaulting, nodes don't have zone, pods match service",
       {"foo", {}},
       HostNodes(abcd),
       abcd,
       kPods4321,
       {44, 66, 77, 100},
       {{"my-svc", "foo"}}},
      {"one constraint on node, 3 out of 4 nodes are candidates",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes({"node-a", "node-b", "node-x", "node-y"}),
       {"node-a", "node-b", "node-x"},
       kPods4211,
       {33, 83, 100}},
      {"one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match "
       "topology key",
       {"foo", {{1, kHost, "foo", false}}},
       {{"node-a", kHost + "=node-a"},
        {"node-b", "n=node-b"},
        {"node-x", kHost + "=node-x"},
        {"node-y", kHost + "=node-y"}},
       {"node-a", "node-b", "node-x"},
       kPods4211,
       {16, 0, 100}},
      {"one constraint on zone, 3 out of 4 nodes are candidates",
       {"foo", {{1, "zone", "foo", false}}},
       kZoneHostNodes,
       {"node-a", "node-b", "node-x"},
       kPods4211,
       {75, 75, 100}},
      {"two Constraints on zone and node, 2 out of 4 nodes are candidates",
       {"foo", {{1, "zone", "foo", false}, {1, kHost, "foo", false}}},
       kZoneHostNodes,
       {"node-a", "node-x"},
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-x1", "node-x", "foo"},
        {"p-x2", "node-x", "foo"},
        {"p-y1", "node-y", "foo"},
        {"p-y2", "node-y", "foo"},
        {"p-y3", "node-y", "foo"},
        {"p-y4", "node-y", "foo"}},
       {100, 63}},
      {"two Constraints on zone, 2 out of 4 nodes are candidates",
       {"foo,bar", {{1, "zone", "foo", false}, {1, "zone", "bar", false}}},
       {{"node-a", "zone=zone1"},
        {"node-b", "zone=zone1"},
        {"node-x", "zone=zone2"},
        {"node-y", "zone=zone2"}},
       {"node-a", "node-x"},
       {{"p-a1", "node-a", "foo,bar"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo,bar"},
        {"p-y1", "node-y", "foo"},
        {"p-y2", "node-y", "foo,bar"},
        {"p-y3", "node-y", "foo"}},
       {85, 100}},
      {"two Constraints on zone and node, with different labelSelectors",
       {"foo,bar", {{1, "zone", "foo", false}, {1, kHost, "bar", false}}},
       kZoneHostNodes,
       {"node-a", "node-b", "node-x", "node-y"},
       {{"p-a1", "node-a", "foo"},
        {"p-b1", "node-b", "foo,bar"},
        {"p-y1", "node-y", "foo"},
        {"p-y2", "node-y", "bar"}},
       {60, 20, 100, 60}},
      {"two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods",
       {"foo,bar", {{1, "zone", "foo", false}, {1, kHost, "bar", false}}},
       kZoneHostNodes,
       {"node-a", "node-b", "node-x", "node-y"},
       {{"p-b1", "node-b", "bar"}, {"p-x1", "node-x", "foo"}, {"p-y1", "node-y", "foo,bar"}},
       {100, 60, 40, 0}},
      {"two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are "
       "candidates",
       {"foo,bar", {{1, "zone", "foo", false}, {1, kHost, "bar", false}}},
       kZoneHostNodes,
       {"node-a", "node-b", "node-x"},
       {{"p-a1", "node-a", "foo"},
        {"p-b1", "node-b", "foo,bar"},
        {"p-y1", "node-y", "foo"},
        {"p-y2", "node-y", "bar"}},
       {50, 25, 100}},
      // Not upstream's: two hostname constraints count apart. Weights ln(3 + 2); raw
      // a = round(2w + 0 + 0w + 1) = 4, b = round(0 + 1w + 1) = 3, c = round(1w + 1w + 1) = 4.
      {"two Constraints on node, with different labelSelectors",
       {"foo,bar", {{1, kHost, "foo", false}, {2, kHost, "bar", false}}},
       HostNodes({"node-a", "node-b", "node-c"}),
       {"node-a", "node-b", "node-c"},
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "bar"},
        {"p-c1", "node-c", "foo,bar"}},
       {75, 100, 75}},
      {"existing pods in a different namespace do not count",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes({"node-a", "node-b"}),
       {"node-a", "node-b"},
       {{"p-a1", "node-a", "foo", "ns1"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-b2", "node-b", "foo"}},
       {100, 33}},
      {"terminating Pods should be excluded",
       {"foo", {{1, kHost, "foo", false}}},
       HostNodes({"node-a", "node-b"}),
       {"node-a", "node-b"},
       {{"p-a", "node-a", "foo", "default", true}, {"p-b", "node-b", "foo"}},
       {100, 0}},
      {"minDomains has no effect when ScheduleAnyway",
       {"foo", {{2, "node", "foo", false, 4}}},
       {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}, {"node-c", "node=node-c"}},
       {"node-a", "node-b", "node-c"},
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-b2", "node-b", "foo"},
        {"p-c1", "node-c", "foo"}},
       {75, 75, 100}},
      {"NodeAffinityPolicy honored with labelSelectors",
       {"foo", {{1, "node", "foo", false}}, node_selector_foo},
       abc_foo,
       {"node-a", "node-b", "node-c"},
       pods_2_1_1,
       {0, 33, 100}},
      {"NodeAffinityPolicy ignored with labelSelectors",
       {"foo", {{1, "node", "foo", false, 1, kIgnore}}, node_selector_foo},
       abc_foo,
       {"node-a", "node-b", "node-c"},
       pods_2_1_1,
       {66, 100, 100}},
  };
  for (const ScoreCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    Status pre;
    EXPECT_EQ(RunScore(tc, &pre), tc.want);
    EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
  }
}

// TestPreScoreSkip and the default constraints' conditions.
TEST(PodTopologySpreadScoreTest, PreScoreSkips) {
  const std::vector<N> nodes = HostNodes({"node-a", "node-b"});
  PodTopologySpreadArgs list_none;
  list_none.system_defaulting = false;
  const std::vector<ScoreCase> cases = {
      {"only DoNotSchedule constraints", {"foo", {{1, kHost, "foo"}}}, nodes, {"node-a"}, {}, {}},
      {"system defaulting, no Service selects the pod", {"foo", {}}, nodes, {"node-a"}, {}, {},
       {{"other", "bar"}}},
      {"List defaulting without constraints", {"foo", {}}, nodes, {"node-a"}, {}, {},
       {{"svc", "foo"}}, list_none},
  };
  for (const ScoreCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    Status pre;
    RunScore(tc, &pre);
    EXPECT_TRUE(pre.IsSkip()) << pre.Message();
  }
}

// List defaulting requires every topology key (requireAllTopologies), so a
// node without one is ignored and scores 0; System defaulting does not.
TEST(PodTopologySpreadScoreTest, ListDefaultingIgnoresNodesWithoutKeys) {
  PodTopologySpreadArgs list;
  list.system_defaulting = false;
  list.default_constraints.push_back({.max_skew = 1, .topology_key = "zone"});
  const std::vector<N> nodes = {{"node-a", "zone=z1"}, {"node-b", "zone=z2"}, {"node-c", ""}};
  const std::vector<P> pods = {{"p-a1", "node-a", "foo"}, {"p-c1", "node-c", "foo"}};
  Status pre;
  EXPECT_EQ(RunScore({"list", {"foo", {}}, nodes, {"node-a", "node-b", "node-c"}, pods, {},
                      {{"svc", "foo"}}, list},
                     &pre),
            (std::vector<int64_t>{0, 100, 0}));
  EXPECT_TRUE(pre.IsSuccess());
}

// The default selector of a pod owned by a ReplicaSet is the ReplicaSet's
// selector (plus matching Services): pods of other owners do not count.
TEST(PodTopologySpreadScoreTest, SystemDefaultsFromReplicaSet) {
  ClusterState cs;
  pts_test::AddNodes(cs, HostNodes({"node-a", "node-b"}));
  pts_test::AddPods(cs, {{"p-a1", "node-a", "app=web"},
                         {"p-a2", "node-a", "app=web"},
                         {"p-b1", "node-b", "app=db"},
                         {"p-b2", "node-b", "app=db"},
                         {"p-b3", "node-b", "app=db"}});
  auto rs = std::make_shared<Workload>();
  rs->kind = WorkloadKind::kReplicaSet;
  rs->ns = "default";
  rs->name = "web-123";
  rs->selector.emplace().requirements.push_back(
      testing::Req(cs.interner(), "app", SelectorOp::kIn, {"web"}));
  cs.UpsertWorkload(rs);
  testing::PodBuilder b(cs.interner(), "p");
  const auto pod = b.Label("app", "web").Controller(ControllerKind::kReplicaSet, "web-123").Build();
  const std::vector<const NodeInfo*> feasible = {cs.FindNode("node-a"), cs.FindNode("node-b")};
  const PodTopologySpread pl{PodTopologySpreadArgs{}};
  CycleState state(1);
  ASSERT_TRUE(pl.PreScore(state, *pod, feasible, cs).IsSuccess());
  std::vector<int64_t> scores;
  ASSERT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, feasible, &scores).IsSuccess());
  // hostname, maxSkew 3: a = round(2 ln 4 + 2) = 5, b = 2; 100 (7 - s) / 5.
  EXPECT_EQ(scores, (std::vector<int64_t>{40, 100}));

  // An unknown owner yields no selector: Skip.
  testing::PodBuilder orphan(cs.interner(), "q");
  const auto q = orphan.Label("app", "web").Controller(ControllerKind::kReplicaSet, "gone").Build();
  CycleState skipped(1);
  EXPECT_TRUE(pl.PreScore(skipped, *q, feasible, cs).IsSkip());
}

// System defaults do not require every key: a node without a zone joins
// the nodes whose zone is "" in one domain (upstream reads a missing label
// as ""), but only nodes with the key get that domain's count.
// zone weight ln(2+2), hostname weight ln(3+2); raw scores a 9, b 13, c 4.
TEST(PodTopologySpreadScoreTest, MissingZoneCountsAsTheEmptyValue) {
  const std::string zone = "topology.kubernetes.io/zone";
  const std::vector<N> nodes = {{"node-a", zone + "=zone1," + kHost + "=node-a"},
                                {"node-b", zone + "," + kHost + "=node-b"},
                                {"node-c", kHost + "=node-c"}};
  const std::vector<P> pods = {{"p-a1", "node-a", "foo"},
                               {"p-b1", "node-b", "foo"},
                               {"p-b2", "node-b", "foo"},
                               {"p-c1", "node-c", "foo"}};
  Status pre;
  EXPECT_EQ(RunScore({"system defaults", {"foo", {}}, nodes, {"node-a", "node-b", "node-c"}, pods,
                      {61, 30, 100}, {{"svc", "foo"}}},
                     &pre),
            (std::vector<int64_t>{61, 30, 100}));
  EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
}

// Counting the zones of the feasible nodes stops once it met every zone a
// node can be in: with a node without the key, the zone "" too, even when
// that node comes last. 3 zones (z1, z2, ""), weights ln 5: raw scores
// a round(1 ln5 + 2 + 1 ln5 + 4) = 9, b round(4 ln5 + 2 + 4 ln5 + 4) = 19
// (18 with 2 zones), c 2.
TEST(PodTopologySpreadScoreTest, ZoneCountWaitsForTheNodeWithoutTheKey) {
  const std::string zone = "topology.kubernetes.io/zone";
  const std::vector<N> nodes = {{"node-a", zone + "=z1," + kHost + "=node-a"},
                                {"node-b", zone + "=z2," + kHost + "=node-b"},
                                {"node-c", kHost + "=node-c"}};
  const std::vector<P> pods = {{"p-a1", "node-a", "foo"},
                               {"p-b1", "node-b", "foo"},
                               {"p-b2", "node-b", "foo"},
                               {"p-b3", "node-b", "foo"},
                               {"p-b4", "node-b", "foo"}};
  Status pre;
  EXPECT_EQ(RunScore({"system defaults", {"foo", {}}, nodes, {"node-a", "node-b", "node-c"}, pods,
                      {63, 10, 100}, {{"svc", "foo"}}},
                     &pre),
            (std::vector<int64_t>{63, 10, 100}));
  EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
}

// Pods bound to a node that has no Node object are not counted (upstream
// counts over the snapshot's nodes), not even into the domain "" that the
// nodes without the key share: the scores are those of the test above.
// PreScore counts from the pods' nodes, not by walking every node.
TEST(PodTopologySpreadScoreTest, PodsOnANodeWithoutANodeObjectAreNotCounted) {
  const std::string zone = "topology.kubernetes.io/zone";
  const std::vector<N> nodes = {{"node-a", zone + "=zone1," + kHost + "=node-a"},
                                {"node-b", zone + "," + kHost + "=node-b"},
                                {"node-c", kHost + "=node-c"}};
  const std::vector<P> pods = {{"p-a1", "node-a", "foo"},    {"p-b1", "node-b", "foo"},
                               {"p-b2", "node-b", "foo"},    {"p-c1", "node-c", "foo"},
                               {"p-g1", "node-gone", "foo"}, {"p-g2", "node-gone", "foo"}};
  Status pre;
  EXPECT_EQ(RunScore({"system defaults",
                      {"foo", {}},
                      nodes,
                      {"node-a", "node-b", "node-c"},
                      pods,
                      {61, 30, 100},
                      {{"svc", "foo"}}},
                     &pre),
            (std::vector<int64_t>{61, 30, 100}));
  EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
}

// ScoreAll looks the nodes without matching pods up in a table by domain
// when the terms are one hostname term on every node and one other (the
// system defaults' shape), whichever comes first; a node without the other
// key takes the table's last entry (0 when every key is required). Other
// shapes walk as Score. RunScore checks ScoreAll against Score per node.
TEST(PodTopologySpreadScoreTest, ScoreAllTableOfNodesWithoutMatches) {
  const std::string zone = "topology.kubernetes.io/zone";
  const std::vector<N> nodes = {{"node-a", zone + "=z1," + kHost + "=node-a"},
                                {"node-b", zone + "=z1," + kHost + "=node-b"},
                                {"node-c", zone + "=z2," + kHost + "=node-c"},
                                {"node-d", zone + "=z2," + kHost + "=node-d"},
                                {"node-e", zone + "=z3," + kHost + "=node-e"},
                                {"node-f", kHost + "=node-f"}};
  std::vector<N> without_host = nodes;
  without_host.push_back({"node-g", zone + "=z2"});
  const std::vector<std::string> a_to_f = {"node-a", "node-b", "node-c",
                                           "node-d", "node-e", "node-f"};
  std::vector<std::string> a_to_g = a_to_f;
  a_to_g.push_back("node-g");
  const std::vector<P> pods = {{"p-a1", "node-a", "foo"},
                               {"p-a2", "node-a", "foo"},
                               {"p-c1", "node-c", "foo"},
                               {"p-f1", "node-f", "foo"}};
  const std::vector<std::pair<std::string, std::string>> svc = {{"svc", "foo"}};
  const std::vector<ScoreCase> cases = {
      {"system defaults, a node without the zone", {"foo", {}}, nodes, a_to_f, pods,
       {28, 57, 57, 71, 85, 100}, svc},
      {"system defaults, some nodes feasible", {"foo", {}}, nodes,
       {"node-b", "node-d", "node-f"}, pods, {44, 55, 100}, svc},
      {"zone then hostname, every key required",
       {"foo", {{1, zone, "foo", false}, {2, kHost, "foo", false}}}, nodes, a_to_f, pods,
       {12, 62, 50, 75, 100, 0}},
      {"system defaults, a node without the hostname", {"foo", {}}, without_host, a_to_g, pods,
       {28, 57, 57, 71, 85, 100, 85}, svc},
      {"two hostname terms",
       {"foo", {{1, kHost, "foo", false}, {2, kHost, "foo", false}}}, nodes, a_to_f, pods,
       {11, 100, 55, 100, 100, 55}},
  };
  for (const ScoreCase& tc : cases) {
    Status pre;
    EXPECT_EQ(RunScore(tc, &pre), tc.want) << tc.name;
    EXPECT_TRUE(pre.IsSuccess()) << tc.name << ": " << pre.Message();
  }
}

// The cycles of one class share PreScore's buffers through the class memo
// (the hostname counts are cleared where the last cycle counted, not per
// node): each cycle scores as a cycle without a class, after pods came,
// went or moved, while an earlier cycle's state still holds the buffers,
// and after nodes came; with default constraints also after the default
// selector changed (the class keeps the constraints built from it) and
// after the zone key came (the class keeps the keys' ids).
TEST(PodTopologySpreadScoreTest, ClassCyclesScoreAsCyclesWithoutAClass) {
  struct Step {
    std::vector<N> nodes = {};  // added before the cycle
    std::vector<std::pair<std::string, std::string>> services = {};  // name, selector
    std::vector<P> add = {};
    std::vector<std::string> remove = {};  // pod names
    bool keep_state = false;  // the cycle's state outlives the next cycle
  };
  struct Case {
    std::string name;
    PodSpec pod;
    std::vector<Step> steps;
    bool hostnames_only = false;  // the cluster starts without zones
  };
  const std::string zone = "topology.kubernetes.io/zone";
  const std::vector<N> nodes = {{"node-a", zone + "=z1," + kHost + "=node-a"},
                                {"node-b", zone + "=z1," + kHost + "=node-b"},
                                {"node-c", zone + "=z2," + kHost + "=node-c"},
                                {"node-d", kHost + "=node-d"}};
  const std::vector<P> start = {{"p1", "node-a", "foo"}, {"p2", "node-a", "foo"},
                                {"p3", "node-c", "foo"}, {"p4", "node-d", "foo"}};
  const std::vector<Step> moves = {
      {.add = start},
      {.add = {{"p5", "node-b", "foo"}}, .remove = {"p1", "p2"}},
      {.add = {{"p1", "node-c", "foo"}}, .remove = {"p3", "p4"}},
      {.remove = {"p5"}},
  };
  const std::vector<Step> held = {
      {.add = start, .keep_state = true},
      {.add = {{"p5", "node-b", "foo"}}, .remove = {"p1"}},
      {.add = {{"p2", "node-d", "foo"}}, .remove = {"p5"}},
  };
  const std::vector<Step> grown = {
      {.add = start},
      {.nodes = {{"node-e", zone + "=z3," + kHost + "=node-e"}},
       .add = {{"p6", "node-e", "foo"}},
       .remove = {"p2"}},
      {.remove = {"p6"}},
  };
  const std::vector<Step> reselected = {
      {.add = {{"p1", "node-a", "foo"}, {"p2", "node-b", "foo,bar"}, {"p3", "node-c", "foo"}}},
      {.services = {{"svc-bar", "bar"}}},  // the selector: foo and bar
      {.add = {{"p4", "node-c", "foo,bar"}}},
  };
  const std::vector<Step> zoned = {
      {.add = start},
      {.nodes = {{"node-e", zone + "=z3," + kHost + "=node-e"}}},
      {.add = {{"p6", "node-e", "foo"}}},
  };
  const PodSpec defaults = {"foo", {}};
  const PodSpec defaults_bar = {"foo,bar", {}};
  const PodSpec own = {"foo", {{1, kHost, "foo", false}, {2, zone, "foo", false}}};
  const std::vector<Case> cases = {
      {"system defaults, pods move", defaults, moves},
      {"system defaults, an earlier state holds the buffers", defaults, held},
      {"system defaults, a node comes", defaults, grown},
      {"system defaults, a Service changes the selector", defaults_bar, reselected},
      {"system defaults, the zone key comes", defaults, zoned, true},
      {"own constraints, pods move", own, moves},
      {"own constraints, an earlier state holds the buffers", own, held},
  };
  for (const Case& tc : cases) {
    SCOPED_TRACE(tc.name);
    ClusterState cs;
    std::vector<N> first = nodes;
    if (tc.hostnames_only) {
      for (N& n : first) n.labels = kHost + "=" + n.name;
    }
    pts_test::AddNodes(cs, first);
    pts_test::AddService(cs, "svc", "foo");
    const PodTopologySpread pl{PodTopologySpreadArgs{}};
    auto memos = std::make_shared<ClassMemos>();
    std::vector<CycleState> kept;
    std::vector<std::string> names;
    for (const N& n : nodes) names.push_back(n.name);
    for (size_t step = 0; step < tc.steps.size(); ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const Step& st = tc.steps[step];
      pts_test::AddNodes(cs, st.nodes);
      for (const auto& [name, selector] : st.services) pts_test::AddService(cs, name, selector);
      for (const N& n : st.nodes) names.push_back(n.name);
      for (const std::string& name : st.remove) ASSERT_TRUE(cs.RemovePod("default/" + name));
      pts_test::AddPods(cs, st.add);
      std::vector<const NodeInfo*> feasible;
      for (const std::string& name : names) feasible.push_back(cs.FindNode(name));
      const auto pod = pts_test::MakePod(cs, tc.pod);
      std::vector<int64_t> want_raw(feasible.size(), -1);
      std::vector<int64_t> got_raw(feasible.size(), -1);
      std::vector<int64_t> want;
      std::vector<int64_t> got;
      CycleState fresh(1);
      ASSERT_TRUE(pl.PreScore(fresh, *pod, feasible, cs).IsSuccess());
      const std::vector<char> every(feasible.size(), 1);
      ASSERT_TRUE(pl.ScoreAll(fresh, *pod, feasible, every, want_raw));
      ASSERT_TRUE(testing::ScoreAndNormalize(pl, fresh, *pod, feasible, &want).IsSuccess());
      CycleState classed(1);
      classed.set_class_memos(memos);
      ASSERT_TRUE(pl.PreScore(classed, *pod, feasible, cs).IsSuccess());
      ASSERT_TRUE(pl.ScoreAll(classed, *pod, feasible, every, got_raw));
      ASSERT_TRUE(testing::ScoreAndNormalize(pl, classed, *pod, feasible, &got).IsSuccess());
      EXPECT_EQ(got_raw, want_raw);
      EXPECT_EQ(got, want);
      if (st.keep_state) kept.push_back(std::move(classed));
    }
  }
}

TEST(PodTopologySpreadScoreTest, RoundHalfAwayFromZeroIsLlround) {
  // PreScore's math.Round: the same as std::llround wherever a raw score
  // can be (finite, |x| < 2^63), halves and the doubles next to them too.
  std::vector<double> xs = {0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994,
                            -0.49999999999999994, 4503599627370495.5, -4503599627370495.5,
                            9007199254740993.0, 4611686018427387904.0, -4611686018427387904.0};
  for (double h = 0.5; h < 1e6; h = h * 3 + 0.5) {
    xs.push_back(h);
    xs.push_back(-h);
    xs.push_back(std::nextafter(h, 0.0));
    xs.push_back(std::nextafter(h, 1e9));
    xs.push_back(std::nextafter(-h, 0.0));
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> any(-1e6, 1e6);
  for (int i = 0; i < 10000; ++i) xs.push_back(any(rng));
  for (double x : xs) {
    EXPECT_EQ(pts_internal::RoundHalfAwayFromZero(x), std::llround(x)) << x;
  }
}

TEST(PodTopologySpreadScoreTest, ScoreWithoutPreScoreIsError) {
  ClusterState cs;
  pts_test::AddNodes(cs, HostNodes({"node-a"}));
  const auto pod = pts_test::MakePod(cs, PodSpec{"foo", {{1, kHost, "foo", false}}});
  const PodTopologySpread pl{PodTopologySpreadArgs{}};
  CycleState state(1);
  int64_t score = 0;
  EXPECT_EQ(pl.Score(state, *pod, *cs.FindNode("node-a"), &score).code(), Code::kError);
  // ScoreAll declines, writing nothing: the caller's per-node Score reports.
  const std::vector<const NodeInfo*> nodes = {cs.FindNode("node-a")};
  std::vector<int64_t> column = {-1};
  EXPECT_FALSE(pl.ScoreAll(state, *pod, nodes, std::vector<char>{1}, column));
  EXPECT_EQ(column[0], -1);
}

}  // namespace
}  // namespace pod_topology_spread_scoring_test
}  // namespace sched
