#include "libsched/state/pod_label_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "libsched/state/cluster_state.h"
#include "libsched/state/undo_log.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace pod_label_index_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// The index as "ns app=<value>" -> node name -> count.
std::map<std::string, std::map<std::string, int64_t>> Dump(const ClusterState& s) {
  std::map<std::string, std::map<std::string, int64_t>> out;
  const Interner& in = s.interner();
  for (const auto& [key, group] : s.pod_label_index().groups()) {
    const PodLabelIndex::Group& g = *group;
    std::string name = g.sample.ns;
    for (const auto& [k, v] : g.sample.labels.entries()) name += " " + in.Str(k) + "=" + in.Str(v);
    auto& nodes = out[name];
    EXPECT_EQ(g.nodes.size(), g.position.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      EXPECT_EQ(g.position.at(g.nodes[i].first), i);
      nodes[s.NodeAt(g.nodes[i].first)->node()->name] = g.nodes[i].second;
    }
  }
  return out;
}

// A group that lost most of its nodes gives back the room of its node
// list and positions (room_after_erase.h), undoably.
TEST(PodLabelIndexTest, AGroupThatLostMostNodesGivesBackItsRoom) {
  struct Case {
    const char* name;
    uint32_t nodes;    // a pod on each node 0, 1, ...
    uint32_t kept;     // then removed from the last node down to `kept`
    bool rolled_back;  // the removes in a unit that rolls back
    bool falls;        // the group's room falls
  };
  const Case cases[] = {
      {"a few nodes keep their room", 12, 1, false, false},
      {"half gone: the room stays", 1000, 500, false, false},
      {"most gone: the room falls", 1000, 10, false, true},
      {"a rollback puts the room back", 1000, 10, true, true},
  };
  for (const Case& c : cases) {
    Interner in;
    const auto pod = PodBuilder(in, "p", "default").Label("app", "a").Build();
    PodLabelIndex index;
    for (uint32_t i = 0; i < c.nodes; ++i) index.Add(*pod, i);
    auto group = [&]() -> const PodLabelIndex::Group& { return *index.groups().begin()->second; };
    const size_t buckets = group().position.bucket_count();
    const size_t room = group().nodes.capacity();
    const std::vector<std::pair<uint32_t, int64_t>> all = group().nodes;
    UndoLog log;
    if (c.rolled_back) log.Begin();
    for (uint32_t i = c.nodes; i-- > c.kept;) index.Remove(*pod, i, &log);
    EXPECT_EQ(group().position.bucket_count() < buckets, c.falls) << c.name;
    EXPECT_EQ(group().nodes.capacity() < room, c.falls) << c.name;
    EXPECT_EQ(group().nodes, decltype(all)(all.begin(), all.begin() + c.kept)) << c.name;
    for (uint32_t i = 0; i < c.nodes; ++i) {
      EXPECT_EQ(group().CountOn(i), i < c.kept ? 1 : 0) << c.name;
    }
    if (!c.rolled_back) continue;
    log.Rollback();
    EXPECT_EQ(group().position.bucket_count(), buckets) << c.name;
    EXPECT_EQ(group().nodes.capacity(), room) << c.name;
    EXPECT_EQ(group().nodes, all) << c.name;
    for (uint32_t i = 0; i < c.nodes; ++i) EXPECT_EQ(group().CountOn(i), 1) << c.name;
  }
}

TEST(PodLabelIndexTest, GroupsFollowPodsAddedChangedAndRemoved) {
  ClusterState s;
  Interner& in = s.interner();
  for (const char* n : {"n1", "n2", "n3"}) s.UpsertNode(NodeBuilder(in, n).Build());
  auto pod = [&](const std::string& name, const std::string& app, const std::string& node,
                 const std::string& ns = "default") {
    s.UpsertPod(PodBuilder(in, name, ns).Label("app", app).NodeName(node).Build());
  };
  pod("a1", "a", "n1");
  pod("a2", "a", "n1");
  pod("a3", "a", "n2");
  pod("b1", "b", "n3");
  pod("c1", "a", "n3", "other");  // same labels, another namespace
  using Want = std::map<std::string, std::map<std::string, int64_t>>;
  EXPECT_EQ(Dump(s), (Want{{"default app=a", {{"n1", 2}, {"n2", 1}}},
                           {"default app=b", {{"n3", 1}}},
                           {"other app=a", {{"n3", 1}}}}));

  // A relabelled pod moves between groups; the last pod of a group or of a
  // node in it takes the entry with it.
  pod("b1", "a", "n3");
  s.RemovePod("default/a3");
  s.RemovePod("default/a1");
  EXPECT_EQ(Dump(s),
            (Want{{"default app=a", {{"n1", 1}, {"n3", 1}}}, {"other app=a", {{"n3", 1}}}}));
  s.RemovePod("default/a2");
  s.RemovePod("default/b1");
  s.RemovePod("other/c1");
  EXPECT_TRUE(s.pod_label_index().groups().empty());
}

