#include "libsched/plugins/node_unschedulable.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_unschedulable_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// Upstream's TestNodeUnschedulable, plus the toleration rule's corners.
TEST(NodeUnschedulableTest, Filter) {
  struct Case {
    std::string name;
    bool unschedulable;
    std::function<void(PodBuilder&)> pod;
    Code want_pre_filter;
    Code want_filter;  // when PreFilter succeeds
  };
  const std::string key(NodeUnschedulable::kTaintNodeUnschedulable);
  const std::vector<Case> cases = {
      {"unschedulable node rejects a pod", true, [](PodBuilder&) {}, Code::kSuccess,
       Code::kUnschedulableAndUnresolvable},
      {"schedulable node", false, [](PodBuilder&) {}, Code::kSuccess, Code::kSuccess},
      {"toleration of the unschedulable taint", true,
       [&](PodBuilder& p) {
         p.Toleration(key, TolerationOp::kEqual, "", TaintEffect::kNoSchedule);
       },
       Code::kSkip, Code::kSuccess},
      {"toleration with empty effect", true,
       [&](PodBuilder& p) { p.Toleration(key, TolerationOp::kExists, "", TaintEffect::kNone); },
       Code::kSkip, Code::kSuccess},
      {"wildcard toleration", true,
       [](PodBuilder& p) { p.Toleration("", TolerationOp::kExists, "", TaintEffect::kNone); },
       Code::kSkip, Code::kSuccess},
      {"toleration for NoExecute only", true,
       [&](PodBuilder& p) {
         p.Toleration(key, TolerationOp::kExists, "", TaintEffect::kNoExecute);
       },
       Code::kSuccess, Code::kUnschedulableAndUnresolvable},
      {"toleration wants a value the taint lacks", true,
       [&](PodBuilder& p) {
         p.Toleration(key, TolerationOp::kEqual, "x", TaintEffect::kNoSchedule);
       },
       Code::kSuccess, Code::kUnschedulableAndUnresolvable},
      {"toleration of another key", true,
       [](PodBuilder& p) { p.Toleration("other", TolerationOp::kExists, "", TaintEffect::kNone); },
       Code::kSuccess, Code::kUnschedulableAndUnresolvable},
  };
  for (const Case& c : cases) {
    ClusterState cs;  // fresh: the taint key is interned only if a pod names it
    Interner& in = cs.interner();
    PodBuilder pb(in, "p");
    c.pod(pb);
    const auto pod = pb.Build();
    NodeInfo ni;
    ni.SetNode(NodeBuilder(in, "n1").Unschedulable(c.unschedulable).Build(), 1);

    NodeUnschedulable pl;
    CycleState state(1);
    PreFilterResult result;
    const Status pre = pl.PreFilter(state, *pod, cs, &result);
    EXPECT_TRUE(result.all_nodes) << c.name;
    EXPECT_EQ(pre.code(), c.want_pre_filter) << c.name;
    if (!pre.IsSuccess()) continue;
    const Status got = pl.Filter(state, *pod, ni);
    EXPECT_EQ(got.code(), c.want_filter) << c.name;
    if (!got.IsSuccess()) {
      EXPECT_EQ(got.reasons(), std::vector<std::string_view>{"node(s) were unschedulable"})
          << c.name;
    }
  }
}

TEST(NodeUnschedulableTest, Name) { EXPECT_EQ(NodeUnschedulable().Name(), "NodeUnschedulable"); }

}  // namespace
}  // namespace node_unschedulable_test
}  // namespace sched
