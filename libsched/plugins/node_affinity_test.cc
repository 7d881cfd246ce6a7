#include "libsched/plugins/node_affinity.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/testing/builders.h"
#include "libsched/testing/run_score.h"

namespace sched {
namespace node_affinity_test {
namespace {

using testing::FieldTerm;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::Req;
using testing::Term;
using Labels = std::vector<std::pair<std::string, std::string>>;

constexpr SelectorOp kIn = SelectorOp::kIn;
constexpr SelectorOp kNotIn = SelectorOp::kNotIn;
constexpr SelectorOp kExists = SelectorOp::kExists;
constexpr SelectorOp kGt = SelectorOp::kGt;

std::unique_ptr<NodeInfo> MakeNode(Interner& in, const std::string& name, const Labels& labels) {
  NodeBuilder b(in, name);
  for (const auto& [k, v] : labels) b.Label(k, v);
  auto ni = std::make_unique<NodeInfo>();
  ni->SetNode(b.Build(), 1);
  return ni;
}

// Upstream's TestNodeAffinity, without the addedAffinity cases (below).
TEST(NodeAffinityTest, PreFilterAndFilter) {
  struct Case {
    std::string name;
    std::function<void(Interner&, PodBuilder&)> pod;
    Labels labels;
    std::string node_name;
    bool want_fit = true;
    Code want_pre_filter = Code::kSuccess;
    // PreFilterResult.NodeNames; nullopt for all nodes.
    std::optional<std::vector<std::string>> want_node_names = std::nullopt;
  };
  std::vector<Case> cases = {
      {"missing labels", [](Interner&, PodBuilder& p) { p.NodeSelector("foo", "bar"); }, {}, "",
       false},
      {"same labels", [](Interner&, PodBuilder& p) { p.NodeSelector("foo", "bar"); },
       {{"foo", "bar"}}, "", true},
      {"node labels are superset", [](Interner&, PodBuilder& p) { p.NodeSelector("foo", "bar"); },
       {{"foo", "bar"}, {"baz", "blah"}}, "", true},
      {"node labels are subset",
       [](Interner&, PodBuilder& p) { p.NodeSelector("foo", "bar").NodeSelector("baz", "blah"); },
       {{"foo", "bar"}}, "", false},
      {"matchExpressions In matches",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(Term({Req(in, "foo", kIn, {"bar", "value2"})}));
       },
       {{"foo", "bar"}}, "", true},
      {"matchExpressions Gt matches",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(Term({Req(in, "kernel-version", kGt, {"0204"})}));
       },
       {{"kernel-version", "0206"}}, "", true},
      {"matchExpressions NotIn matches",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(Term({Req(in, "mem-type", kNotIn, {"DDR", "DDR2"})}));
       },
       {{"mem-type", "DDR3"}}, "", true},
      {"matchExpressions Exists matches",
       [](Interner& in, PodBuilder& p) { p.RequiredTerm(Term({Req(in, "GPU", kExists)})); },
       {{"GPU", "NVIDIA-GRID-K1"}}, "", true},
      {"affinity does not match the node's labels",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(Term({Req(in, "foo", kIn, {"value1", "value2"})}));
       },
       {{"foo", "bar"}}, "", false},
      {"empty MatchExpressions match no objects",
       [](Interner&, PodBuilder& p) { p.RequiredTerm(Term({})); }, {{"foo", "bar"}}, "", false},
      {"no affinity", [](Interner&, PodBuilder&) {}, {{"foo", "bar"}}, "", true, Code::kSkip},
      {"multiple matchExpressions ANDed, match",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(
             Term({Req(in, "GPU", kExists), Req(in, "GPU", kNotIn, {"AMD", "INTER"})}));
       },
       {{"GPU", "NVIDIA-GRID-K1"}}, "", true},
      {"multiple matchExpressions ANDed, no match",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(Term({Req(in, "GPU", kExists), Req(in, "GPU", kIn, {"AMD", "INTER"})}));
       },
       {{"GPU", "NVIDIA-GRID-K1"}}, "", false},
      {"multiple terms ORed",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(Term({Req(in, "foo", kIn, {"bar", "value2"})}))
             .RequiredTerm(Term({Req(in, "diffkey", kIn, {"wrong", "value2"})}));
       },
       {{"foo", "bar"}}, "", true},
      {"affinity and nodeSelector both satisfied",
       [](Interner& in, PodBuilder& p) {
         p.NodeSelector("foo", "bar").RequiredTerm(Term({Req(in, "foo", kExists)}));
       },
       {{"foo", "bar"}}, "", true},
      {"affinity matches but nodeSelector does not",
       [](Interner& in, PodBuilder& p) {
         p.NodeSelector("foo", "bar").RequiredTerm(Term({Req(in, "foo", kExists)}));
       },
       {{"foo", "barrrrrr"}}, "", false},
      {"invalid value in an affinity term",
       [](Interner& in, PodBuilder& p) {
         auto t = Term({Req(in, "foo", kNotIn, {"invalid value: ___@#$%^"})});
         t.valid = false;  // not a valid label value
         p.RequiredTerm(std::move(t));
       },
       {{"foo", "bar"}}, "", false},
      {"matchFields In matches",
       [](Interner& in, PodBuilder& p) { p.RequiredTerm(FieldTerm(in, kIn, {"node1"})); }, {},
       "node1", true, Code::kSuccess, std::vector<std::string>{"node1"}},
      {"matchFields In does not match",
       [](Interner& in, PodBuilder& p) { p.RequiredTerm(FieldTerm(in, kIn, {"node1"})); }, {},
       "node2", false, Code::kSuccess, std::vector<std::string>{"node1"}},
      {"two terms: matchFields fails, matchExpressions matches",
       [](Interner& in, PodBuilder& p) {
         auto t = FieldTerm(in, kIn, {"node1"});
         t.match_fields.push_back(Req(in, "metadata.name", kIn, {"node2"}));
         p.RequiredTerm(std::move(t)).RequiredTerm(Term({Req(in, "foo", kIn, {"bar"})}));
       },
       {{"foo", "bar"}}, "node2", true},
      {"one term: matchFields fails, matchExpressions matches",
       [](Interner& in, PodBuilder& p) {
         auto t = FieldTerm(in, kIn, {"node1"});
         t.match_expressions.push_back(Req(in, "foo", kIn, {"bar"}));
         p.RequiredTerm(std::move(t));
       },
       {{"foo", "bar"}}, "node2", false, Code::kSuccess, std::vector<std::string>{"node1"}},
      {"one term: both matchFields and matchExpressions match",
       [](Interner& in, PodBuilder& p) {
         auto t = FieldTerm(in, kIn, {"node1"});
         t.match_expressions.push_back(Req(in, "foo", kIn, {"bar"}));
         p.RequiredTerm(std::move(t));
       },
       {{"foo", "bar"}}, "node1", true, Code::kSuccess, std::vector<std::string>{"node1"}},
      {"two terms: neither matches",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(FieldTerm(in, kIn, {"node1"}))
             .RequiredTerm(Term({Req(in, "foo", kIn, {"not-match-to-bar"})}));
       },
       {{"foo", "bar"}}, "node2", false},
      {"two terms of node name affinity",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(FieldTerm(in, kIn, {"node1"})).RequiredTerm(FieldTerm(in, kIn, {"node2"}));
       },
       {}, "node2", true, Code::kSuccess, std::vector<std::string>{"node1", "node2"}},
      {"two conflicting matchFields requirements",
       [](Interner& in, PodBuilder& p) {
         auto t = FieldTerm(in, kIn, {"node1"});
         t.match_fields.push_back(Req(in, "metadata.name", kIn, {"node2"}));
         p.RequiredTerm(std::move(t));
       },
       {{"foo", "bar"}}, "node2", false, Code::kUnschedulableAndUnresolvable},
      {"node names come sorted by name, not by id",
       [](Interner& in, PodBuilder& p) {
         p.RequiredTerm(FieldTerm(in, kIn, {"node-b"}))
             .RequiredTerm(FieldTerm(in, kIn, {"node-a"}));
       },
       {}, "node-a", true, Code::kSuccess, std::vector<std::string>{"node-a", "node-b"}},
      {"repeated values give unique node names",
       [](Interner& in, PodBuilder& p) {
         auto t = FieldTerm(in, kIn, {"node1"});
         t.match_fields[0].values.push_back(t.match_fields[0].values[0]);  // as decoded: sorted
         p.RequiredTerm(std::move(t)).RequiredTerm(FieldTerm(in, kIn, {"node1"}));
       },
       {}, "node1", true, Code::kSuccess, std::vector<std::string>{"node1"}},
      {"NotIn matchFields do not restrict the node names",
       [](Interner& in, PodBuilder& p) { p.RequiredTerm(FieldTerm(in, kNotIn, {"node1"})); }, {},
       "node2", true},
  };
  for (const Case& c : cases) {
    ClusterState cs;
    Interner& in = cs.interner();
    PodBuilder pb(in, "p");
    c.pod(in, pb);
    const auto pod = pb.Build();
    const auto node = MakeNode(in, c.node_name, c.labels);
    NodeAffinity pl;
    CycleState state(1);

    PreFilterResult result;
    const Status pre = pl.PreFilter(state, *pod, cs, &result);
    EXPECT_EQ(pre.code(), c.want_pre_filter) << c.name;
    if (pre.code() == Code::kUnschedulableAndUnresolvable) {
      EXPECT_EQ(pre.reasons(), std::vector<std::string_view>{"pod affinity terms conflict"});
    }
    EXPECT_EQ(result.all_nodes, !c.want_node_names.has_value()) << c.name;
    if (c.want_node_names) {
      EXPECT_EQ(result.node_names, *c.want_node_names) << c.name;
    }
    if (pre.IsSkip()) continue;  // the framework runs no Filter

    const Status got = pl.Filter(state, *pod, *node);
    if (c.want_fit) {
      EXPECT_TRUE(got.IsSuccess()) << c.name;
    } else {
      EXPECT_EQ(got.code(), Code::kUnschedulableAndUnresolvable) << c.name;
      EXPECT_EQ(got.reasons(),
                std::vector<std::string_view>{"node(s) didn't match Pod's node affinity/selector"})
          << c.name;
    }
  }
}

