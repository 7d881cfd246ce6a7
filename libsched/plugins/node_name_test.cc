#include "libsched/plugins/node_name.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_name_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// Upstream's TestNodeName.
TEST(NodeNameTest, Filter) {
  struct Case {
    std::string name;
    std::string pod_node_name;
    std::string node_name;
    bool want_fit;
  };
  const std::vector<Case> cases = {
      {"no host specified", "", "foo", true},
      {"host matches", "foo", "foo", true},
      {"host doesn't match", "bar", "foo", false},
  };
  for (const Case& c : cases) {
    Interner in;
    const auto pod = PodBuilder(in, "p").NodeName(c.pod_node_name).Build();
    NodeInfo ni;
    ni.SetNode(NodeBuilder(in, c.node_name).Build(), 1);
    NodeName pl;
    CycleState state(1);
    const Status got = pl.Filter(state, *pod, ni);
    if (c.want_fit) {
      EXPECT_TRUE(got.IsSuccess()) << c.name;
    } else {
      EXPECT_EQ(got.code(), Code::kUnschedulableAndUnresolvable) << c.name;
      EXPECT_EQ(got.reasons(),
                std::vector<std::string_view>{"node(s) didn't match the requested node name"})
          << c.name;
    }
  }
}

TEST(NodeNameTest, Name) { EXPECT_EQ(NodeName().Name(), "NodeName"); }

}  // namespace
}  // namespace node_name_test
}  // namespace sched
