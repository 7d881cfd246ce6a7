#include "libsched/state/topology_domains.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace topology_domains_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// Each node's value of `key` through the index ("" when it has none), and
// checks that nodes with one value share one domain and others do not.
std::map<std::string, std::string> Dump(const ClusterState& s, const std::string& key) {
  const Interner& in = s.interner();
  std::map<std::string, std::string> out;
  const TopologyDomains::Key* k = s.topology_domains().Find(in.Find(key));
  std::map<uint32_t, Atom> value_of_domain;
  for (const NodeInfo* ni : s.NodeList()) {
    EXPECT_LT(ni->index(), s.NodeIndexBound());
    const std::optional<Atom> value = ni->node()->labels.Get(in.Find(key));
    const uint32_t d = k == nullptr ? TopologyDomains::kNone : k->DomainOf(ni->index());
    EXPECT_EQ(d == TopologyDomains::kNone, !value) << ni->node()->name;
    if (!value) continue;
    EXPECT_LT(d, k->bound());
    EXPECT_EQ(k->Find(*value), d);
    auto [it, inserted] = value_of_domain.emplace(d, *value);
    EXPECT_EQ(it->second, *value) << "two values share domain " << d;
    out[ni->node()->name] = in.Str(*value);
  }
  return out;
}

// Adds or relabels node `name`, in `zone` ("": without the key).
void UpsertNode(ClusterState& s, const std::string& name, const std::string& zone) {
  NodeBuilder b(s.interner(), name);
  if (!zone.empty()) b.Label("zone", zone);
  s.UpsertNode(b.Build());
}

TEST(TopologyDomainsTest, FollowNodesAddedRelabelledAndRemoved) {
  ClusterState s;
  Interner& in = s.interner();
  auto node = [&](const std::string& name, const std::string& zone) { UpsertNode(s, name, zone); };
  node("n1", "a");
  node("n2", "a");
  node("n3", "b");
  node("n4", "");
  using Want = std::map<std::string, std::string>;
  EXPECT_EQ(Dump(s, "zone"), (Want{{"n1", "a"}, {"n2", "a"}, {"n3", "b"}}));
  const TopologyDomains::Key* zone = s.topology_domains().Find(in.Find("zone"));
  ASSERT_NE(zone, nullptr);
  EXPECT_EQ(zone->bound(), 2u);
  EXPECT_EQ(s.topology_domains().Find(in.Intern("rack")), nullptr);

  // Relabelling moves a node; the last node of a domain frees its id,
  // which a new value reuses.
  node("n3", "a");
  EXPECT_EQ(zone->Find(in.Find("b")), TopologyDomains::kNone);
  node("n4", "c");
  EXPECT_EQ(zone->bound(), 2u);
  EXPECT_EQ(Dump(s, "zone"), (Want{{"n1", "a"}, {"n2", "a"}, {"n3", "a"}, {"n4", "c"}}));

  // A removed node has no domain; its index goes to the next NodeInfo.
  const uint32_t n1_index = s.FindNode("n1")->index();
  ASSERT_TRUE(s.RemoveNode("n1"));
  EXPECT_EQ(zone->DomainOf(n1_index), TopologyDomains::kNone);
  node("n5", "c");
  EXPECT_EQ(s.FindNode("n5")->index(), n1_index);
  EXPECT_EQ(Dump(s, "zone"), (Want{{"n2", "a"}, {"n3", "a"}, {"n4", "c"}, {"n5", "c"}}));
  EXPECT_EQ(s.NodeIndexBound(), 4u);
}

// A NodeInfo kept for the pods of a removed node keeps its index, and the
// node gets its domains back when it returns.
TEST(TopologyDomainsTest, NodeInfoHeldByPodsKeepsItsIndex) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Label("zone", "a").Build());
  s.UpsertPod(PodBuilder(in, "p").NodeName("n1").Build());
  const uint32_t index = s.FindNode("n1")->index();
  ASSERT_TRUE(s.RemoveNode("n1"));
  s.UpsertNode(NodeBuilder(in, "n2").Label("zone", "b").Build());
  EXPECT_NE(s.FindNode("n2")->index(), index);
  s.UpsertNode(NodeBuilder(in, "n1").Label("zone", "a").Build());
  EXPECT_EQ(s.FindNode("n1")->index(), index);
  EXPECT_EQ(Dump(s, "zone"), (std::map<std::string, std::string>{{"n1", "a"}, {"n2", "b"}}));
}

// OneNodePerDomain: true while no two nodes share a value, through
// relabels, removals and a Batch undone.
TEST(TopologyDomainsTest, OneNodePerDomainFollowsSharedValues) {
  ClusterState s;
  Interner& in = s.interner();
  auto node = [&](const std::string& name, const std::string& host) {
    s.UpsertNode(NodeBuilder(in, name).Label("host", host).Build());
  };
  node("n1", "h1");
  node("n2", "h2");
  const TopologyDomains::Key* host = s.topology_domains().Find(in.Find("host"));
  ASSERT_NE(host, nullptr);
  EXPECT_TRUE(host->OneNodePerDomain());
  node("n3", "h1");
  EXPECT_FALSE(host->OneNodePerDomain());
  node("n4", "h2");
  node("n3", "h3");  // h1 is one node again, h2 still two
  EXPECT_FALSE(host->OneNodePerDomain());
  ASSERT_TRUE(s.RemoveNode("n4"));
  EXPECT_TRUE(host->OneNodePerDomain());
  {
    ClusterState::Batch batch(s);  // not committed: undone
    node("n5", "h3");
    EXPECT_FALSE(host->OneNodePerDomain());
  }
  EXPECT_TRUE(host->OneNodePerDomain());
  EXPECT_EQ(s.FindNode("n5"), nullptr);
}

// num_domains and num_nodes follow adds, relabels and removals, and a
// Batch undone.
TEST(TopologyDomainsTest, CountsDomainsAndNodesWithTheKey) {
  ClusterState s;
  Interner& in = s.interner();
  auto node = [&](const std::string& name, const std::string& zone) { UpsertNode(s, name, zone); };
  node("n1", "a");
  const TopologyDomains::Key* zone = s.topology_domains().Find(in.Find("zone"));
  ASSERT_NE(zone, nullptr);
  struct Step {
    std::string name;
    std::function<void()> change;
    size_t domains;
    size_t nodes;
  };
  const std::vector<Step> steps = {
      {"a second node in a", [&] { node("n2", "a"); }, 1, 2},
      {"a node in b", [&] { node("n3", "b"); }, 2, 3},
      {"a node without the key", [&] { node("n4", ""); }, 2, 3},
      {"b relabelled to a", [&] { node("n3", "a"); }, 1, 3},
      {"the key dropped", [&] { node("n2", ""); }, 1, 2},
      {"the key given", [&] { node("n4", "c"); }, 2, 3},
      {"a node removed", [&] { ASSERT_TRUE(s.RemoveNode("n1")); }, 2, 2},
      {"a Batch undone",
       [&] {
         ClusterState::Batch batch(s);
         node("n5", "d");
         node("n3", "");
         ASSERT_TRUE(s.RemoveNode("n4"));
       },
       2, 2},
  };
  for (const Step& st : steps) {
    st.change();
    EXPECT_EQ(zone->num_domains(), st.domains) << st.name;
    EXPECT_EQ(zone->num_nodes(), st.nodes) << st.name;
  }
}

}  // namespace
}  // namespace topology_domains_test
}  // namespace sched
