#include "libsched/state/topology_domains.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
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


// A cluster that scales down: domain ids, the lowest free one first, and
// the room of the arrays by domain id and by node index, which is cut to
// the bound once the bound falls under half of it (node_index_room.h).
struct RoomStep {
  // "+n:h": node n added (or relabelled) with host h ("+n:": without the
  // key); "-n": node n removed.
  std::string change;
  size_t bound;     // the host key's bound() after it
  int domain = -1;  // for "+n:h": n's domain after it
  // After a cut: node_room() and domain_room(), each the bound it was cut
  // to. Unset: a removal keeps the room it found.
  std::optional<std::pair<size_t, size_t>> room = std::nullopt;
};

struct RoomCase {
  std::string name;
  std::vector<RoomStep> steps;
};

const std::vector<RoomCase>& RoomCases() {
  static const std::vector<RoomCase> cases = {
      {"the highest go: the bound falls, the room is cut once under half",
       {{"+a:ha", 1, 0}, {"+b:hb", 2, 1}, {"+c:hc", 3, 2}, {"+d:hd", 4, 3}, {"+e:he", 5, 4},
        {"+f:hf", 6, 5}, {"+g:hg", 7, 6}, {"+h:hh", 8, 7}, {"-h", 7}, {"-g", 6}, {"-f", 5},
        {"-e", 4}, {"-d", 3, -1, {{3, 3}}}, {"+i:hi", 4, 3}, {"+j:hj", 5, 4}}},
      {"a free id under the bound goes first, the lowest first",
       {{"+a:ha", 1, 0}, {"+b:hb", 2, 1}, {"+c:hc", 3, 2}, {"+d:hd", 4, 3}, {"-b", 4}, {"-a", 4},
        {"+e:he", 4, 0}, {"+f:hf", 4, 1}, {"+g:hg", 5, 4}}},
      {"the bound falls past the free ids right under the top",
       {{"+a:ha", 1, 0}, {"+b:hb", 2, 1}, {"+c:hc", 3, 2}, {"+d:hd", 4, 3}, {"-b", 4}, {"-c", 4},
        {"-d", 1, -1, {{1, 1}}}, {"+e:he", 2, 1}}},
      {"a domain of several nodes goes with its last",
       {{"+a:z1", 1, 0}, {"+b:z1", 1, 0}, {"+c:z2", 2, 1}, {"-c", 1}, {"-a", 1},
        {"-b", 0, -1, {{0, 0}}}, {"+d:z3", 1, 0}}},
      {"a relabel frees the old domain before it takes one",
       {{"+a:ha", 1, 0}, {"+b:hb", 2, 1}, {"+b:hc", 2, 1}, {"+a:hd", 2, 0}}},
      {"nodes without the key hold node indexes, not domains",
       {{"+a:ha", 1, 0}, {"+b:hb", 2, 1}, {"+c:", 2}, {"+d:", 2}, {"+e:", 2}, {"+f:", 2},
        {"-f", 2}, {"-e", 2}, {"-d", 2}, {"-c", 2}, {"-b", 1}}},
      {"every node goes, then nodes come back",
       {{"+a:ha", 1, 0}, {"+b:hb", 2, 1}, {"+c:hc", 3, 2}, {"+d:hd", 4, 3}, {"-d", 3}, {"-c", 2},
        {"-b", 1, -1, {{1, 1}}}, {"-a", 0}, {"+e:he", 1, 0}, {"+f:hf", 2, 1}}},
  };
  return cases;
}

void ApplyRoomStep(ClusterState& s, const RoomStep& step) {
  const size_t colon = step.change.find(':');
  const std::string name = step.change.substr(1, colon == std::string::npos ? colon : colon - 1);
  if (step.change[0] == '-') {
    ASSERT_TRUE(s.RemoveNode(name)) << step.change;
    return;
  }
  NodeBuilder b(s.interner(), name);
  if (colon + 1 < step.change.size()) b.Label("host", step.change.substr(colon + 1));
  s.UpsertNode(b.Build());
}

