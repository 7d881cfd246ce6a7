#include "libsched/plugins/internal/domain_counts.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched::interpodaffinity {
namespace domain_counts_test {
namespace {

using testing::NodeBuilder;

// Nodes a and b share zone z1, c is in z2, d has no zone; hostnames differ.
void AddNodes(ClusterState& s) {
  Interner& in = s.interner();
  for (const auto& [name, zone] :
       {std::pair("a", "z1"), std::pair("b", "z1"), std::pair("c", "z2"), std::pair("d", "")}) {
    NodeBuilder b(in, name);
    b.Label("host", name);
    if (*zone != '\0') b.Label("zone", zone);
    s.UpsertNode(b.Build());
  }
}

uint32_t Index(const ClusterState& s, const char* name) { return s.FindNode(name)->index(); }

TEST(DomainCountsTest, CountsPerDomainOfEachKey) {
  ClusterState s;
  AddNodes(s);
  const Interner& in = s.interner();
  DomainCounts c(&s.topology_domains());
  EXPECT_TRUE(c.empty());
  const size_t zone = c.For(in.Find("zone"));
  const size_t host = c.For(in.Find("host"));
  EXPECT_EQ(c.For(in.Find("zone")), zone);  // once per key
  EXPECT_EQ(c.size(), 2u);

  EXPECT_TRUE(c.Add(zone, Index(s, "a"), 2));
  EXPECT_TRUE(c.Add(host, Index(s, "a"), 2));
  EXPECT_FALSE(c.Add(zone, Index(s, "d"), 5));  // no zone: not counted
  EXPECT_FALSE(c.empty());
  // A node reads its domain's count: b shares a's zone, not its host.
  EXPECT_EQ(c.at(zone).Get(Index(s, "b")), 2);
  EXPECT_EQ(c.at(host).Get(Index(s, "b")), 0);
  EXPECT_EQ(c.at(zone).Get(Index(s, "c")), 0);
  EXPECT_EQ(c.at(zone).DomainOf(Index(s, "d")), TopologyDomains::kNone);
  EXPECT_EQ(c.at(zone).Get(Index(s, "d")), 0);
  EXPECT_EQ(c.Find(in.Find("host")), &c.at(host));

  // Counts back at zero: empty again (a negative count is not).
  c.Add(zone, Index(s, "b"), -2);
  c.Add(host, Index(s, "a"), -3);
  EXPECT_FALSE(c.empty());
  c.Add(host, Index(s, "a"), 1);
  EXPECT_TRUE(c.empty());
}

// AddValue counts in the domain of a value, found without a node; counts
// start empty and grow to the domains added to.
TEST(DomainCountsTest, AddValueCountsInTheValuesDomain) {
  struct Case {
    const char* key;
    const char* value;
    bool want_added;
    std::vector<int64_t> want;  // Get of nodes a, b, c, d
  };
  const std::vector<Case> cases = {
      {"zone", "z1", true, {3, 3, 0, 0}},
      {"zone", "z2", true, {0, 0, 3, 0}},
      {"zone", "z3", false, {0, 0, 0, 0}},  // no node has it
      {"host", "d", true, {0, 0, 0, 3}},
      {"rack", "r1", false, {0, 0, 0, 0}},  // no node has the key
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.key) + "=" + c.value);
    ClusterState s;
    AddNodes(s);
    Interner& in = s.interner();
    DomainCounts counts(&s.topology_domains());
    const size_t k = counts.For(in.Intern(c.key));
    EXPECT_EQ(counts.AddValue(k, in.Intern(c.value), 3), c.want_added);
    std::vector<int64_t> got;
    for (const char* n : {"a", "b", "c", "d"}) got.push_back(counts.at(k).Get(Index(s, n)));
    EXPECT_EQ(got, c.want);
    EXPECT_EQ(counts.empty(), !c.want_added);
  }
}

TEST(DomainCountsTest, KeyNoNodeHasCountsNothing) {
  ClusterState s;
  AddNodes(s);
  DomainCounts c(&s.topology_domains());
  const size_t rack = c.For(s.interner().Intern("rack"));
  EXPECT_FALSE(c.Add(rack, Index(s, "a"), 1));
  EXPECT_EQ(c.at(rack).Get(Index(s, "a")), 0);
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.Find(s.interner().Intern("other")), nullptr);
}

