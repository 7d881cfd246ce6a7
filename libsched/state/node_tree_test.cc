#include "libsched/state/node_tree.h"

#include <gtest/gtest.h>

#include "libsched/testing/builders.h"

namespace sched {
namespace {

TEST(NodeTreeTest, ListInterleavesZonesInInsertionOrder) {
  struct Case {
    const char* name;
    std::vector<std::pair<std::string, std::string>> adds;  // zone, node
    std::vector<std::pair<std::string, std::string>> removes;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {"empty", {}, {}, {}},
      {"one zone keeps insertion order", {{"a", "n1"}, {"a", "n2"}, {"a", "n3"}}, {}, {"n1", "n2", "n3"}},
      {"round robin across zones",
       {{"a", "a1"}, {"a", "a2"}, {"b", "b1"}, {"a", "a3"}, {"c", "c1"}, {"b", "b2"}},
       {},
       {"a1", "b1", "c1", "a2", "b2", "a3"}},
      {"duplicate add is ignored", {{"a", "n1"}, {"a", "n1"}}, {}, {"n1"}},
      {"add under a second zone is ignored", {{"a", "n1"}, {"b", "n1"}}, {}, {"n1"}},
      {"remove keeps order and drops empty zones",
       {{"a", "a1"}, {"b", "b1"}, {"a", "a2"}, {"b", "b2"}},
       {{"b", "b1"}, {"b", "b2"}},
       {"a1", "a2"}},
  };
  for (const auto& c : cases) {
    NodeTree t;
    for (const auto& [z, n] : c.adds) t.Add(z, n);
    for (const auto& [z, n] : c.removes) EXPECT_TRUE(t.Remove(z, n)) << c.name;
    EXPECT_EQ(t.List(), c.want) << c.name;
    EXPECT_EQ(t.size(), c.want.size()) << c.name;
  }
}

TEST(NodeTreeTest, RemoveUnknownReturnsFalse) {
  NodeTree t;
  t.Add("a", "n1");
  EXPECT_FALSE(t.Remove("a", "n2"));
  EXPECT_FALSE(t.Remove("b", "n1"));
  EXPECT_EQ(t.size(), 1u);
}

TEST(NodeTreeTest, ZoneOfFollowsAddAndRemove) {
  NodeTree t;
  EXPECT_EQ(t.ZoneOf("n1"), nullptr);
  t.Add("a", "n1");
  ASSERT_NE(t.ZoneOf("n1"), nullptr);
  EXPECT_EQ(*t.ZoneOf("n1"), "a");
  // Removing by the tree's own zone string (the last node of the zone).
  EXPECT_TRUE(t.Remove(*t.ZoneOf("n1"), "n1"));
  EXPECT_EQ(t.ZoneOf("n1"), nullptr);
  EXPECT_EQ(t.List(), std::vector<std::string>{});
  t.Add("b", "n1");
  EXPECT_EQ(*t.ZoneOf("n1"), "b");
}

TEST(NodeTreeTest, ZoneKeyPrefersBetaLabelsAndSeparatesWithNul) {
  Interner in;
  auto ga = testing::NodeBuilder(in, "n")
                .Label("topology.kubernetes.io/region", "r")
                .Label("topology.kubernetes.io/zone", "z")
                .Build();
  EXPECT_EQ(ZoneKey(*ga, in), std::string("r:\0:z", 5));
  auto both = testing::NodeBuilder(in, "n")
                  .Label("topology.kubernetes.io/zone", "ga")
                  .Label("failure-domain.beta.kubernetes.io/zone", "beta")
                  .Build();
  EXPECT_EQ(ZoneKey(*both, in), std::string(":\0:beta", 7));
  auto none = testing::NodeBuilder(in, "n").Build();
  EXPECT_EQ(ZoneKey(*none, in), "");
}

}  // namespace
}  // namespace sched