// Upstream's TestNodeAffinity, the addedAffinity (NodeAffinityArgs) cases.
TEST(NodeAffinityTest, AddedAffinityFilter) {
  struct Case {
    std::string name;
    std::function<void(Interner&, PodBuilder&)> pod;
    std::function<NodeSelector(Interner&)> added;
    Code want = Code::kSuccess;
    std::string_view want_reason = {};
  };
  const auto zone = [](std::string v) {
    return [v](Interner& in, PodBuilder& p) { p.RequiredTerm(Term({Req(in, "zone", kIn, {v})})); };
  };
  const auto node2 = [](Interner& in) { return NodeSelector{{FieldTerm(in, kIn, {"node2"})}}; };
  const std::vector<Case> cases = {
      {"Matches added affinity and Pod's node affinity", zone("foo"), node2},
      {"Matches added affinity but not Pod's node affinity", zone("bar"), node2,
       Code::kUnschedulableAndUnresolvable, NodeAffinity::kReasonPod},
      {"Doesn't match added affinity", [](Interner&, PodBuilder&) {},
       [](Interner& in) { return NodeSelector{{Term({Req(in, "zone", kIn, {"bar"})})}}; },
       Code::kUnschedulableAndUnresolvable, NodeAffinity::kReasonEnforced},
      {"added affinity without terms matches no node", [](Interner&, PodBuilder&) {},
       [](Interner&) { return NodeSelector{}; }, Code::kUnschedulableAndUnresolvable,
       NodeAffinity::kReasonEnforced},
      {"added affinity is checked before the pod's", zone("bar"),
       [](Interner& in) { return NodeSelector{{FieldTerm(in, kIn, {"node1"})}}; },
       Code::kUnschedulableAndUnresolvable, NodeAffinity::kReasonEnforced},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cs;
    Interner& in = cs.interner();
    PodBuilder pb(in, "p");
    c.pod(in, pb);
    const auto pod = pb.Build();
    const auto node = MakeNode(in, "node2", {{"zone", "foo"}});
    NodeAffinityArgs args;
    args.added_required = c.added(in);
    NodeAffinity pl(args);
    CycleState state(1);
    PreFilterResult result;
    // Never Skip: every pod must pass the added affinity.
    ASSERT_TRUE(pl.PreFilter(state, *pod, cs, &result).IsSuccess());
    const Status got = pl.Filter(state, *pod, *node);
    EXPECT_EQ(got.code(), c.want);
    if (!c.want_reason.empty()) {
      EXPECT_EQ(got.reasons(), std::vector<std::string_view>{c.want_reason});
    }
  }
}