TEST(DomainCountsTest, EqualityComparesNonZeroCounts) {
  ClusterState s;
  AddNodes(s);
  const Interner& in = s.interner();
  DomainCounts a(&s.topology_domains()), b(&s.topology_domains());
  const size_t az = a.For(in.Find("zone"));
  const size_t bh = b.For(in.Find("host"));  // keys made in another order
  const size_t bz = b.For(in.Find("zone"));
  a.Add(az, Index(s, "a"), 1);
  EXPECT_FALSE(a == b);
  b.Add(bz, Index(s, "b"), 1);  // the same zone as a
  EXPECT_TRUE(a == b);
  b.Add(bh, Index(s, "c"), 1);
  EXPECT_FALSE(a == b);
  b.Add(bh, Index(s, "c"), -1);
  EXPECT_TRUE(a == b);
  b.Add(bz, Index(s, "c"), 1);
  b.Add(bz, Index(s, "b"), -1);  // same number of non-zero counts, another domain
  EXPECT_FALSE(a == b);
}

// A group's counts added per domain of a shared key (its label pairs) and
// per node of a one-node-per-domain key: the same counts as adding its
// nodes one by one, with pods on a zoneless node and on a node without a
// Node object counted nowhere. Fails when AddGroup reads the pairs of
// another key, or skips or doubles a pair.
TEST(DomainCountsTest, AddGroupCountsAsNodeByNode) {
  ClusterState s;
  AddNodes(s);
  Interner& in = s.interner();
  // A second shared key: rack r1 on a and c, r2 on b.
  for (const auto& [name, zone, rack] :
       {std::tuple("a", "z1", "r1"), std::tuple("b", "z1", "r2"), std::tuple("c", "z2", "r1")}) {
    s.UpsertNode(NodeBuilder(in, name).Label("host", name).Label("zone", zone).Label("rack", rack)
                     .Build());
  }
  int n = 0;
  for (const char* node : {"a", "a", "b", "c", "d", "gone"}) {
    s.UpsertPod(testing::PodBuilder(in, "p" + std::to_string(n++))
                    .Label("app", "x")
                    .NodeName(node)
                    .Build());
  }
  ASSERT_EQ(s.pod_label_index().groups().size(), 1u);
  const PodLabelIndex::Group& group = *s.pod_label_index().groups().begin()->second;
  for (const char* key : {"zone", "rack", "host"}) {
    DomainCounts by_group(&s.topology_domains()), by_node(&s.topology_domains());
    const size_t k = by_group.For(in.Find(key));
    ASSERT_EQ(by_node.For(in.Find(key)), k);
    EXPECT_TRUE(by_group.AddGroup(k, group, -3));
    for (const auto& [index, count] : group.nodes) by_node.Add(k, index, -3 * count);
    EXPECT_TRUE(by_group == by_node) << key;
    EXPECT_FALSE(by_group.empty()) << key;
  }
}

