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

}  // namespace
}  // namespace domain_counts_test
}  // namespace sched::interpodaffinity