// Terminating pods form groups of their own, so PodTopologySpread can skip
// them; a pod that starts terminating moves there.
TEST(PodLabelIndexTest, TerminatingPodsGroupApart) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Build());
  s.UpsertPod(PodBuilder(in, "a1").Label("app", "a").NodeName("n1").Build());
  s.UpsertPod(PodBuilder(in, "a2").Label("app", "a").NodeName("n1").Build());
  s.UpsertPod(PodBuilder(in, "a2").Label("app", "a").NodeName("n1").Terminating().Build());
  std::map<bool, int64_t> by_terminating;
  for (const auto& [key, group] : s.pod_label_index().groups()) {
    const PodLabelIndex::Group& g = *group;
    EXPECT_EQ(key.terminating, g.sample.terminating);
    ASSERT_EQ(g.nodes.size(), 1u);
    by_terminating[key.terminating] += g.nodes[0].second;
  }
  EXPECT_EQ(by_terminating, (std::map<bool, int64_t>{{false, 1}, {true, 1}}));
}

// version() names the set of group keys: a new group or a group gone
// changes it to a value never seen before, a pod joining or leaving a group
// that stays does not, and an undone change restores it (what
// PodTopologySpread's PreScore keeps its matched groups under).
TEST(PodLabelIndexTest, VersionFollowsTheGroupKeysOnly) {
  Interner in;
  const Pod a1 = *PodBuilder(in, "a1").Label("app", "a").Build();
  const Pod a2 = *PodBuilder(in, "a2").Label("app", "a").Build();
  const Pod b1 = *PodBuilder(in, "b1").Label("app", "b").Build();
  PodLabelIndex index;
  std::vector<uint64_t> seen = {index.version()};
  // Whether `of`'s version is one not seen before (it is seen now).
  auto changed = [&](const PodLabelIndex& of) {
    const bool fresh = std::find(seen.begin(), seen.end(), of.version()) == seen.end();
    seen.push_back(of.version());
    return fresh;
  };

  index.Add(a1, 0);
  EXPECT_TRUE(changed(index));  // group app=a came
  const uint64_t with_a = index.version();
  index.Add(a2, 1);
  index.Add(a2, 0);
  index.Remove(a2, 1);
  EXPECT_EQ(index.version(), with_a);  // counts and nodes only

  UndoLog log;
  log.Begin();
  index.Add(b1, 0, &log);
  EXPECT_TRUE(changed(index));  // group app=b came
  log.Rollback();
  EXPECT_EQ(index.version(), with_a);
  index.Add(b1, 2);
  EXPECT_TRUE(changed(index));  // the same keys as the rolled back change, another value

  PodLabelIndex copy = index;
  copy.Remove(b1, 2);
  EXPECT_TRUE(changed(copy));  // group app=b went, in the copy
  EXPECT_EQ(copy.groups().size(), 1u);
  index.Remove(b1, 2);
  EXPECT_TRUE(changed(index));  // the same in the original: again a value of its own
  index.Remove(a1, 0);
  EXPECT_EQ(index.version(), seen.back());  // app=a still holds a2 on node 0
  index.Remove(a2, 0);
  EXPECT_TRUE(changed(index));
  EXPECT_TRUE(index.groups().empty());
}

// Group::CountOn reads a node's count through `position`, which a
// swap-remove rewrites for the node it moves.
struct CountOnCase {
  std::string name;
  std::vector<uint32_t> adds;     // a pod of the group on each node
  std::vector<uint32_t> removes;  // then one of them from each
  std::map<uint32_t, int64_t> want;
};

TEST(PodLabelIndexTest, CountOnReadsTheNodesCount) {
  const std::vector<CountOnCase> cases = {
      {"one pod", {0}, {}, {{0, 1}, {1, 0}}},
      {"two on one node", {1, 1}, {}, {{0, 0}, {1, 2}}},
      {"a node never held", {3}, {}, {{3, 1}, {5, 0}}},
      {"the last node moved into a removed one's place", {0, 1}, {0}, {{0, 0}, {1, 1}}},
      {"counts kept by the move", {0, 1, 2, 2}, {0}, {{0, 0}, {1, 1}, {2, 2}}},
      {"a count falls without a move", {0, 0, 1}, {0}, {{0, 1}, {1, 1}}},
  };
  for (const CountOnCase& c : cases) {
    Interner in;
    const Pod pod = *PodBuilder(in, "a").Label("app", "a").Build();
    PodLabelIndex index;
    for (const uint32_t node : c.adds) index.Add(pod, node);
    for (const uint32_t node : c.removes) index.Remove(pod, node);
    ASSERT_EQ(index.groups().size(), 1u) << c.name;
    const PodLabelIndex::Group& g = *index.groups().begin()->second;
    for (const auto& [node, want] : c.want) EXPECT_EQ(g.CountOn(node), want) << c.name << " node " << node;
  }
}

}  // namespace
}  // namespace pod_label_index_test
}  // namespace sched
