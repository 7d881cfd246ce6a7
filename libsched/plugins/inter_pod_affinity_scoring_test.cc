// InterPodAffinity PreScore / Score / NormalizeScore, with the cases of
// upstream's interpodaffinity/scoring_test.go rewritten as tables.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/testing/inter_pod_affinity_test_util.h"
#include "libsched/testing/run_score.h"

namespace sched {
namespace inter_pod_affinity_scoring_test {
namespace {

using namespace ipa_testing;  // NOLINT: test vocabulary
using testing::PodTerm;
using testing::Selector;

const Labels kChina = {{"region", "China"}};
const Labels kIndia = {{"region", "India"}};
const Labels kAz1 = {{"az", "az1"}};
const Labels kAz2 = {{"az", "az2"}};
const Labels kChinaAz1 = {{"region", "China"}, {"az", "az1"}};
const Labels kS1 = {{"security", "S1"}};
const Labels kS2 = {{"security", "S2"}};

const std::vector<std::pair<std::string, Labels>> kNamespaces = {
    {"subteam1.team1", {{"team", "team1"}}},
    {"subteam2.team1", {{"team", "team1"}}},
    {"subteam1.team2", {{"team", "team2"}}},
    {"subteam2.team2", {{"team", "team2"}}},
};

// The affinities of upstream's TestPreferredAffinity, applied to a builder.
using Affinity = std::function<void(Interner&, testing::PodBuilder&)>;

AffinityTerm Sec(Interner& in, const std::string& topology, const std::string& value) {
  return PodTerm(in, topology, {In(in, "security", {value})});
}
const Affinity kNone = [](Interner&, testing::PodBuilder&) {};
const Affinity kStayWithS1InRegion = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAffinity(5, Sec(in, "region", "S1"));
};
const Affinity kStayWithS2InRegion = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAffinity(6, Sec(in, "region", "S2"));
};
const Affinity kAffinity3 = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAffinity(8, PodTerm(in, "region", {NotIn(in, "security", {"S1"}),
                                                   In(in, "security", {"S2"})}));
  b.PreferredPodAffinity(2, PodTerm(in, "region", {Exists(in, "security"),
                                                   DoesNotExist(in, "wrongkey")}));
};
const Affinity kHardAffinity = [](Interner& in, testing::PodBuilder& b) {
  b.RequiredPodAffinity(PodTerm(in, "region", {In(in, "security", {"S1", "value2"})}));
  b.RequiredPodAffinity(PodTerm(in, "region", {Exists(in, "security"),
                                               DoesNotExist(in, "wrongkey")}));
};
const Affinity kAwayFromS1InAz = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAntiAffinity(5, Sec(in, "az", "S1"));
};
const Affinity kAwayFromS2InAz = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAntiAffinity(5, Sec(in, "az", "S2"));
};
const Affinity kStayWithS1AwayFromS2 = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAffinity(8, Sec(in, "region", "S1"));
  b.PreferredPodAntiAffinity(5, Sec(in, "az", "S2"));
};
AffinityTerm NsSelectorTerm(Interner& in) {
  AffinityTerm t = PodTerm(in, "region", {In(in, "security", {"S1"})}, {"subteam2.team2"});
  t.namespace_selector = Selector({In(in, "team", {"team1"})});
  return t;
}
const Affinity kAffinityNsSelector = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAffinity(5, NsSelectorTerm(in));
};
const Affinity kAntiAffinityNsSelector = [](Interner& in, testing::PodBuilder& b) {
  b.PreferredPodAntiAffinity(5, NsSelectorTerm(in));
};

struct PodSpec {
  std::string node;  // empty for the incoming pod
  Labels labels;
  Affinity affinity = kNone;
  std::string ns = "default";
};

struct ScoreCase {
  std::string name;
  PodSpec pod;
  std::vector<PodSpec> pods;
  std::vector<NodeSpec> nodes;
  std::vector<int64_t> want;  // normalized, per node
  Code want_pre_score = Code::kSuccess;
  InterPodAffinityArgs args = {};
};