const TopologyDomains::Key& HostKey(const ClusterState& s) {
  return *s.topology_domains().Find(s.interner().Find("host"));
}

// The host key's node_room() and domain_room(); 0 without the key.
std::pair<size_t, size_t> Rooms(const ClusterState& s) {
  const TopologyDomains::Key* host = s.topology_domains().Find(s.interner().Find("host"));
  return host == nullptr ? std::pair<size_t, size_t>{0, 0}
                         : std::pair<size_t, size_t>{host->node_room(), host->domain_room()};
}

// `copied`: the state is a Clone, whose first change copies the domains
// with no more room than they use: a removal's room is not compared.
void ApplyRoomStepAndCheck(ClusterState& s, const RoomStep& step, bool copied = false) {
  SCOPED_TRACE(step.change);
  const std::pair<size_t, size_t> rooms = Rooms(s);
  ApplyRoomStep(s, step);
  const TopologyDomains::Key& host = HostKey(s);
  EXPECT_EQ(host.bound(), step.bound);
  if (step.domain >= 0) {
    const NodeInfo* info = s.FindNode(step.change.substr(1, step.change.find(':') - 1));
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(host.DomainOf(info->index()), static_cast<uint32_t>(step.domain));
  }
  if (step.room) {
    EXPECT_EQ(Rooms(s), *step.room);
  } else if (step.change[0] == '-' && !copied) {
    EXPECT_EQ(Rooms(s), rooms);
  }
}

// What the host key looks like: its bound, each node's domain and its
// value, and the domain a new value would take.
struct Domains {
  size_t bound = 0;
  std::map<std::string, std::pair<uint32_t, std::string>> of;
  uint32_t next = 0;
  bool operator==(const Domains&) const = default;
};

Domains Observe(ClusterState& s) {
  Domains out;
  const TopologyDomains::Key* host = s.topology_domains().Find(s.interner().Find("host"));
  if (host != nullptr) {
    out.bound = host->bound();
    for (const NodeInfo* ni : s.NodeList()) {
      const uint32_t d = host->DomainOf(ni->index());
      const bool none = d == TopologyDomains::kNone;
      out.of[ni->node()->name] = {d, none ? "" : s.interner().Str(host->ValueOf(d))};
    }
  }
  ClusterState::Batch probe(s);  // rolled back
  s.UpsertNode(NodeBuilder(s.interner(), "probe").Label("host", "probe").Build());
  out.next = HostKey(s).DomainOf(s.FindNode("probe")->index());
  return out;
}

// Each case from every point: the first steps as they come, the rest in a
// Batch (which sees what they would outside one) rolled back, which leaves
// the domains exactly as they were (the room no smaller), and the same
// rest in a Clone, which sees what the original would and changes nothing.
TEST(TopologyDomainsTest, ScaleDownCutsTheRoomUndoably) {
  for (const RoomCase& c : RoomCases()) {
    SCOPED_TRACE(c.name);
    for (size_t k = 0; k <= c.steps.size(); ++k) {
      SCOPED_TRACE("after " + std::to_string(k) + " steps");
      ClusterState s;
      for (size_t i = 0; i < k; ++i) ApplyRoomStepAndCheck(s, c.steps[i]);
      const Domains before = Observe(s);
      const std::pair<size_t, size_t> rooms = Rooms(s);
      {
        ClusterState::Batch batch(s);
        for (size_t i = k; i < c.steps.size(); ++i) ApplyRoomStepAndCheck(s, c.steps[i]);
      }  // not committed
      EXPECT_EQ(Observe(s), before);
      EXPECT_GE(Rooms(s).first, rooms.first);
      EXPECT_GE(Rooms(s).second, rooms.second);
      std::unique_ptr<ClusterState> clone = s.Clone();
      for (size_t i = k; i < c.steps.size(); ++i) ApplyRoomStepAndCheck(*clone, c.steps[i], true);
      EXPECT_EQ(Observe(s), before);
    }
  }
}

}  // namespace
}  // namespace topology_domains_test
}  // namespace sched