// A one-node-per-domain key keeps the groups it is given and reads a
// node's count from them: the same counts, and the same empty(), as adding
// their pods node by node, also when weights of both signs cancel (the
// groups are counted node by node then), when Add moves a count after
// them, and for a group on no node with the key. Fails when Get skips the
// groups, when groups of both signs are kept (empty() false on counts that
// cancel), or when Add leaves the groups kept (its count unread).
TEST(DomainCountsTest, HostnameKeyReadsItsGroupsPerNode) {
  struct Added {
    const char* app;  // the group's label
    int64_t weight;
  };
  struct Case {
    const char* name;
    std::vector<Added> groups;
    std::vector<std::pair<const char*, int64_t>> adds;  // node, delta, after the groups
    std::vector<int64_t> want;                          // Get of nodes a, b, c, d
    bool want_empty;
  };
  const std::vector<Case> cases = {
      {"one group", {{"x", 1}}, {}, {2, 1, 0, 0}, false},
      {"two groups of one sign", {{"x", 2}, {"y", 3}}, {}, {7, 5, 0, 0}, false},
      {"negative weights", {{"x", -1}, {"y", -1}}, {}, {-3, -2, 0, 0}, false},
      {"weights that cancel", {{"x", 1}, {"w", -1}}, {}, {0, 0, 0, 0}, true},
      {"cancel, then one more", {{"x", 1}, {"w", -1}, {"y", 1}}, {}, {1, 1, 0, 0}, false},
      {"on no node with the key", {{"z", 4}}, {}, {0, 0, 0, 0}, true},
      {"weight zero", {{"x", 0}}, {}, {0, 0, 0, 0}, true},
      {"Add after the groups", {{"x", 1}}, {{"a", -2}, {"c", 1}}, {0, 1, 1, 0}, false},
      {"Add back to zero", {{"y", 1}}, {{"a", -1}, {"b", -1}}, {0, 0, 0, 0}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    AddNodes(s);
    Interner& in = s.interner();
    // x: 2 pods on a, 1 on b; w: the same; y: 1 on a, 1 on b, 1 on a node
    // without a Node object; z: only there.
    int n = 0;
    for (const auto& [app, node] : {std::pair("x", "a"), std::pair("x", "a"), std::pair("x", "b"),
                                    std::pair("w", "a"), std::pair("w", "a"), std::pair("w", "b"),
                                    std::pair("y", "a"), std::pair("y", "b"),
                                    std::pair("y", "gone"), std::pair("z", "gone")}) {
      s.UpsertPod(testing::PodBuilder(in, "p" + std::to_string(n++))
                      .Label("app", app)
                      .NodeName(node)
                      .Build());
    }
    auto group = [&](const char* app) -> const PodLabelIndex::Group& {
      for (const auto& [key, g] : s.pod_label_index().groups()) {
        if (g->sample.labels.Get(in.Find("app")) == in.Find(app)) return *g;
      }
      ADD_FAILURE() << "no group " << app;
      return *s.pod_label_index().groups().begin()->second;
    };
    DomainCounts by_group(&s.topology_domains()), by_node(&s.topology_domains());
    const size_t k = by_group.For(in.Find("host"));
    ASSERT_EQ(by_node.For(in.Find("host")), k);
    for (const Added& a : c.groups) {
      const PodLabelIndex::Group& g = group(a.app);
      bool want_counted = false;
      for (const auto& [index, count] : g.nodes) {
        if (by_node.Add(k, index, a.weight * count)) want_counted = true;
      }
      EXPECT_EQ(by_group.AddGroup(k, g, a.weight), want_counted) << a.app;
    }
    for (const auto& [node, delta] : c.adds) {
      by_group.Add(k, Index(s, node), delta);
      by_node.Add(k, Index(s, node), delta);
    }
    std::vector<int64_t> got;
    for (const char* node : {"a", "b", "c", "d"}) got.push_back(by_group.at(k).Get(Index(s, node)));
    EXPECT_EQ(got, c.want);
    EXPECT_EQ(by_group.empty(), c.want_empty);
    EXPECT_EQ(by_node.empty(), c.want_empty);
    EXPECT_TRUE(by_group == by_node);
  }
}

// Past kMaxKeptGroups groups a hostname key's counts go dense (a node's
// read would cost a lookup per group): the same counts either way. Fails
// when the cap is off by one or missing (kept), or when going dense drops
// the groups kept before it.
TEST(DomainCountsTest, HostnameKeyGoesDensePastTheGroupCap) {
  constexpr size_t kCap = DomainCounts::kMaxKeptGroups;
  struct Case {
    const char* name;
    size_t groups;  // group i: one pod on node a, b or c by i % 3
    size_t want_kept;
  };
  const std::vector<Case> cases = {
      {"one group", 1, 1},
      {"at the cap", kCap, kCap},
      {"one past the cap", kCap + 1, 0},
      {"far past the cap", 3 * kCap, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    AddNodes(s);
    Interner& in = s.interner();
    const char* const nodes[] = {"a", "b", "c"};
    std::vector<int64_t> want = {0, 0, 0, 0};  // Get of nodes a, b, c, d
    for (size_t i = 0; i < c.groups; ++i) {
      s.UpsertPod(testing::PodBuilder(in, "p" + std::to_string(i))
                      .Label("app", "g" + std::to_string(i))
                      .NodeName(nodes[i % 3])
                      .Build());
      want[i % 3] += 2;
    }
    DomainCounts counts(&s.topology_domains());
    const size_t k = counts.For(in.Find("host"));
    for (const auto& [key, group] : s.pod_label_index().groups()) {
      EXPECT_TRUE(counts.AddGroup(k, *group, 2));
    }
    EXPECT_EQ(counts.at(k).groups.size(), c.want_kept);
    std::vector<int64_t> got;
    for (const char* node : {"a", "b", "c", "d"}) got.push_back(counts.at(k).Get(Index(s, node)));
    EXPECT_EQ(got, want);
    EXPECT_FALSE(counts.empty());
  }
}

}  // namespace
}  // namespace domain_counts_test
}  // namespace sched::interpodaffinity