void RunScoreCase(const ScoreCase& c) {
  SCOPED_TRACE(c.name);
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, c.nodes);
  for (const auto& [name, labels] : kNamespaces) AddNamespace(cs, name, labels);
  auto build = [&](const PodSpec& s, const std::string& name) {
    testing::PodBuilder b = MakePod(in, name, s.labels, s.ns);
    if (!s.node.empty()) b.NodeName(s.node);
    s.affinity(in, b);
    return b.Build();
  };
  for (size_t i = 0; i < c.pods.size(); ++i) {
    cs.UpsertPod(build(c.pods[i], "existing-" + std::to_string(i)));
  }
  const PodPtr pod = build(c.pod, "incoming");
  std::vector<const NodeInfo*> nodes;
  for (const NodeSpec& n : c.nodes) nodes.push_back(cs.FindNode(n.name));

  InterPodAffinity pl(c.args);
  CycleState state(1);
  const Status pre = pl.PreScore(state, *pod, nodes, cs);
  ASSERT_EQ(pre.code(), c.want_pre_score) << pre.Message();
  if (!pre.IsSuccess()) return;
  std::vector<int64_t> scores;
  ASSERT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, nodes, &scores).IsSuccess());
  EXPECT_EQ(scores, c.want);
}

// TestPreferredAffinity.
TEST(InterPodAffinityScoreTest, PreferredAffinity) {
  const std::vector<NodeSpec> china_india_az1 = {
      {"node1", kChina}, {"node2", kIndia}, {"node3", kAz1}};
  const std::vector<NodeSpec> china_india = {{"node1", kChina}, {"node2", kIndia}};
  std::vector<ScoreCase> cases = {
      {"no affinity anywhere: Skip", {"", kS1}, {}, china_india_az1, {}, Code::kSkip},
      {"affinity: the matching pod's region scores high",
       {"", kS1, kStayWithS1InRegion},
       {{"node1", kS1}, {"node2", kS2}, {"node3", kS1}},
       china_india_az1,
       {100, 0, 0}},
      {"affinity: every node of the matching region scores the same",
       {"", {}, kStayWithS1InRegion},
       {{"node1", kS1}},
       {{"node1", kChina}, {"node2", kChinaAz1}, {"node3", kIndia}},
       {100, 100, 0}},
      {"affinity: the region with more matching pods wins",
       {"", kS1, kStayWithS2InRegion},
       {{"node1", kS2}, {"node1", kS2}, {"node2", kS2}, {"node3", kS2}, {"node4", kS2},
        {"node5", kS2}},
       {{"node1", kChina}, {"node2", kIndia}, {"node3", kChina}, {"node4", kChina},
        {"node5", kIndia}},
       {100, 0, 100, 100, 0}},
      {"affinity: several operators, some terms fail",
       {"", kS1, kAffinity3},
       {{"node1", kS1}, {"node2", kS2}, {"node3", kS1}},
       china_india_az1,
       {20, 100, 0}},
      {"symmetry: existing pods' preferred affinity",
       {"", kS2},
       {{"node1", kS1, kStayWithS1InRegion}, {"node2", kS2, kStayWithS2InRegion}},
       china_india_az1,
       {0, 100, 0}},
      {"symmetry with a namespaceSelector",
       {"", kS1, kNone, "subteam1.team1"},
       {{"node1", kS1, kAffinityNsSelector}, {"node2", kS2, kStayWithS2InRegion}},
       china_india_az1,
       {100, 0, 0}},
      {"anti-affinity symmetry with a namespaceSelector",
       {"", kS1, kNone, "subteam1.team1"},
       {{"node1", kS1, kAntiAffinityNsSelector}, {"node2", kS2, kStayWithS2InRegion}},
       china_india_az1,
       {0, 100, 100}},
      {"symmetry: existing pods' required affinity (hardPodAffinityWeight)",
       {"", kS1},
       {{"node1", kS1, kHardAffinity}, {"node2", kS2, kHardAffinity}},
       china_india_az1,
       {100, 100, 0}},
      {"anti-affinity: the node without matching pods scores high",
       {"", kS1, kAwayFromS1InAz},
       {{"node1", kS1}, {"node2", kS2}},
       {{"node1", kAz1}, {"node2", kChina}},
       {0, 100}},
      {"anti-affinity: a node without the topology key scores high",
       {"", kS1, kAwayFromS1InAz},
       {{"node1", kS1}, {"node2", kS1}},
       {{"node1", kAz1}, {"node2", kChina}},
       {0, 100}},
      {"anti-affinity symmetry",
       {"", kS2},
       {{"node1", kS1, kAwayFromS2InAz}, {"node2", kS2, kAwayFromS1InAz}},
       {{"node1", kAz1}, {"node2", kAz2}},
       {0, 100}},
      {"affinity and anti-affinity",
       {"", kS1, kStayWithS1AwayFromS2},
       {{"node1", kS1}, {"node2", kS1}},
       {{"node1", kChina}, {"node2", kAz1}},
       {100, 0}},
      {"affinity and anti-affinity with pods of the same labels",
       {"", kS1, kStayWithS1AwayFromS2},
       {{"node1", kS1}, {"node1", kS1}, {"node2", kS1}, {"node3", kS1}, {"node3", kS1},
        {"node4", kS1}, {"node5", kS1}},
       {{"node1", kChinaAz1}, {"node2", kIndia}, {"node3", kChina}, {"node4", kChina},
        {"node5", kIndia}},
       {100, 0, 100, 100, 0}},
      {"affinity, anti-affinity and symmetry together",
       {"", kS1, kStayWithS1AwayFromS2},
       {{"node1", kS1}, {"node2", kS2}, {"node3", {}, kStayWithS1AwayFromS2},
        {"node4", {}, kAwayFromS1InAz}},
       {{"node1", kChina}, {"node2", kAz1}, {"node3", kIndia}, {"node4", kAz2}},
       {100, 0, 100, 0}},
      {"nodes of a topology without pods with affinity (issue 82796)",
       {"", kS1},
       {{"node1", kS1}, {"node2", {}, kStayWithS1AwayFromS2}},
       {{"node1", kChina}, {"node2", kChina}},
       {0, 0}},
      {"affinity with pods matching the namespaceSelector",
       {"", kS1, kAffinityNsSelector, "subteam1.team1"},
       {{"node1", kS1, kNone, "subteam1.team1"}, {"node1", kS1, kNone, "subteam1.team1"},
        {"node1", kS1, kNone, "subteam1.team2"}, {"node2", kS1, kNone, "subteam2.team1"}},
       china_india,
       {100, 0}},
      {"affinity with pods matching the namespaceSelector and namespaces",
       {"", kS1, kAffinityNsSelector, "subteam1.team1"},
       {{"node1", kS1, kNone, "subteam1.team1"}, {"node1", kS1, kNone, "subteam1.team1"},
        {"node1", kS1, kNone, "subteam2.team2"}, {"node2", kS1, kNone, "subteam2.team1"}},
       china_india,
       {100, 0}},
      {"anti-affinity with pods matching the namespaceSelector",
       {"", kS1, kAntiAffinityNsSelector, "subteam1.team1"},
       {{"node1", kS1, kNone, "subteam1.team1"}, {"node1", kS1, kNone, "subteam1.team1"},
        {"node1", kS1, kNone, "subteam1.team2"}, {"node2", kS1, kNone, "subteam2.team1"}},
       china_india,
       {0, 100}},
      {"ignore preferred terms of existing pods",
       {"", kS2},
       {{"node1", kS1, kStayWithS1AwayFromS2}, {"node2", kS2, kStayWithS2InRegion}},
       china_india,
       {},
       Code::kSkip,
       {1, true}},
      {"do not ignore preferred terms of existing pods",
       {"", kS2},
       {{"node1", kS1, kStayWithS1AwayFromS2}, {"node2", kS2, kStayWithS2InRegion}},
       china_india,
       {0, 100}},
      {"no nodes to score", {"", kS2}, {}, {}, {}, Code::kSkip},
  };
  for (const auto& c : cases) RunScoreCase(c);
}

