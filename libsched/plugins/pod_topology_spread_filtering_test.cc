// PodTopologySpread PreFilter / Filter / AddPod / RemovePod, with cases
// from upstream's podtopologyspread/filtering_test.go (TestSingleConstraint,
// TestMultipleConstraints, TestPreFilterStateAddPod / RemovePod).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/testing/pod_topology_spread_test_util.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/filter_cache_key.h"

namespace sched {
namespace pod_topology_spread_filtering_test {
namespace {

using pts_test::C;
using pts_test::N;
using pts_test::P;
using pts_test::PodSpec;

constexpr Code S = Code::kSuccess;
constexpr Code U = Code::kUnschedulable;
constexpr Code UU = Code::kUnschedulableAndUnresolvable;
constexpr NodeInclusionPolicy kHonor = NodeInclusionPolicy::kHonor;
constexpr NodeInclusionPolicy kIgnore = NodeInclusionPolicy::kIgnore;

const std::vector<N> kFourNodes = {{"node-a", "zone=zone1,node=node-a"},
                                   {"node-b", "zone=zone1,node=node-b"},
                                   {"node-x", "zone=zone2,node=node-x"},
                                   {"node-y", "zone=zone2,node=node-y"}};
// 2/1/0/3 on node-a/b/x/y.
const std::vector<P> kPods2103 = {{"p-a1", "node-a", "foo"}, {"p-a2", "node-a", "foo"},
                                  {"p-b1", "node-b", "foo"}, {"p-y1", "node-y", "foo"},
                                  {"p-y2", "node-y", "foo"}, {"p-y3", "node-y", "foo"}};
// Nodes without a zone, node-y not matching nodeSelector foo.
const std::vector<N> kFooNodes = {{"node-a", "node=node-a,foo"},
                                  {"node-b", "node=node-b,foo"},
                                  {"node-x", "node=node-x,foo"},
                                  {"node-y", "node=node-y"}};
const std::vector<P> kPodsAby = {
    {"p-b1", "node-a", "foo"}, {"p-b2", "node-b", "foo"}, {"p-y1", "node-y", "foo"}};

struct FilterCase {
  std::string name;
  PodSpec pod;
  std::vector<N> nodes;
  std::vector<P> pods;
  std::map<std::string, Code> want;
};

// Runs PreFilter then Filter on every node; Skip counts as Success.
std::map<std::string, Code> RunFilter(const PodTopologySpread& pl, const Pod& pod,
                                      const ClusterState& cs, CycleState& state) {
  std::map<std::string, Code> got;
  PreFilterResult result;
  const Status pre = pl.PreFilter(state, pod, cs, &result);
  EXPECT_TRUE(pre.IsSuccess() || pre.IsSkip()) << pre.Message();
  for (const NodeInfo* ni : cs.NodeList()) {
    got[ni->node()->name] = pre.IsSkip() ? S : pl.Filter(state, pod, *ni).code();
  }
  return got;
}

void RunCases(const std::vector<FilterCase>& cases) {
  const PodTopologySpread pl{PodTopologySpreadArgs{}};
  for (const FilterCase& tc : cases) {
    SCOPED_TRACE(tc.name);
    ClusterState cs;
    pts_test::AddNodes(cs, tc.nodes);
    pts_test::AddPods(cs, tc.pods);
    const auto pod = pts_test::MakePod(cs, tc.pod);
    CycleState state(1);
    EXPECT_EQ(RunFilter(pl, *pod, cs, state), tc.want);
  }
}

TEST(PodTopologySpreadFilterTest, SingleConstraint) {
  const auto node_selector_foo = [](Interner&, testing::PodBuilder& b) {
    b.NodeSelector("foo", "");
  };
  const auto affinity_foo = [](Interner& in, testing::PodBuilder& b) {
    b.RequiredTerm(testing::Term({testing::Req(in, "foo", SelectorOp::kIn, {""})}));
  };
  RunCases({
      {"no existing pods",
       {"foo", {{1, "zone", "foo"}}},
       kFourNodes,
       {},
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
      {"no existing pods, incoming pod doesn't match itself",
       {"foo", {{1, "zone", "bar"}}},
       kFourNodes,
       {},
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
      {"existing pods in a different namespace do not count",
       {"foo", {{1, "zone", "foo"}}},
       kFourNodes,
       {{"p-a1", "node-a", "foo", "ns1"},
        {"p-b1", "node-a", "foo", "ns2"},
        {"p-x1", "node-x", "foo"},
        {"p-y1", "node-y", "foo"}},
       {{"node-a", S}, {"node-b", S}, {"node-x", U}, {"node-y", U}}},
      {"existing pods do not match null selector",
       {"foo", {{1, "zone", ""}}},
       kFourNodes,
       {{"p-x1", "node-x", "foo"}, {"p-y1", "node-y", "foo"}},
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
      {"an empty selector matches the pod itself but counts no pods",
       {"foo", {{1, "node", "{}"}}},
       kFourNodes,
       kPods2103,
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
      {"pods spread across zones as 3/3, all nodes fit",
       {"foo", {{1, "zone", "foo"}}},
       kFourNodes,
       kPods2103,
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
      {"pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
       {"foo", {{1, "zone", "foo"}}},
       {{"node-a", "zone=zone1,node=node-a"},
        {"node-b", "zon=zone1,node=node-b"},
        {"node-x", "zone=zone2,node=node-x"},
        {"node-y", "zone=zone2,node=node-y"}},
       {{"p-a1", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-x1", "node-x", "foo"},
        {"p-y1", "node-y", "foo"}},
       {{"node-a", S}, {"node-b", UU}, {"node-x", U}, {"node-y", U}}},
      {"pod cannot be scheduled as all nodes don't have label 'rack'",
       {"foo", {{1, "rack", "foo"}}},
       {{"node-a", "zone=zone1,node=node-a"}, {"node-x", "zone=zone2,node=node-x"}},
       {},
       {{"node-a", UU}, {"node-x", UU}}},
      {"pods spread across nodes as 2/1/0/3, only node-x fits",
       {"foo", {{1, "node", "foo"}}},
       kFourNodes,
       kPods2103,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", U}}},
      {"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit",
       {"foo", {{2, "node", "foo"}}},
       kFourNodes,
       kPods2103,
       {{"node-a", U}, {"node-b", S}, {"node-x", S}, {"node-y", U}}},
      {"pods spread across nodes as 2/1/0/3, but pod doesn't match itself",
       {"bar", {{1, "node", "foo"}}},
       kFourNodes,
       kPods2103,
       {{"node-a", U}, {"node-b", S}, {"node-x", S}, {"node-y", U}}},
      {"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits",
       {"foo",
        {{1, "node", "foo"}},
        [](Interner& in, testing::PodBuilder& b) {
          b.RequiredTerm(
              testing::Term({testing::Req(in, "node", SelectorOp::kIn, {"node-a", "node-y"})}));
        }},
       kFourNodes,
       kPods2103,
       // node-b and node-x pass here; NodeAffinity's Filter rejects them.
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", U}}},
      {"terminating Pods should be excluded",
       {"foo", {{1, "node", "foo"}}},
       {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}},
       {{"p-a", "node-a", "foo", "default", true}, {"p-b", "node-b", "foo"}},
       {{"node-a", S}, {"node-b", U}}},
      {"incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits",
       {"foo",
        {{1, "zone", "foo"}},
        [](Interner& in, testing::PodBuilder& b) {
          b.RequiredTerm(
              testing::Term({testing::Req(in, "node", SelectorOp::kNotIn, {"node-b"})}));
        }},
       kFourNodes,
       {{"p-b1", "node-b", "foo"}, {"p-b2", "node-b", "foo"}, {"p-y1", "node-y", "foo"}},
       {{"node-a", S}, {"node-b", S}, {"node-x", U}, {"node-y", U}}},
      {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < "
       "minDomains, then the third node fits",
       {"foo", {{2, "node", "foo", true, 4}}},
       {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}, {"node-c", "node=node-c"}},
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-b2", "node-b", "foo"},
        {"p-c1", "node-c", "foo"}},
       {{"node-a", U}, {"node-b", U}, {"node-c", S}}},
      {"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > "
       "minDomains, then the all nodes fit",
       {"foo", {{2, "node", "foo", true, 2}}},
       {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}, {"node-c", "node=node-c"}},
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-b2", "node-b", "foo"},
        {"p-c1", "node-c", "foo"}},
       {{"node-a", S}, {"node-b", S}, {"node-c", S}}},
      {"pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, "
       "then the third and fourth nodes fit",
       {"foo", {{2, "zone", "foo", true, 3}}},
       kFourNodes,
       {{"p-b1", "node-a", "foo"}, {"p-b2", "node-b", "foo"}, {"p-y1", "node-y", "foo"}},
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", S}}},
      {"pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, "
       "then the all nodes fit",
       {"foo", {{2, "zone", "foo", true, 1}}},
       kFourNodes,
       {{"p-b1", "node-a", "foo"}, {"p-b2", "node-b", "foo"}, {"p-y1", "node-y", "foo"}},
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
      {"NodeAffinityPolicy honored with labelSelectors",
       {"foo", {{1, "node", "foo"}}, node_selector_foo},
       kFooNodes,
       kPodsAby,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", S}}},
      {"NodeAffinityPolicy ignored with labelSelectors",
       {"foo", {{1, "node", "foo", true, 1, kIgnore}}, node_selector_foo},
       kFooNodes,
       kPodsAby,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", U}}},
      {"NodeAffinityPolicy honored with nodeAffinity",
       {"foo", {{1, "node", "foo"}}, affinity_foo},
       kFooNodes,
       kPodsAby,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", S}}},
      {"NodeAffinityPolicy ignored with nodeAffinity",
       {"foo", {{1, "node", "foo", true, 1, kIgnore}}, affinity_foo},
       kFooNodes,
       kPodsAby,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", U}}},
      {"NodeTaintsPolicy honored",
       {"foo", {{1, "node", "foo", true, 1, kHonor, kHonor}}},
       {{"node-a", "node=node-a,foo"},
        {"node-b", "node=node-b,foo"},
        {"node-x", "node=node-x,foo"},
        {"node-y", "node=node-y", true}},
       kPodsAby,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", S}}},
      {"NodeTaintsPolicy ignored",
       {"foo", {{1, "node", "foo"}}},
       {{"node-a", "node=node-a,foo"},
        {"node-b", "node=node-b,foo"},
        {"node-x", "node=node-x,foo"},
        {"node-y", "node=node-y", true}},
       kPodsAby,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", U}}},
  });
}

TEST(PodTopologySpreadFilterTest, MultipleConstraints) {
  RunCases({
      {"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]",
       {"foo", {{1, "zone", "foo"}, {1, "node", "foo"}}},
       kFourNodes,
       kPods2103,
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", U}}},
      {"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]",
       {"foo", {{1, "zone", "foo"}, {1, "node", "foo"}}},
       kFourNodes,
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo"},
        {"p-b1", "node-b", "foo"},
        {"p-y1", "node-y", "foo"},
        {"p-y2", "node-y", "foo"},
        {"p-y3", "node-y", "foo"},
        {"p-y4", "node-y", "foo"}},
       {{"node-a", U}, {"node-b", U}, {"node-x", U}, {"node-y", U}}},
      {"Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]",
       {"foo,bar", {{1, "zone", "foo"}, {1, "node", "bar"}}},
       kFourNodes,
       {{"p-a1", "node-a", "foo"}, {"p-y1", "node-y", "bar"}},
       {{"node-a", U}, {"node-b", U}, {"node-x", S}, {"node-y", U}}},
      {"Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]",
       {"foo,bar", {{1, "zone", "foo"}, {1, "node", "bar"}}},
       kFourNodes,
       {{"p-a1", "node-a", "foo"}, {"p-x1", "node-x", "bar"}, {"p-y1", "node-y", "bar"}},
       {{"node-a", U}, {"node-b", U}, {"node-x", U}, {"node-y", U}}},
      {"Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]",
       {"foo,bar", {{1, "zone", "foo"}, {1, "node", "bar"}}},
       kFourNodes,
       {{"p-a1", "node-a", "foo"},
        {"p-a2", "node-a", "foo,bar"},
        {"p-y1", "node-y", "foo"},
        {"p-y2", "node-y", "foo,bar"},
        {"p-y3", "node-y", "foo"}},
       {{"node-a", U}, {"node-b", S}, {"node-x", U}, {"node-y", U}}},
      {"Constraints hold different labelSelectors but pod doesn't match itself on 'zone' "
       "constraint",
       {"bar", {{1, "zone", "foo"}, {1, "node", "bar"}}},
       kFourNodes,
       {{"p-a1", "node-a", "foo"}, {"p-x1", "node-x", "bar"}, {"p-y1", "node-y", "bar"}},
       {{"node-a", S}, {"node-b", S}, {"node-x", U}, {"node-y", U}}},
      {"two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, "
       "1/0/0/1]",
       {"foo", {{1, "zone", "foo"}, {1, "node", "foo"}}},
       {{"node-a", "zone=zone1,node=node-a"},
        {"node-b", "zone=zone1,node=node-b"},
        {"node-x", "zone=zone2"},
        {"node-y", "zone=zone2,node=node-y"}},
       {{"p-a1", "node-a", "foo"}, {"p-y3", "node-y", "foo"}},
       {{"node-a", U}, {"node-b", S}, {"node-x", UU}, {"node-y", U}}},
      {"ScheduleAnyway constraints do not filter",
       {"foo", {{1, "node", "foo", false}}},
       kFourNodes,
       kPods2103,
       {{"node-a", S}, {"node-b", S}, {"node-x", S}, {"node-y", S}}},
  });
}

TEST(PodTopologySpreadFilterTest, ReasonsAndSkip) {
  ClusterState cs;
  pts_test::AddNodes(cs, {{"node-a", "node=node-a"}, {"node-b", "zone=z"}});
  pts_test::AddPods(cs, {{"p-a1", "node-a", "foo"}});
  const PodTopologySpread pl{PodTopologySpreadArgs{}};
  CycleState state(1);
  PreFilterResult result;
  const auto pod = pts_test::MakePod(cs, PodSpec{"foo", {{1, "node", "foo"}}});
  ASSERT_TRUE(pl.PreFilter(state, *pod, cs, &result).IsSuccess());
  EXPECT_TRUE(result.all_nodes);
  const Status missing = pl.Filter(state, *pod, *cs.FindNode("node-b"));
  EXPECT_EQ(missing.reasons(),
            std::vector<std::string_view>{
                "node(s) didn't match pod topology spread constraints (missing required label)"});
  // One domain: 1 + 1 - 1 = 1 <= maxSkew.
  EXPECT_TRUE(pl.Filter(state, *pod, *cs.FindNode("node-a")).IsSuccess());

  // Without DoNotSchedule constraints (and with system defaulting, which
  // only adds ScheduleAnyway ones), PreFilter skips.
  CycleState skipped(1);
  const auto soft = pts_test::MakePod(cs, PodSpec{"foo", {{1, "node", "foo", false}}});
  EXPECT_TRUE(pl.PreFilter(skipped, *soft, cs, &result).IsSkip());
  const auto none = pts_test::MakePod(cs, PodSpec{"foo", {}});
  pts_test::AddService(cs, "svc", "foo");
  EXPECT_TRUE(pl.PreFilter(skipped, *none, cs, &result).IsSkip());
  // Filter without PreFilter state is an error, as upstream.
  EXPECT_EQ(pl.Filter(skipped, *pod, *cs.FindNode("node-a")).code(), Code::kError);
}

TEST(PodTopologySpreadFilterTest, SkewReason) {
  ClusterState cs;
  pts_test::AddNodes(cs, {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}});
  pts_test::AddPods(cs, {{"p-a1", "node-a", "foo"}});
  const PodTopologySpread pl{PodTopologySpreadArgs{}};
  CycleState state(1);
  PreFilterResult result;
  const auto pod = pts_test::MakePod(cs, PodSpec{"foo", {{1, "node", "foo"}}});
  ASSERT_TRUE(pl.PreFilter(state, *pod, cs, &result).IsSuccess());
  const Status s = pl.Filter(state, *pod, *cs.FindNode("node-a"));
  EXPECT_EQ(s.code(), Code::kUnschedulable);
  EXPECT_EQ(s.reasons(),
            std::vector<std::string_view>{"node(s) didn't match pod topology spread constraints"});
}

// List defaulting: DoNotSchedule default constraints filter pods without
// their own constraints, with the selector of the Services that select them.
TEST(PodTopologySpreadFilterTest, ListDefaultConstraintsFilter) {
  PodTopologySpreadArgs args;
  args.system_defaulting = false;
  args.default_constraints.push_back({.max_skew = 1, .topology_key = "node", .do_not_schedule = true});
  const PodTopologySpread pl(args);
  ClusterState cs;
  pts_test::AddNodes(cs, {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}});
  pts_test::AddPods(cs, {{"p-a1", "node-a", "app=web"}, {"p-a2", "node-a", "app=db"}});
  const auto pod = pts_test::MakePod(cs, PodSpec{"app=web", {}});
  CycleState no_service(1);
  EXPECT_EQ(RunFilter(pl, *pod, cs, no_service),
            (std::map<std::string, Code>{{"node-a", S}, {"node-b", S}}));  // Skip
  pts_test::AddService(cs, "web", "app=web");
  pts_test::AddService(cs, "other-ns", "app=web", "other");  // another namespace
  pts_test::AddService(cs, "db", "app=db");                  // does not select the pod
  CycleState state(1);
  EXPECT_EQ(RunFilter(pl, *pod, cs, state),
            (std::map<std::string, Code>{{"node-a", U}, {"node-b", S}}));
}

// Upstream's TestPreFilterStateAddPod / RemovePod, seen through Filter: the
// counts and critical paths follow a pod added to or removed from a node.
TEST(PodTopologySpreadFilterTest, AddPodAndRemovePod) {
  ClusterState cs;
  pts_test::AddNodes(cs, kFourNodes);
  // zone1: 1, zone2: 0; node-a 1.
  pts_test::AddPods(cs, {{"p-a1", "node-a", "foo"}});
  const PodTopologySpread pl{PodTopologySpreadArgs{}};
  const auto pod = pts_test::MakePod(cs, PodSpec{"foo", {{1, "zone", "foo"}, {1, "node", "foo"}}});
  CycleState state(1);
  EXPECT_EQ(RunFilter(pl, *pod, cs, state),
            (std::map<std::string, Code>{{"node-a", U}, {"node-b", U}, {"node-x", S},
                                         {"node-y", S}}));
  const NodeInfo& x = *cs.FindNode("node-x");
  const NodeInfo& b = *cs.FindNode("node-b");

  // Adding a matching pod on node-x evens the zones: node-b now fits.
  CycleState added = state.Clone();
  const auto px = pts_test::MakePod(cs, P{"p-x1", "node-x", "foo"});
  ASSERT_TRUE(pl.AddPod(added, *pod, *px, x).IsSuccess());
  EXPECT_TRUE(pl.Filter(added, *pod, b).IsSuccess());
  EXPECT_EQ(pl.Filter(added, *pod, x).code(), U);
  // The original state is untouched (copy-on-write).
  EXPECT_EQ(pl.Filter(state, *pod, b).code(), U);
  EXPECT_TRUE(pl.Filter(state, *pod, x).IsSuccess());

  // A pod of another namespace or not matching the selector changes nothing.
  CycleState other = state.Clone();
  ASSERT_TRUE(
      pl.AddPod(other, *pod, *pts_test::MakePod(cs, P{"q", "node-x", "foo", "ns1"}), x).IsSuccess());
  ASSERT_TRUE(pl.AddPod(other, *pod, *pts_test::MakePod(cs, P{"r", "node-x", "bar"}), x).IsSuccess());
  EXPECT_EQ(pl.Filter(other, *pod, b).code(), U);

  // Removing the pod on node-a (a preemption victim) empties zone1.
  CycleState removed = state.Clone();
  ASSERT_TRUE(pl.RemovePod(removed, *pod, *cs.FindNode("node-a")->pods()[0],
                           *cs.FindNode("node-a"))
                  .IsSuccess());
  EXPECT_TRUE(pl.Filter(removed, *pod, *cs.FindNode("node-a")).IsSuccess());
  EXPECT_TRUE(pl.Filter(removed, *pod, b).IsSuccess());
}

// The counts follow the snapshot's topology domains through node churn:
// a removed node whose pods keep its NodeInfo, a relabelled node, a freed
// NodeInfo index and domain id taken by a new node. The verdicts equal
// those of a cluster built directly in the final shape.
TEST(PodTopologySpreadFilterTest, CountsFollowNodeChurn) {
  const std::vector<P> pods = {
      {"p-a1", "node-a", "foo"}, {"p-x1", "node-x", "foo"}, {"p-x2", "node-x", "foo"}};
  const std::vector<N> final_nodes = {{"node-a", "zone=zone2,node=node-a"},
                                      {"node-b", "zone=zone1,node=node-b"},
                                      {"node-x", "zone=zone3,node=node-x"},
                                      {"node-z", "zone=zone1,node=node-z"}};
  const PodSpec spec{"foo", {{1, "zone", "foo"}}};
  const PodTopologySpread pl{PodTopologySpreadArgs{}};

  ClusterState churned;
  pts_test::AddNodes(churned, kFourNodes);
  pts_test::AddPods(churned, pods);
  ASSERT_TRUE(churned.RemoveNode("node-a"));
  ASSERT_TRUE(churned.RemoveNode("node-y"));
  pts_test::AddNodes(churned, {final_nodes[2], final_nodes[3], final_nodes[0]});
  ClusterState fresh;
  pts_test::AddNodes(fresh, final_nodes);
  pts_test::AddPods(fresh, pods);

  // zone1: 0, zone2: 1, zone3: 2.
  const std::map<std::string, Code> want = {
      {"node-a", U}, {"node-b", S}, {"node-x", U}, {"node-z", S}};
  CycleState s1(1);
  EXPECT_EQ(RunFilter(pl, *pts_test::MakePod(churned, spec), churned, s1), want);
  CycleState s2(1);
  EXPECT_EQ(RunFilter(pl, *pts_test::MakePod(fresh, spec), fresh, s2), want);
}

// The equivalence-cache opt-in (FilterIsNodeLocal, SignPod): the key's
// bytes after PreFilter, and the class signature.
std::string KeyOf(const PodTopologySpread& pl, const Pod& pod, const ClusterState& cs) {
  return testing::FilterKeyOf(pl, pod, cs);
}

std::string SignatureOf(const PodTopologySpread& pl, const Pod& pod) {
  PodSigner sig;
  pl.SignPod(pod, sig);
  return std::string(sig.bytes());
}

// By zone, the key lists the zones where the skew test fails: a matching
// pod that leaves every zone's verdict as it was leaves the key; one that
// takes a zone past minMatchNum + maxSkew - selfMatch moves it.
TEST(PodTopologySpreadCacheKeyTest, ZoneKeyMovesOnlyWhenAZoneVerdictChanges) {
  const PodTopologySpread pl({});
  ClusterState cs;
  pts_test::AddNodes(cs, kFourNodes);
  const auto pod = pts_test::MakePod(cs, PodSpec{"foo", {{1, "zone", "foo"}}});
  const std::string k0 = KeyOf(pl, *pod, cs);  // 0/0: both zones pass
  pts_test::AddPods(cs, {{"p-a1", "node-a", "foo"}});
  const std::string k1 = KeyOf(pl, *pod, cs);  // 1/0: zone1 fails
  EXPECT_NE(k1, k0);
  pts_test::AddPods(cs, {{"p-x1", "node-x", "foo"}});
  EXPECT_EQ(KeyOf(pl, *pod, cs), k0);  // 1/1: both pass again
  pts_test::AddPods(cs, {{"p-b1", "node-b", "bar"}});
  EXPECT_EQ(KeyOf(pl, *pod, cs), k0);  // not matching
  // The same pod but for its labels (selfMatch 0): 2/1 passes for it.
  const auto other = pts_test::MakePod(cs, PodSpec{"bar", {{1, "zone", "foo"}}});
  pts_test::AddPods(cs, {{"p-b2", "node-b", "foo"}});
  EXPECT_NE(KeyOf(pl, *pod, cs), k0);
  EXPECT_EQ(KeyOf(pl, *other, cs), k0);
  EXPECT_EQ(SignatureOf(pl, *pod), SignatureOf(pl, *other));
}

// By hostname (one node per domain) a node's count rides on its generation:
// a matching pod leaves the key unless it moves the minimum; the selector
// is in the key (default constraints take it from the Services, which the
// class signature does not hold).
TEST(PodTopologySpreadCacheKeyTest, HostnameKeyHoldsTheThresholdAndTheSelector) {
  PodTopologySpreadArgs args;
  args.system_defaulting = false;
  args.default_constraints.push_back(
      {.max_skew = 1, .topology_key = "node", .do_not_schedule = true});
  const PodTopologySpread pl(args);
  ClusterState cs;
  pts_test::AddNodes(cs, {{"node-a", "node=node-a"}, {"node-b", "node=node-b"}});
  pts_test::AddService(cs, "web", "app=web");
  const auto pod = pts_test::MakePod(cs, PodSpec{"app=web", {}});
  const std::string k0 = KeyOf(pl, *pod, cs);
  pts_test::AddPods(cs, {{"p-a1", "node-a", "app=web"}});
  EXPECT_EQ(KeyOf(pl, *pod, cs), k0);
  pts_test::AddPods(cs, {{"p-b1", "node-b", "app=web"}});
  EXPECT_NE(KeyOf(pl, *pod, cs), k0);  // the minimum moved
  // Matching no pod, a selector with app=web and version=v2 has k0's
  // threshold: only the selector tells the keys apart.
  pts_test::AddService(cs, "web-v2", "version=v2");
  const auto v2 = pts_test::MakePod(cs, PodSpec{"app=web,version=v2", {}});
  EXPECT_NE(KeyOf(pl, *v2, cs), k0);
}

// The class signature holds what the inclusion policies read of the pod,
// where they honor it: a nodeSelector (nodeAffinityPolicy Honor, the
// default) and tolerations (nodeTaintsPolicy Honor).
TEST(PodTopologySpreadCacheKeyTest, SignPodFeedsWhatThePoliciesRead) {
  const PodTopologySpread pl({});
  ClusterState cs;
  auto with = [&](NodeInclusionPolicy affinity, NodeInclusionPolicy taints, bool extra) {
    PodSpec spec{"foo", {{1, "zone", "foo", true, 1, affinity, taints}}};
    if (extra) {
      spec.extra = [](Interner&, testing::PodBuilder& b) {
        b.NodeSelector("disk", "ssd")
            .Toleration("t", TolerationOp::kExists, "", TaintEffect::kNoSchedule);
      };
    }
    return SignatureOf(pl, *pts_test::MakePod(cs, spec));
  };
  EXPECT_EQ(with(kIgnore, kIgnore, false), with(kIgnore, kIgnore, true));
  EXPECT_NE(with(kHonor, kIgnore, false), with(kHonor, kIgnore, true));
  EXPECT_NE(with(kIgnore, kHonor, false), with(kIgnore, kHonor, true));
}

}  // namespace
}  // namespace pod_topology_spread_filtering_test
}  // namespace sched
