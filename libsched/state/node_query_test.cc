#include "libsched/state/node_query.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_query_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

std::vector<std::string> Names(const std::vector<const NodeInfo*>& infos) {
  std::vector<std::string> out;
  for (const NodeInfo* ni : infos) out.push_back(ni->node()->name);
  return out;
}

TEST(NodeQueryTest, FiltersByNameAndSelectorSortedByName) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "b").Label("pool", "x").Capacity(1000, 1 << 30).Build());
  s.UpsertNode(NodeBuilder(in, "a").Label("pool", "y").Capacity(1000, 1 << 30).Build());
  s.UpsertNode(NodeBuilder(in, "c").Label("pool", "x").Capacity(1000, 1 << 30).Build());
  // A pod bound to a node without a Node object: no node is listed for it.
  s.UpsertPod(PodBuilder(in, "p").NodeName("gone").Container(100, 0).Build());

  struct Case {
    const char* name;
    std::vector<std::string> names;
    bool select_x;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {"all", {}, false, {"a", "b", "c"}},
      {"names, repeated and unknown", {"c", "gone", "a", "c"}, false, {"a", "c"}},
      {"selector", {}, true, {"b", "c"}},
      {"names and selector", {"a", "b"}, true, {"b"}},
  };
  for (const Case& c : cases) {
    NodeQuery q;
    q.names = c.names;
    if (c.select_x) {
      LabelSelector sel;
      Requirement& r = sel.requirements.emplace_back();
      r.key = in.Intern("pool");
      r.values = {in.Intern("x")};
      q.selector = sel;
    }
    EXPECT_EQ(Names(QueryNodes(s, q)), c.want) << c.name;
  }
}

}  // namespace
}  // namespace node_query_test
}  // namespace sched