// TestPreferredAffinityWithHardPodAffinitySymmetricWeight.
TEST(InterPodAffinityScoreTest, HardPodAffinityWeight) {
  const Labels kServiceS1 = {{"service", "S1"}};
  const Affinity kHard = [](Interner& in, testing::PodBuilder& b) {
    AffinityTerm t = PodTerm(in, "region", {In(in, "service", {"S1"})},
                             {"default", "subteam2.team2"});
    t.namespace_selector = Selector({In(in, "team", {"team1"})});
    b.RequiredPodAffinity(std::move(t));
  };
  const std::vector<NodeSpec> nodes = {{"node1", kChina}, {"node2", kIndia}, {"node3", kAz1}};
  const std::vector<PodSpec> pods = {{"node1", {}, kHard}, {"node2", {}, kHard}};
  std::vector<ScoreCase> cases = {
      {"with default weight", {"", kServiceS1}, pods, nodes, {100, 100, 0}},
      {"with zero weight", {"", kServiceS1}, pods, nodes, {}, Code::kSkip, {0, false}},
      {"with no matching namespace", {"", kServiceS1, kNone, "subteam1.team2"}, pods, nodes, {},
       Code::kSkip},
      {"with matching namespaceSelector", {"", kServiceS1, kNone, "subteam1.team1"}, pods, nodes,
       {100, 100, 0}},
      {"with matching namespaces", {"", kServiceS1, kNone, "subteam2.team2"}, pods, nodes,
       {100, 100, 0}},
  };
  for (const auto& c : cases) RunScoreCase(c);
}