TEST(NodeAffinityTest, FilterWithoutPreFilterIsAnError) {
  Interner in;
  const auto pod = PodBuilder(in, "p").NodeSelector("foo", "bar").Build();
  const auto node = MakeNode(in, "n", {{"foo", "bar"}});
  NodeAffinity pl;
  CycleState state(1);
  EXPECT_EQ(pl.Filter(state, *pod, *node).code(), Code::kError);
}

// Upstream's TestNodeAffinityPriority.
TEST(NodeAffinityTest, Score) {
  const Labels label1 = {{"foo", "bar"}};
  const Labels label2 = {{"key", "value"}};
  const Labels label3 = {{"az", "az1"}};
  const Labels label4 = {{"abc", "az11"}, {"def", "az22"}};
  const Labels label5 = {{"foo", "bar"}, {"key", "value"}, {"az", "az1"}};
  const auto affinity1 = [](Interner& in, PodBuilder& p) {
    p.PreferredTerm(2, Term({Req(in, "foo", kIn, {"bar"})}));
  };
  const auto affinity2 = [](Interner& in, PodBuilder& p) {
    p.PreferredTerm(2, Term({Req(in, "foo", kIn, {"bar"})}))
        .PreferredTerm(4, Term({Req(in, "key", kIn, {"value"})}))
        .PreferredTerm(5, Term({Req(in, "foo", kIn, {"bar"}), Req(in, "key", kIn, {"value"}),
                                Req(in, "az", kIn, {"az1"})}));
  };
  struct Case {
    std::string name;
    std::function<void(Interner&, PodBuilder&)> pod;
    std::vector<Labels> nodes;
    Code want_pre_score = Code::kSuccess;
    std::vector<int64_t> want;
    std::vector<PreferredSchedulingTerm> added = {};  // NodeAffinityArgs
  };
  ClusterState cs;
  Interner& in = cs.interner();
  const std::vector<Case> cases = {
      {"Skip when the pod has no preferred terms", [](Interner&, PodBuilder&) {},
       {label1, label2, label3}, Code::kSkip, {}},
      {"Error when a preferred term is broken",
       [](Interner& in, PodBuilder& p) {
         auto t = Term({Req(in, "invalid key", kIn, {"bar"})});
         t.valid = false;  // not a valid label key
         p.PreferredTerm(2, std::move(t));
       },
       {label1}, Code::kError, {}},
      {"a broken term of weight 0 is ignored",
       [](Interner& in, PodBuilder& p) {
         auto t = Term({Req(in, "invalid key", kIn, {"bar"})});
         t.valid = false;
         p.PreferredTerm(0, std::move(t)).PreferredTerm(1, Term({Req(in, "foo", kExists)}));
       },
       {label1, label2}, Code::kSuccess, {100, 0}},
      {"no node matches, all score zero", affinity1, {label4, label2, label3}, Code::kSuccess,
       {0, 0, 0}},
      {"only node1 matches", affinity1, {label1, label2, label3}, Code::kSuccess, {100, 0, 0}},
      {"all nodes match with different priorities", affinity2, {label1, label5, label2},
       Code::kSuccess, {18, 100, 36}},
      {"an empty preference matches nothing",
       [](Interner& in, PodBuilder& p) {
         p.PreferredTerm(7, Term({})).PreferredTerm(1, Term({Req(in, "az", kExists)}));
       },
       {label1, label3}, Code::kSuccess, {0, 100}},
      {"added affinity", [](Interner&, PodBuilder&) {}, {label1, label2}, Code::kSuccess,
       {100, 0}, {{2, Term({Req(in, "foo", kIn, {"bar"})})}}},
      {"added affinity and pod has default affinity", affinity1, {label1, label2, label5},
       Code::kSuccess, {40, 60, 100}, {{3, Term({Req(in, "key", kIn, {"value"})})}}},
  };
  for (const Case& c : cases) {
    PodBuilder pb(in, "p");
    c.pod(in, pb);
    const auto pod = pb.Build();
    std::vector<std::unique_ptr<NodeInfo>> nodes;
    std::vector<const NodeInfo*> feasible;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      nodes.push_back(MakeNode(in, "node" + std::to_string(i), c.nodes[i]));
      feasible.push_back(nodes.back().get());
    }
    NodeAffinity pl(NodeAffinityArgs{std::nullopt, c.added});
    CycleState state(1);
    const Status pre = pl.PreScore(state, *pod, feasible, cs);
    EXPECT_EQ(pre.code(), c.want_pre_score) << c.name;
    if (!pre.IsSuccess()) continue;
    std::vector<int64_t> scores;
    ASSERT_TRUE(pl.HasNormalizeScore());
    ASSERT_TRUE(testing::ScoreAndNormalize(pl, state, *pod, feasible, &scores).IsSuccess())
        << c.name;
    EXPECT_EQ(scores, c.want) << c.name;
  }
}

TEST(NodeAffinityTest, RawScoreSumsMatchingWeights) {
  ClusterState cs;
  Interner& in = cs.interner();
  const auto pod = PodBuilder(in, "p")
                       .PreferredTerm(2, Term({Req(in, "foo", kIn, {"bar"})}))
                       .PreferredTerm(4, Term({Req(in, "key", kIn, {"value"})}))
                       .PreferredTerm(5, FieldTerm(in, kIn, {"n"}))
                       .PreferredTerm(8, Term({Req(in, "foo", kIn, {"other"})}))
                       .Build();
  const auto node = MakeNode(in, "n", {{"foo", "bar"}, {"key", "value"}});
  NodeAffinity pl;
  CycleState state(1);
  const NodeInfo* feasible[] = {node.get()};
  ASSERT_TRUE(pl.PreScore(state, *pod, feasible, cs).IsSuccess());
  int64_t s = 0;
  ASSERT_TRUE(pl.Score(state, *pod, *node, &s).IsSuccess());
  EXPECT_EQ(s, 11);
}

TEST(NodeAffinityTest, Name) { EXPECT_EQ(NodeAffinity().Name(), "NodeAffinity"); }

}  // namespace
}  // namespace node_affinity_test
}  // namespace sched
