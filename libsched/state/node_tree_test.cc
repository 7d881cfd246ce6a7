#include "libsched/state/node_tree.h"

#include <gtest/gtest.h>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_tree_test {
namespace {

// The walk's order.
std::vector<uint32_t> List(const NodeTree& t) {
  std::vector<uint32_t> out;
  t.ForEachInOrder([&](uint32_t index) { out.push_back(index); });
  return out;
}

// Nodes n<i> have index i.
TEST(NodeTreeTest, ListInterleavesZonesInInsertionOrder) {
  struct Case {
    const char* name;
    std::vector<std::pair<std::string, uint32_t>> adds;  // zone, node
    std::vector<uint32_t> removes;
    std::vector<uint32_t> want;
  };
  const Case cases[] = {
      {"empty", {}, {}, {}},
      {"one zone keeps insertion order", {{"a", 1}, {"a", 2}, {"a", 3}}, {}, {1, 2, 3}},
      {"round robin across zones",
       {{"a", 1}, {"a", 2}, {"b", 3}, {"a", 4}, {"c", 5}, {"b", 6}},
       {},
       {1, 3, 5, 2, 6, 4}},
      {"rounds every zone has a node in, then the longer zones'",
       {{"a", 1}, {"b", 2}, {"a", 3}, {"b", 4}, {"a", 5}, {"c", 6}, {"c", 7}, {"a", 8}},
       {},
       {1, 2, 6, 3, 4, 7, 5, 8}},
      {"duplicate add is ignored", {{"a", 1}, {"a", 1}}, {}, {1}},
      {"add under a second zone is ignored", {{"a", 1}, {"b", 1}}, {}, {1}},
      {"remove keeps order and drops empty zones",
       {{"a", 1}, {"b", 2}, {"a", 3}, {"b", 4}},
       {2, 4},
       {1, 3}},
  };
  for (const auto& c : cases) {
    NodeTree t;
    for (const auto& [z, i] : c.adds) t.Add(z, "n" + std::to_string(i), i, nullptr);
    for (uint32_t i : c.removes) EXPECT_TRUE(t.Remove("n" + std::to_string(i), nullptr)) << c.name;
    EXPECT_EQ(List(t), c.want) << c.name;
    EXPECT_EQ(t.size(), c.want.size()) << c.name;
  }
}

TEST(NodeTreeTest, RemoveUnknownReturnsFalse) {
  NodeTree t;
  t.Add("a", "n1", 1, nullptr);
  EXPECT_FALSE(t.Remove("n2", nullptr));
  EXPECT_EQ(t.size(), 1u);
}

TEST(NodeTreeTest, ZoneOfFollowsAddAndRemove) {
  NodeTree t;
  EXPECT_EQ(t.ZoneOf("n1"), nullptr);
  t.Add("a", "n1", 1, nullptr);
  ASSERT_NE(t.ZoneOf("n1"), nullptr);
  EXPECT_EQ(*t.ZoneOf("n1"), "a");
  EXPECT_TRUE(t.Remove("n1", nullptr));  // the last node of its zone
  EXPECT_EQ(t.ZoneOf("n1"), nullptr);
  EXPECT_EQ(List(t), std::vector<uint32_t>{});
  t.Add("b", "n1", 1, nullptr);
  EXPECT_EQ(*t.ZoneOf("n1"), "b");
}

// Each change records its undo: a rolled-back unit of adds and removes
// (zones emptied and made) leaves the tree as it was, order included.
TEST(NodeTreeTest, RollbackRestoresTheTree) {
  NodeTree t;
  UndoLog log;
  for (uint32_t i : {1u, 2u, 3u, 4u}) t.Add(i % 2 ? "a" : "b", "n" + std::to_string(i), i, &log);
  log.Begin();
  t.Remove("n1", &log);
  t.Remove("n2", &log);
  t.Remove("n4", &log);  // zone b emptied
  t.Add("c", "n5", 5, &log);
  t.Add("b", "n2", 2, &log);  // b made again, after c
  t.Remove("n3", &log);       // zone a emptied
  EXPECT_EQ(List(t), (std::vector<uint32_t>{5, 2}));
  log.Rollback();
  EXPECT_EQ(List(t), (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ(t.size(), 4u);
  EXPECT_EQ(*t.ZoneOf("n4"), "b");
  EXPECT_EQ(t.ZoneOf("n5"), nullptr);
  t.Add("c", "n5", 5, nullptr);
  EXPECT_EQ(List(t), (std::vector<uint32_t>{1, 2, 5, 3, 4}));
}

// A tree that lost most of its nodes gives back the room of its maps and
// zone lists (room_after_erase.h), undoably.
TEST(NodeTreeTest, RemovingMostNodesGivesBackTheRoom) {
  struct Case {
    const char* name;
    uint32_t nodes;    // n<i> in zone z<i % zones>, index i
    uint32_t zones;
    uint32_t kept;     // then removed from the last down to n<kept>
    bool rolled_back;  // the removes in a unit that rolls back
    bool falls;        // room() falls
  };
  const Case cases[] = {
      {"a small tree keeps its room", 12, 1, 1, false, false},
      {"half removed: the room stays", 1000, 3, 500, false, false},
      {"most removed: the room falls", 1000, 3, 10, false, true},
      {"emptied zones give back their buckets", 1000, 200, 20, false, true},
      {"a rollback puts the room back", 1000, 3, 10, true, true},
      {"a rollback of emptied zones", 1000, 200, 20, true, true},
  };
  for (const Case& c : cases) {
    NodeTree t, fresh;
    for (uint32_t i = 0; i < c.nodes; ++i) {
      const std::string zone = "z" + std::to_string(i % c.zones);
      t.Add(zone, "n" + std::to_string(i), i, nullptr);
      if (i < c.kept) fresh.Add(zone, "n" + std::to_string(i), i, nullptr);
    }
    const size_t room = t.room();
    const std::vector<uint32_t> all = List(t);
    UndoLog log;
    if (c.rolled_back) log.Begin();
    for (uint32_t i = c.nodes; i-- > c.kept;) t.Remove("n" + std::to_string(i), &log);
    EXPECT_EQ(t.room() < room, c.falls) << c.name << ": " << room << " -> " << t.room();
    EXPECT_EQ(List(t), List(fresh)) << c.name;
    EXPECT_EQ(t.size(), c.kept) << c.name;
    if (!c.rolled_back) continue;
    log.Rollback();
    EXPECT_EQ(t.room(), room) << c.name;
    EXPECT_EQ(List(t), all) << c.name;
    for (uint32_t i = 0; i < c.nodes; ++i) {
      ASSERT_NE(t.ZoneOf("n" + std::to_string(i)), nullptr) << c.name << ": n" << i;
      EXPECT_EQ(*t.ZoneOf("n" + std::to_string(i)), "z" + std::to_string(i % c.zones)) << c.name;
    }
  }
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
}  // namespace node_tree_test
}  // namespace sched