// PreScore over `nodes`, then the raw Score of each.
void PreScoreAndScore(const InterPodAffinity& pl, CycleState& state, const Pod& pod,
                      std::span<const NodeInfo* const> nodes, const ClusterState& cs,
                      std::vector<int64_t>* raw) {
  ASSERT_TRUE(pl.PreScore(state, pod, nodes, cs).IsSuccess());
  for (const NodeInfo* n : nodes) {
    int64_t v = 0;
    ASSERT_TRUE(pl.Score(state, pod, *n, &v).IsSuccess());
    raw->push_back(v);
  }
}

// The raw sums, before normalization: weights add per topology pair, and
// the hard weight multiplies.
TEST(InterPodAffinityScoreTest, RawScoresAndNormalization) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, {{"n1", kChina}, {"n2", kIndia}, {"n3", kAz1}});
  cs.UpsertPod(MakePod(in, "e1", kS1).NodeName("n1").Build());
  cs.UpsertPod(MakePod(in, "e2", kS2).NodeName("n2").Build());
  cs.UpsertPod(MakePod(in, "e3", kS2)
                   .NodeName("n2")
                   .RequiredPodAffinity(PodTerm(in, "region", {In(in, "security", {"S1"})}))
                   .Build());
  const PodPtr pod = MakePod(in, "p", kS1)
                         .PreferredPodAffinity(5, Sec(in, "region", "S1"))
                         .PreferredPodAntiAffinity(7, Sec(in, "region", "S2"))
                         .Build();
  std::vector<const NodeInfo*> nodes = {cs.FindNode("n1"), cs.FindNode("n2"), cs.FindNode("n3")};
  InterPodAffinity pl({/*hard_pod_affinity_weight=*/3, false});
  CycleState state(1);
  std::vector<int64_t> raw;
  ASSERT_NO_FATAL_FAILURE(PreScoreAndScore(pl, state, *pod, nodes, cs, &raw));
  // n1: +5 (e1 matches the preferred affinity); n2: -7 -7 (e2, e3 match the
  // anti-affinity) +3 (e3's required affinity matches P); n3: no region.
  EXPECT_EQ(raw, (std::vector<int64_t>{5, -11, 0}));
  ASSERT_TRUE(pl.NormalizeScore(state, *pod, raw).IsSuccess());
  // 100 * (s - min) / (max - min), truncated: 100, 0, int64(68.75).
  EXPECT_EQ(raw, (std::vector<int64_t>{100, 0, 68}));

  std::vector<int64_t> equal = {-4, -4};
  ASSERT_TRUE(pl.NormalizeScore(state, *pod, equal).IsSuccess());
  EXPECT_EQ(equal, (std::vector<int64_t>{0, 0}));
}

// Existing pods' terms are summed per domain in PreScore when their key
// has domains of several nodes and they are held in no more domains than
// there are nodes to score, else read per node in Score: every prefix of
// the nodes, scored alone, gets the same raw sums as the whole list,
// whichever way each term went (a region term goes both ways here).
TEST(InterPodAffinityScoreTest, ExistingTermsSummedOrReadPerNode) {
  const Affinity kNearS1ByHost = [](Interner& in, testing::PodBuilder& b) {
    b.PreferredPodAffinity(5, Sec(in, "host", "S1"));
  };
  const Affinity kAwayFromS1InRegion = [](Interner& in, testing::PodBuilder& b) {
    b.PreferredPodAntiAffinity(7, Sec(in, "region", "S1"));
  };
  const Affinity kHardS1ByHost = [](Interner& in, testing::PodBuilder& b) {
    b.RequiredPodAffinity(Sec(in, "host", "S1"));
  };
  const auto host = [](const std::string& h, const std::string& region) {
    return NodeSpec{h, {{"host", h}, {"region", region}}};
  };
  struct Case {
    std::string name;
    std::vector<NodeSpec> nodes;
    std::vector<PodSpec> pods;
    std::vector<int64_t> want;  // raw, per node
  };
  const std::vector<Case> cases = {
      {"a term per host on three hosts, one per region, a required one",
       {host("n1", "China"), host("n2", "China"), host("n3", "India"), host("n4", "India"),
        {"n5", {{"region", "India"}}}},
       {{"n1", {}, kNearS1ByHost},
        {"n2", {}, kNearS1ByHost},
        {"n3", {}, kNearS1ByHost},
        {"n3", {}, kAwayFromS1InRegion},
        {"n4", {}, kHardS1ByHost}},
       {5, 5, -2, -6, -7}},
      {"pods holding a term twice on a host, a region held in both",
       {host("n1", "China"), host("n2", "India"), host("n3", "India"), host("n4", "Chile")},
       {{"n1", {}, kNearS1ByHost},
        {"n2", {}, kNearS1ByHost},
        {"n2", {}, kNearS1ByHost},
        {"n4", {}, kNearS1ByHost},
        {"n1", {}, kAwayFromS1InRegion},
        {"n3", {}, kAwayFromS1InRegion},
        {"n3", {}, kAwayFromS1InRegion}},
       {-2, -4, -14, 5}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cs;
    Interner& in = cs.interner();
    AddNodes(cs, c.nodes);
    for (size_t i = 0; i < c.pods.size(); ++i) {
      testing::PodBuilder b = MakePod(in, "e" + std::to_string(i), c.pods[i].labels);
      c.pods[i].affinity(in, b.NodeName(c.pods[i].node));
      cs.UpsertPod(b.Build());
    }
    const PodPtr pod = MakePod(in, "p", kS1).Build();
    std::vector<const NodeInfo*> all;
    for (const NodeSpec& n : c.nodes) all.push_back(cs.FindNode(n.name));
    InterPodAffinity pl;
    for (size_t scored = 1; scored <= all.size(); ++scored) {
      SCOPED_TRACE("nodes scored: " + std::to_string(scored));
      const std::span<const NodeInfo* const> nodes(all.data(), scored);
      CycleState state(1);
      std::vector<int64_t> raw;
      ASSERT_NO_FATAL_FAILURE(PreScoreAndScore(pl, state, *pod, nodes, cs, &raw));
      EXPECT_EQ(raw, std::vector<int64_t>(c.want.begin(), c.want.begin() + scored));
    }
  }
}

TEST(InterPodAffinityScoreTest, MissingStateIsAnError) {
  ClusterState cs;
  AddNodes(cs, {{"n", {}}});
  const PodPtr pod = MakePod(cs.interner(), "p", {}).Build();
  InterPodAffinity pl;
  CycleState state(1);
  int64_t s = 0;
  EXPECT_EQ(pl.Score(state, *pod, *cs.FindNode("n"), &s).code(), Code::kError);
}

}  // namespace
}  // namespace inter_pod_affinity_scoring_test
}  // namespace sched
