#include "libsched/state/cluster_state.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace cluster_state_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

std::vector<std::string> Names(const ClusterState& s) {
  std::vector<std::string> out;
  for (const NodeInfo* ni : s.NodeList()) out.push_back(ni->node()->name);
  return out;
}

TEST(ClusterStateTest, AggregatesFollowPodsAddedAndRemoved) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Capacity(4000, 8LL << 30).Build());
  s.UpsertPod(PodBuilder(in, "p1").NodeName("n1").Container(500, 1LL << 30).HostPort(80).Build());
  s.UpsertPod(PodBuilder(in, "p2").NodeName("n1").Container(-1, -1).Build());

  const NodeInfo* ni = s.FindNode("n1");
  ASSERT_NE(ni, nullptr);
  EXPECT_EQ(ni->pods().size(), 2u);
  EXPECT_EQ(ni->requested().milli_cpu, 500);
  EXPECT_EQ(ni->requested().memory, 1LL << 30);
  // p2 has no requests: NonZeroRequested counts 100m / 200MiB for it.
  EXPECT_EQ(ni->non_zero_requested().milli_cpu, 600);
  EXPECT_EQ(ni->non_zero_requested().memory, (1LL << 30) + 200LL * 1024 * 1024);
  EXPECT_EQ(ni->used_ports().size(), 1u);

  const uint64_t gen = ni->generation();
  EXPECT_TRUE(s.RemovePod("default/p1"));
  EXPECT_GT(ni->generation(), gen);
  EXPECT_EQ(ni->requested().milli_cpu, 0);
  EXPECT_EQ(ni->non_zero_requested().milli_cpu, 100);
  EXPECT_TRUE(ni->used_ports().empty());
  EXPECT_FALSE(s.RemovePod("default/p1"));
}

// Requests near INT64_MAX (a quantity of "8Ei" is INT64_MAX bytes) on one
// node: the sums saturate instead of overflowing, and removing pods from a
// saturated sum leaves the exact sum of the rest, not INT64_MAX minus them.
TEST(ClusterStateTest, HugeRequestsSaturateAndStayExactAsPodsLeave) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kHalf = int64_t{1} << 62;  // "4Ei"
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Capacity(kMax, kMax).Scalar("example.com/gpu", kMax).Build());
  constexpr int kPods = 100;
  for (int i = 0; i < kPods; ++i) {
    s.UpsertPod(PodBuilder(in, "p" + std::to_string(i))
                    .NodeName("n1")
                    .Container(kHalf, kHalf, {{"example.com/gpu", kHalf}})
                    .Build());
  }
  const NodeInfo* ni = s.FindNode("n1");
  const Atom gpu = in.Find("example.com/gpu");
  EXPECT_EQ(ni->requested().milli_cpu, kMax);
  EXPECT_EQ(ni->requested().memory, kMax);
  EXPECT_EQ(ni->requested().Scalar(gpu), kMax);
  EXPECT_EQ(ni->non_zero_requested().memory, kMax);

  struct Step {
    int remaining;
    int64_t want;
  };
  for (const Step& step : {Step{2, kMax}, Step{1, kHalf}, Step{0, 0}}) {
    for (int i = step.remaining; i < kPods; ++i) s.RemovePod("default/p" + std::to_string(i));
    SCOPED_TRACE(step.remaining);
    EXPECT_EQ(ni->requested().milli_cpu, step.want);
    EXPECT_EQ(ni->requested().memory, step.want);
    EXPECT_EQ(ni->requested().Scalar(gpu), step.want);
    EXPECT_EQ(ni->non_zero_requested().milli_cpu, step.want);
    EXPECT_EQ(ni->non_zero_requested().memory, step.want);
  }
}

TEST(ClusterStateTest, UpsertPodReplacesByKeyAndMovesNodes) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Build());
  s.UpsertNode(NodeBuilder(in, "n2").Build());
  s.UpsertPod(PodBuilder(in, "p").NodeName("n1").Container(100, 0).Build());
  s.UpsertPod(PodBuilder(in, "p").NodeName("n2").Container(300, 0).Build());
  EXPECT_EQ(s.FindNode("n1")->requested().milli_cpu, 0);
  EXPECT_EQ(s.FindNode("n2")->requested().milli_cpu, 300);
  EXPECT_EQ(s.NumPods(), 1u);
  // An update without nodeName means the pod is no longer bound here.
  s.UpsertPod(PodBuilder(in, "p").Build());
  EXPECT_EQ(s.FindNode("n2")->requested().milli_cpu, 0);
  EXPECT_EQ(s.NumPods(), 0u);
}

TEST(ClusterStateTest, PodsOfUnknownNodesWaitForTheirNode) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertPod(PodBuilder(in, "p").NodeName("later").Container(250, 0).Build());
  EXPECT_EQ(s.FindNode("later"), nullptr);
  EXPECT_EQ(s.NumNodes(), 0u);
  s.UpsertNode(NodeBuilder(in, "later").Build());
  ASSERT_NE(s.FindNode("later"), nullptr);
  EXPECT_EQ(s.FindNode("later")->requested().milli_cpu, 250);
  // Removing the node keeps the pod; the node's return finds it again.
  EXPECT_TRUE(s.RemoveNode("later"));
  EXPECT_EQ(s.FindNode("later"), nullptr);
  s.UpsertNode(NodeBuilder(in, "later").Build());
  EXPECT_EQ(s.FindNode("later")->pods().size(), 1u);
  EXPECT_FALSE(s.RemoveNode("never"));
}

TEST(ClusterStateTest, NodeListFollowsZonesAndZoneChanges) {
  ClusterState s;
  Interner& in = s.interner();
  auto zoned = [&](const std::string& n, const std::string& z) {
    return NodeBuilder(in, n).Label("topology.kubernetes.io/zone", z).Build();
  };
  s.UpsertNode(zoned("a1", "a"));
  s.UpsertNode(zoned("a2", "a"));
  s.UpsertNode(zoned("b1", "b"));
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2"}));
  s.SnapshotTaken();
  // A zone change re-appends the node in its new zone, but the walk order
  // stays until a node is added or removed (UpdateSnapshot's updateAllLists).
  s.UpsertNode(zoned("a1", "b"));
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2"}));
  s.UpsertNode(zoned("a2", "a"));  // same zone: order unchanged
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2"}));
  s.UpsertNode(zoned("c1", "c"));
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a2", "b1", "c1", "a1"}));
  s.SnapshotTaken();
  s.RemoveNode("c1");
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a2", "b1", "a1"}));
}

// The walk the next cycle takes after the events between two cycles, as
// upstream's UpdateSnapshot lists it: the node tree as it is then (zone
// changes included) if the node set differs from the last snapshot's, else
// the last snapshot's order. The first two cases are the event orders of
// difftest sequences 1-0 (seed 1, step 137) and 6-1 (seed 6, step 235).
TEST(ClusterStateTest, NodeListAtTheNextCycleFollowsUpdateSnapshot) {
  struct Event {
    enum { kAdd, kRemove, kZone, kSnapshot } op;
    std::string node, zone;
  };
  const struct {
    std::string name;
    bool batch;  // the events in one Apply
    std::vector<Event> events;
    std::vector<std::string> want;
  } cases[] = {
      {"add, then a zone change",
       false,
       {{Event::kAdd, "c1", "c"}, {Event::kZone, "a1", "b"}},
       {"a2", "b1", "c1", "b2", "a1"}},
      {"remove, then a zone change",
       false,
       {{Event::kRemove, "b2", ""}, {Event::kZone, "a1", "b"}},
       {"a2", "b1", "a1"}},
      {"both in one batch",
       true,
       {{Event::kAdd, "c1", "c"}, {Event::kZone, "a1", "b"}},
       {"a2", "b1", "c1", "b2", "a1"}},
      {"a zone change, then add",
       false,
       {{Event::kZone, "a1", "b"}, {Event::kAdd, "c1", "c"}},
       {"a2", "b1", "c1", "b2", "a1"}},
      {"a zone change alone", false, {{Event::kZone, "a1", "b"}}, {"a1", "b1", "a2", "b2"}},
      {"a zone change in the next gap",
       false,
       {{Event::kAdd, "c1", "c"}, {Event::kSnapshot, "", ""}, {Event::kZone, "a1", "b"}},
       {"a1", "b1", "c1", "a2", "b2"}},
      // What came or went before a snapshot is not counted after it.
      {"removed and added again in the next gap",
       false,
       {{Event::kAdd, "c1", "c"},
        {Event::kSnapshot, "", ""},
        {Event::kRemove, "a1", ""},
        {Event::kAdd, "a1", "a"}},
       {"a1", "b1", "c1", "a2", "b2"}},
      {"added and removed again",
       false,
       {{Event::kAdd, "c1", "c"}, {Event::kZone, "a1", "b"}, {Event::kRemove, "c1", ""}},
       {"a1", "b1", "a2", "b2"}},
      {"removed and added again",
       false,
       {{Event::kRemove, "a1", ""}, {Event::kAdd, "a1", "a"}},
       {"a1", "b1", "a2", "b2"}},
      // a1's NodeInfo index goes to c1, a1 comes back under a new one.
      {"removed, its index reused, added again",
       false,
       {{Event::kRemove, "a1", ""},
        {Event::kAdd, "c1", "c"},
        {Event::kAdd, "a1", "a"},
        {Event::kRemove, "c1", ""}},
       {"a1", "b1", "a2", "b2"}},
      {"the same in one batch",
       true,
       {{Event::kRemove, "a1", ""},
        {Event::kAdd, "c1", "c"},
        {Event::kAdd, "a1", "a"},
        {Event::kRemove, "c1", ""}},
       {"a1", "b1", "a2", "b2"}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState s;
    Interner& in = s.interner();
    auto zoned = [&](const std::string& n, const std::string& z) {
      return NodeBuilder(in, n).Label("topology.kubernetes.io/zone", z).Build();
    };
    for (const char* n : {"a1", "b1", "a2", "b2"}) s.UpsertNode(zoned(n, std::string(1, n[0])));
    ASSERT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2", "b2"}));
    s.SnapshotTaken();
    {
      std::optional<ClusterState::Batch> batch;
      if (c.batch) batch.emplace(s);
      for (const Event& e : c.events) {
        switch (e.op) {
          case Event::kAdd:
          case Event::kZone:
            s.UpsertNode(zoned(e.node, e.zone));
            break;
          case Event::kRemove:
            ASSERT_TRUE(s.RemoveNode(e.node));
            break;
          case Event::kSnapshot:
            s.SnapshotTaken();
            break;
        }
      }
      if (batch) batch->Commit();
    }
    EXPECT_EQ(Names(s), c.want);
  }
}

TEST(ClusterStateTest, ImageNodeCountsTrackNodes) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Image({"nginx:1", "nginx@sha256:x"}, 100).Build());
  s.UpsertNode(NodeBuilder(in, "n2").Image({"nginx:1"}, 100).Image({"nginx:1"}, 100).Build());
  const Atom nginx = in.Find("nginx:1");
  EXPECT_EQ(s.ImageNumNodes(nginx), 2);
  EXPECT_EQ(s.FindNode("n2")->ImageSize(nginx), 100);
  s.UpsertNode(NodeBuilder(in, "n2").Build());
  EXPECT_EQ(s.ImageNumNodes(nginx), 1);
  EXPECT_FALSE(s.FindNode("n2")->ImageSize(nginx).has_value());
  s.RemoveNode("n1");
  EXPECT_EQ(s.ImageNumNodes(nginx), 0);
}

TEST(ClusterStateTest, EveryChangeBumpsTheGeneration) {
  ClusterState s;
  Interner& in = s.interner();
  uint64_t g = s.generation();
  s.UpsertNode(NodeBuilder(in, "n1").Build());
  EXPECT_GT(s.generation(), g);
  g = s.generation();
  s.UpsertPod(PodBuilder(in, "p").NodeName("n1").Build());
  EXPECT_GT(s.generation(), g);
  g = s.generation();
  s.RemovePod("default/p");
  EXPECT_GT(s.generation(), g);
}

}  // namespace
}  // namespace cluster_state_test
}  // namespace sched

namespace sched {
namespace cluster_state_test {
namespace {

// A node named `name` in `zone`, interned in `s`.
std::shared_ptr<const Node> ZonedNode(ClusterState& s, const std::string& name,
                                      const std::string& zone) {
  return testing::NodeBuilder(s.interner(), name)
      .Label("topology.kubernetes.io/zone", zone)
      .Build();
}

TEST(ClusterStateTest, BatchDefersTheNodeListUntilItEnds) {
  ClusterState s;
  Interner& in = s.interner();
  {
    ClusterState::Batch batch(s);
    s.UpsertNode(testing::NodeBuilder(in, "a1").Label("topology.kubernetes.io/zone", "a").Build());
    s.UpsertNode(testing::NodeBuilder(in, "b1").Label("topology.kubernetes.io/zone", "b").Build());
    s.UpsertNode(testing::NodeBuilder(in, "a2").Label("topology.kubernetes.io/zone", "a").Build());
    EXPECT_TRUE(s.NodeList().empty());  // not rebuilt yet
    batch.Commit();
  }
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2"}));
  {
    ClusterState::Batch batch(s);
    s.RemoveNode("b1");
    batch.Commit();
  }
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "a2"}));
}

// The node tree's changes are recorded one by one: a Batch of many node
// changes that is not committed restores the tree and the walk as they
// were, and so does the next one.
TEST(ClusterStateTest, UncommittedBatchesRestoreTheNodeTree) {
  ClusterState s;
  {
    ClusterState::Batch batch(s);
    s.UpsertNode(ZonedNode(s, "a1", "a"));
    s.UpsertNode(ZonedNode(s, "b1", "b"));
    batch.Commit();
  }
  for (int round = 0; round < 2; ++round) {
    {
      ClusterState::Batch batch(s);
      s.UpsertNode(ZonedNode(s, "a2", "a"));
      s.RemoveNode("b1");
      s.UpsertNode(ZonedNode(s, "a1", "c"));  // a zone change
      for (int i = 0; i < 50; ++i) s.UpsertNode(ZonedNode(s, "x" + std::to_string(i), "x"));
    }  // not committed
    EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1"})) << "round " << round;
  }
  {
    ClusterState::Batch batch(s);
    s.UpsertNode(ZonedNode(s, "a2", "a"));
    batch.Commit();
  }
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2"}));
}

// A nested Batch that changed the tree and rolled back, then the Batch
// around it: both undone.
TEST(ClusterStateTest, OuterBatchRestoresTheTreeAfterANestedRollback) {
  ClusterState s;
  {
    ClusterState::Batch batch(s);
    s.UpsertNode(ZonedNode(s, "a1", "a"));
    batch.Commit();
  }
  {
    ClusterState::Batch outer(s);
    {
      ClusterState::Batch nested(s);
      s.UpsertNode(ZonedNode(s, "b1", "b"));
    }  // rolled back
    s.UpsertNode(ZonedNode(s, "c1", "c"));
  }  // rolled back
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1"}));
  ClusterState::Batch batch(s);
  s.UpsertNode(ZonedNode(s, "d1", "d"));
  batch.Commit();
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "d1"}));
}

// AddNodeListed: the node joins NodeList() (and NodeIndexList()) at once,
// at the end; the uncommitted Batch takes it out again, a committed one
// leaves the walk's order (the tree's).
TEST(ClusterStateTest, AddNodeListedJoinsTheNodeListAtOnce) {
  ClusterState s;
  {
    ClusterState::Batch batch(s);
    s.UpsertNode(ZonedNode(s, "a1", "a"));
    s.UpsertNode(ZonedNode(s, "a2", "a"));
    batch.Commit();
  }
  const uint64_t generation = s.generation();
  {
    ClusterState::Batch batch(s);
    s.AddNodeListed(ZonedNode(s, "b1", "b"));
    EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "a2", "b1"}));
    ASSERT_EQ(s.NodeIndexList().size(), 3u);
    EXPECT_EQ(s.NodeIndexList()[2], s.FindNode("b1")->index());
  }  // not committed
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(s.NodeIndexList().size(), 2u);
  EXPECT_EQ(s.generation(), generation);
  {
    ClusterState::Batch batch(s);
    s.AddNodeListed(ZonedNode(s, "b1", "b"));
    batch.Commit();
  }
  EXPECT_EQ(Names(s), (std::vector<std::string>{"a1", "b1", "a2"}));
}

// NodeInfo.PodsWithAffinity / PodsWithRequiredAntiAffinity follow the pods
// (framework/types.go podWithAffinity, podWithRequiredAntiAffinity).
TEST(ClusterStateTest, PodsWithAffinityFollowPods) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Build());
  const AffinityTerm term = testing::PodTerm(in, "zone", {});
  s.UpsertPod(PodBuilder(in, "plain").NodeName("n1").Build());
  s.UpsertPod(PodBuilder(in, "pref").NodeName("n1").PreferredPodAntiAffinity(1, term).Build());
  s.UpsertPod(PodBuilder(in, "anti").NodeName("n1").RequiredPodAntiAffinity(term).Build());
  s.UpsertPod(PodBuilder(in, "aff").NodeName("n1").RequiredPodAffinity(term).Build());
  auto names = [](const std::vector<const Pod*>& pods) {
    std::vector<std::string> out;
    for (const Pod* p : pods) out.push_back(p->name);
    std::sort(out.begin(), out.end());
    return out;
  };
  const NodeInfo* ni = s.FindNode("n1");
  EXPECT_EQ(names(ni->pods_with_affinity()), (std::vector<std::string>{"aff", "anti", "pref"}));
  EXPECT_EQ(names(ni->pods_with_required_anti_affinity()), std::vector<std::string>{"anti"});

  // Replacing a pod with one without affinity drops it from both lists.
  s.UpsertPod(PodBuilder(in, "anti").NodeName("n1").Build());
  EXPECT_EQ(names(ni->pods_with_affinity()), (std::vector<std::string>{"aff", "pref"}));
  EXPECT_TRUE(ni->pods_with_required_anti_affinity().empty());
  EXPECT_TRUE(s.RemovePod("default/aff"));
  EXPECT_EQ(names(ni->pods_with_affinity()), std::vector<std::string>{"pref"});
}

// All of a NodeInfo, in order, for comparing one with itself.
struct NodeInfoFields {
  std::vector<std::string> pods, with_affinity, with_anti_affinity;
  Resource requested, non_zero_requested;
  std::vector<HostPort> used_ports;
  std::vector<std::string> labels;
  uint64_t generation = 0;
  bool operator==(const NodeInfoFields&) const = default;
};
NodeInfoFields FieldsOf(const NodeInfo& ni) {
  auto names = [](const auto& pods) {
    std::vector<std::string> out;
    for (const auto& p : pods) out.push_back(p->name);
    return out;
  };
  std::vector<std::string> labels;
  if (ni.node() != nullptr) {
    for (const auto& [k, v] : ni.node()->labels.entries()) {
      labels.push_back(std::to_string(k) + "=" + std::to_string(v));
    }
  } else {
    labels.push_back("no node");
  }
  return {names(ni.pods()),   names(ni.pods_with_affinity()),
          names(ni.pods_with_required_anti_affinity()),
          ni.requested(),     ni.non_zero_requested(),
          ni.used_ports(),    labels,
          ni.generation()};
}

// Pods assumed and removed, the node changed or removed in a Batch, each
// undone as a change (NodeInfo's own records): a rollback restores every
// field, in order, and a commit keeps what the change makes unrecorded.
TEST(ClusterStateTest, RollbackRestoresTheNodeInfoOfAnAssumedPod) {
  struct Case {
    const char* name;
    std::function<void(ClusterState&)> change;
  };
  auto pod = [](ClusterState& s, const std::string& name) {
    return PodBuilder(s.interner(), name).NodeName("n1").Container(100, 1 << 20);
  };
  const std::vector<Case> cases = {
      {"plain", [&](ClusterState& s) { s.AssumePod(pod(s, "new").Build()); }},
      {"port in use, affinity, anti-affinity",
       [&](ClusterState& s) {
         s.AssumePod(pod(s, "new")
                         .HostPort(80)
                         .HostPort(81)
                         .RequiredPodAffinity(testing::PodTerm(s.interner(), "zone", {}))
                         .RequiredPodAntiAffinity(testing::PodTerm(s.interner(), "zone", {}))
                         .Build());
       }},
      {"scalar requests",
       [&](ClusterState& s) {
         s.AssumePod(PodBuilder(s.interner(), "new")
                         .NodeName("n1")
                         .Container(100, 1 << 20, {{"example.com/gpu", 1}, {"example.com/new", 2}})
                         .Build());
       }},
      {"two pods, then an older pod removed",
       [&](ClusterState& s) {
         s.AssumePod(pod(s, "new").HostPort(80).Build());
         s.AssumePod(pod(s, "newer").Build());
         s.RemovePod("default/a");
         s.AssumePod(pod(s, "newest").Build());
       }},
      {"removed, then assumed",
       [&](ClusterState& s) {
         s.RemovePod("default/b");
         s.AssumePod(pod(s, "new").Build());
       }},
      {"both removed",
       [&](ClusterState& s) {
         s.RemovePod("default/a");
         s.RemovePod("default/b");
       }},
      {"node relabelled, then a pod assumed",
       [&](ClusterState& s) {
         s.UpsertNode(NodeBuilder(s.interner(), "n1").Label("zone", "z2").Build());
         s.AssumePod(pod(s, "new").Build());
       }},
      {"node removed, then a pod removed", [&](ClusterState& s) {
         s.RemoveNode("n1");
         s.RemovePod("default/a");
       }},
  };
  auto build = [&]() {
    auto s = std::make_unique<ClusterState>();
    Interner& in = s->interner();
    s->UpsertNode(NodeBuilder(in, "n1").Label("zone", "z1").Capacity(4000, 8LL << 30).Build());
    s->UpsertPod(PodBuilder(in, "a")
                     .NodeName("n1")
                     .Container(200, 1 << 20)
                     .HostPort(80)
                     .RequiredPodAffinity(testing::PodTerm(in, "zone", {}))
                     .Build());
    s->UpsertPod(PodBuilder(in, "b")
                     .NodeName("n1")
                     .Container(300, 2 << 20, {{"example.com/gpu", 1}})
                     .RequiredPodAntiAffinity(testing::PodTerm(in, "zone", {}))
                     .Build());
    return s;
  };
  for (const Case& c : cases) {
    for (const bool nested : {false, true}) {
      auto plain = build();
      c.change(*plain);
      const NodeInfoFields changed = FieldsOf(*plain->FindNodeInfo("n1"));

      auto s = build();
      const NodeInfoFields before = FieldsOf(*s->FindNodeInfo("n1"));
      ASSERT_NE(changed, before) << c.name;
      {
        ClusterState::Batch outer(*s);
        std::optional<ClusterState::Batch> inner;
        if (nested) inner.emplace(*s);
        c.change(*s);
        EXPECT_EQ(FieldsOf(*s->FindNodeInfo("n1")), changed) << c.name;
        if (nested) inner->Commit();
      }
      EXPECT_EQ(FieldsOf(*s->FindNodeInfo("n1")), before) << c.name << " nested " << nested;
      {
        ClusterState::Batch batch(*s);
        c.change(*s);
        batch.Commit();
      }
      EXPECT_EQ(FieldsOf(*s->FindNodeInfo("n1")), changed) << c.name;
    }
  }
}

TEST(ClusterStateTest, NamespacesAndTheirLabels) {
  ClusterState s;
  Interner& in = s.interner();
  auto ns = std::make_shared<Namespace>();
  ns->name = "team-a";
  ns->name_atom = in.Intern("team-a");
  ns->labels = LabelSet({{in.Intern("team"), in.Intern("a")}});
  const uint64_t gen = s.generation();
  s.UpsertNamespace(ns);
  EXPECT_GT(s.generation(), gen);
  EXPECT_EQ(s.NamespaceLabels(in.Intern("team-a")).Get(in.Intern("team")), in.Intern("a"));
  EXPECT_TRUE(s.NamespaceLabels(in.Intern("other")).empty()) << "unknown: no labels";
  EXPECT_EQ(s.namespaces().size(), 1u);
  EXPECT_FALSE(s.RemoveNamespace("other"));
  EXPECT_FALSE(s.RemoveNamespace("never-interned"));
  EXPECT_TRUE(s.RemoveNamespace("team-a"));
  EXPECT_TRUE(s.NamespaceLabels(in.Intern("team-a")).empty());
}

TEST(ClusterStateTest, WorkloadsByKindAndNamespace) {
  ClusterState cs;
  auto add = [&](WorkloadKind kind, const std::string& ns, const std::string& name) {
    auto w = std::make_shared<Workload>();
    w->kind = kind;
    w->ns = ns;
    w->name = name;
    cs.UpsertWorkload(std::move(w));
  };
  add(WorkloadKind::kService, "a", "s2");
  add(WorkloadKind::kService, "a", "s1");
  add(WorkloadKind::kService, "ab", "s3");  // "ab/..." is not in namespace "a"
  add(WorkloadKind::kReplicaSet, "a", "s1");
  std::vector<std::string> names;
  cs.ForEachWorkloadIn(WorkloadKind::kService, "a",
                       [&](const Workload& w) { names.push_back(w.name); });
  EXPECT_EQ(names, (std::vector<std::string>{"s1", "s2"}));
  EXPECT_NE(cs.FindWorkload(WorkloadKind::kReplicaSet, "a", "s1"), nullptr);
  EXPECT_EQ(cs.FindWorkload(WorkloadKind::kStatefulSet, "a", "s1"), nullptr);
  const uint64_t gen = cs.generation();
  EXPECT_TRUE(cs.RemoveWorkload(WorkloadKind::kReplicaSet, "a/s1"));
  EXPECT_GT(cs.generation(), gen);
  EXPECT_FALSE(cs.RemoveWorkload(WorkloadKind::kReplicaSet, "a/s1"));
  EXPECT_NE(cs.FindWorkload(WorkloadKind::kService, "a", "s1"), nullptr);  // other kind kept
}

// workload_generation() (what DefaultSelector is kept under): new on every
// workload change and only then, back to the old value when a Batch that
// changed the workloads rolls back, never shared by two states with other
// workloads (a Clone keeps it until either side changes them).
TEST(ClusterStateTest, WorkloadGenerationFollowsTheWorkloads) {
  ClusterState a, b;
  EXPECT_NE(a.workload_generation(), b.workload_generation());
  auto service = [](const std::string& name) {
    auto w = std::make_shared<Workload>();
    w->ns = "ns";
    w->name = name;
    return w;
  };
  const uint64_t empty = a.workload_generation();
  a.UpsertNamespace(std::make_shared<Namespace>());  // not a workload
  EXPECT_EQ(a.workload_generation(), empty);
  a.UpsertWorkload(service("s1"));
  const uint64_t one = a.workload_generation();
  EXPECT_NE(one, empty);
  {
    ClusterState::Batch batch(a);
    a.UpsertWorkload(service("s2"));
    EXPECT_NE(a.workload_generation(), one);
    EXPECT_TRUE(a.RemoveWorkload(WorkloadKind::kService, "ns/s1"));
  }  // rolled back
  EXPECT_EQ(a.workload_generation(), one);
  EXPECT_NE(a.FindWorkload(WorkloadKind::kService, "ns", "s1"), nullptr);
  std::unique_ptr<ClusterState> c = a.Clone();
  EXPECT_EQ(c->workload_generation(), one);
  c->UpsertWorkload(service("s3"));
  a.UpsertWorkload(service("s4"));
  EXPECT_NE(c->workload_generation(), a.workload_generation());
  EXPECT_NE(c->workload_generation(), one);
  EXPECT_FALSE(a.RemoveWorkload(WorkloadKind::kService, "ns/none"));
}

}  // namespace
}  // namespace cluster_state_test
}  // namespace sched

namespace sched {
namespace cluster_state_test {
namespace {

// Clone shares every NodeInfo; a change clones only the NodeInfo it
// touches, on the side that makes it, and that side's node list and
// NodeAt name the clone. A rollback returns to sharing.
TEST(ClusterStateCloneTest, AChangeClonesOnlyTheNodeItTouches) {
  ClusterState s;
  Interner& in = s.interner();
  for (const char* n : {"n1", "n2", "n3"}) {
    s.UpsertNode(NodeBuilder(in, n).Capacity(4000, 8LL << 30).Build());
    s.UpsertPod(PodBuilder(in, std::string("p-") + n).Label("app", "a").NodeName(n).Build());
  }
  std::unique_ptr<ClusterState> c = s.Clone();
  for (const char* n : {"n1", "n2", "n3"}) EXPECT_EQ(c->FindNode(n), s.FindNode(n)) << n;
  EXPECT_EQ(c->NodeList(), s.NodeList());

  {
    ClusterState::Batch b(*c);
    c->UpsertPod(PodBuilder(in, "q").Label("app", "a").NodeName("n2").Build());
  }  // rolled back
  EXPECT_EQ(c->FindNode("n2"), s.FindNode("n2"));
  EXPECT_EQ(c->NodeList(), s.NodeList());

  c->UpsertPod(PodBuilder(in, "q").Label("app", "a").NodeName("n2").Build());
  const NodeInfo* mine = c->FindNode("n2");
  EXPECT_NE(mine, s.FindNode("n2"));
  EXPECT_EQ(mine->pods().size(), 2u);
  EXPECT_EQ(s.FindNode("n2")->pods().size(), 1u);
  EXPECT_EQ(c->FindNode("n1"), s.FindNode("n1"));
  EXPECT_EQ(c->NodeAt(mine->index()), mine);
  EXPECT_NE(std::find(c->NodeList().begin(), c->NodeList().end(), mine), c->NodeList().end());
  EXPECT_EQ(std::find(s.NodeList().begin(), s.NodeList().end(), mine), s.NodeList().end());
  EXPECT_TRUE(c->HasPod("default/q"));
  EXPECT_FALSE(s.HasPod("default/q"));
  EXPECT_EQ(c->NumPods(), 4u);
  EXPECT_EQ(s.NumPods(), 3u);

  // The original's changes stay out of the copy, node removal included.
  EXPECT_TRUE(s.RemoveNode("n1"));
  EXPECT_TRUE(s.RemovePod("default/p-n3"));
  EXPECT_EQ(c->NumNodes(), 3u);
  ASSERT_NE(c->FindNode("n1"), nullptr);
  EXPECT_EQ(c->FindNode("n3")->pods().size(), 1u);
  EXPECT_TRUE(c->HasPod("default/p-n3"));
  EXPECT_EQ(Names(*c), (std::vector<std::string>{"n1", "n2", "n3"}));
  EXPECT_EQ(Names(s), (std::vector<std::string>{"n2", "n3"}));
}

// A Clone made while a Batch is open shares nothing the Batch may roll
// back into: the original's rollback leaves the copy as it was.
TEST(ClusterStateCloneTest, ACloneInsideABatchSurvivesItsRollback) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Capacity(4000, 8LL << 30).Build());
  std::unique_ptr<ClusterState> c;
  {
    ClusterState::Batch b(s);
    s.UpsertPod(PodBuilder(in, "p").Label("app", "a").NodeName("n1").Build());
    c = s.Clone();
    EXPECT_NE(c->FindNode("n1"), s.FindNode("n1"));
    // The copy's walk and NodeAt name its own NodeInfo.
    ASSERT_EQ(c->NodeList().size(), 1u);
    EXPECT_EQ(c->NodeList()[0], c->FindNode("n1"));
    EXPECT_EQ(c->NodeAt(c->FindNode("n1")->index()), c->FindNode("n1"));
    s.UpsertPod(PodBuilder(in, "p2").Label("app", "b").NodeName("n1").Build());
  }  // rolled back
  EXPECT_TRUE(s.FindNode("n1")->pods().empty());
  EXPECT_TRUE(s.pod_label_index().groups().empty());
  ASSERT_EQ(c->FindNode("n1")->pods().size(), 1u);
  EXPECT_EQ(c->pod_label_index().groups().size(), 1u);
  EXPECT_TRUE(c->HasPod("default/p"));
  EXPECT_FALSE(c->HasPod("default/p2"));
}

// Every kind of object a Clone shares, written in a Batch before the
// Clone: the Batch's rollback leaves each in the copy (a member Clone or
// UnshareAll missed would lose it there).
TEST(ClusterStateCloneTest, ACloneInsideABatchKeepsEveryKindOfObject) {
  ClusterState s;
  Interner& in = s.interner();
  std::unique_ptr<ClusterState> c;
  {
    ClusterState::Batch b(s);
    auto ns = std::make_shared<Namespace>();
    ns->name = "d";
    ns->name_atom = in.Intern("d");
    s.UpsertNamespace(ns);
    for (int k = 0; k < kNumWorkloadKinds; ++k) {
      auto w = std::make_shared<Workload>();
      w->kind = static_cast<WorkloadKind>(k);
      w->ns = "d";
      w->name = "x";
      s.UpsertWorkload(w);
    }
    auto named = [](auto obj) {
      obj->name = "x";
      return obj;
    };
    auto in_ns = [&](auto obj) {
      obj->ns = "d";
      return named(obj);
    };
    s.UpsertPdb(in_ns(std::make_shared<PodDisruptionBudget>()));
    s.UpsertPersistentVolume(named(std::make_shared<PersistentVolume>()));
    s.UpsertPersistentVolumeClaim(in_ns(std::make_shared<PersistentVolumeClaim>()));
    s.UpsertStorageClass(named(std::make_shared<StorageClass>()));
    s.UpsertCSINode(named(std::make_shared<CSINode>()));
    s.UpsertCSIDriver(named(std::make_shared<CSIDriver>()));
    s.UpsertCSIStorageCapacity(in_ns(std::make_shared<CSIStorageCapacity>()));
    auto va = named(std::make_shared<VolumeAttachment>());
    va->node_name = "n";
    s.UpsertVolumeAttachment(va);
    s.UpsertResourceClaim(in_ns(std::make_shared<ResourceClaim>()));
    s.UpsertResourceClaimTemplate(in_ns(std::make_shared<ResourceClaimTemplate>()));
    s.UpsertDeviceClass(named(std::make_shared<DeviceClass>()));
    s.UpsertResourceSlice(named(std::make_shared<ResourceSlice>()));
    c = s.Clone();
  }  // rolled back
  EXPECT_TRUE(s.pdbs().empty());
  EXPECT_EQ(c->pdbs().size(), 1u);
  EXPECT_EQ(c->namespaces().size(), 1u);
  for (int k = 0; k < kNumWorkloadKinds; ++k) {
    EXPECT_NE(c->FindWorkload(static_cast<WorkloadKind>(k), "d", "x"), nullptr) << k;
  }
  EXPECT_NE(c->FindPersistentVolume("x"), nullptr);
  EXPECT_NE(c->FindPersistentVolumeClaim("d", "x"), nullptr);
  EXPECT_NE(c->FindStorageClass("x"), nullptr);
  EXPECT_NE(c->FindCSINode("x"), nullptr);
  EXPECT_NE(c->FindCSIDriver("x"), nullptr);
  EXPECT_EQ(c->csi_storage_capacities().size(), 1u);
  EXPECT_EQ(c->volume_attachments().size(), 1u);
  EXPECT_EQ(c->resource_claims().size(), 1u);
  EXPECT_EQ(c->resource_claim_templates().size(), 1u);
  EXPECT_EQ(c->device_classes().size(), 1u);
  EXPECT_EQ(c->resource_slices().size(), 1u);
  EXPECT_EQ(s.generation(), 0u);
  EXPECT_EQ(c->generation(), 13u + kNumWorkloadKinds);  // one per object
}

}  // namespace
}  // namespace cluster_state_test
}  // namespace sched

namespace sched {
namespace cluster_state_test {
namespace {

// A group's name in the maps below: namespace and label atoms.
std::string GroupName(const std::string& ns, const LabelSet& labels) {
  std::string out = ns;
  for (const auto& [key, value] : labels.entries()) {
    out += "|" + std::to_string(key) + "=" + std::to_string(value);
  }
  return out;
}

// PodLabelIndex::Group::pairs recomputed from the NodeInfos: each group's
// pods per label (key, value) of their node, for keys that some two nodes
// share a value of.
std::map<std::pair<std::string, uint64_t>, int64_t> PairsFromScratch(const ClusterState& s) {
  std::map<std::pair<std::string, uint64_t>, int64_t> out;
  s.ForEachNodeInfo([&](const std::string&, const NodeInfo& info) {
    if (info.node() == nullptr) return;
    for (const auto& pod : info.pods()) {
      for (const auto& [key, value] : info.node()->labels.entries()) {
        const TopologyDomains::Key* d = s.topology_domains().Find(key);
        if (d == nullptr || d->OneNodePerDomain()) continue;
        ++out[{GroupName(pod->ns, pod->labels),
               PodLabelIndex::Pair(key, value)}];
      }
    }
  });
  return out;
}

std::map<std::pair<std::string, uint64_t>, int64_t> PairsOfIndex(const ClusterState& s) {
  std::map<std::pair<std::string, uint64_t>, int64_t> out;
  for (const auto& [key, group] : s.pod_label_index().groups()) {
    for (const auto& [pair, count] : group->pairs) {
      EXPECT_GT(count, 0);
      out[{GroupName(group->sample.ns, group->sample.labels), pair}] += count;
    }
  }
  return out;
}

// Random nodes (zone and rack labels whose values become shared and stop
// being so, nodes relabelled, removed and re-added) and pods (on known and
// unknown nodes), some changes in Batches rolled back: after each step the
// groups' label pairs are what the NodeInfos say. Fails when a node
// change does not move its pods' pairs, or a key that became (or stopped
// being) shared is not backfilled (or dropped).
TEST(ClusterStatePodLabelPairsTest, GroupPairsFollowNodesAndPods) {
  std::mt19937 rng(7);
  ClusterState s;
  Interner& in = s.interner();
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto upsert_node = [&] {
    NodeBuilder b(in, "n" + std::to_string(pick(8)));
    b.Label("zone", "z" + std::to_string(pick(3)));
    if (pick(2) == 0) b.Label("rack", "r" + std::to_string(pick(6)));
    s.UpsertNode(b.Build());
  };
  auto step = [&] {
    switch (pick(5)) {
      case 0:
      case 1:
        upsert_node();
        break;
      case 2:
        s.RemoveNode("n" + std::to_string(pick(8)));
        break;
      case 3:
        s.UpsertPod(PodBuilder(in, "p" + std::to_string(pick(12)))
                        .Label("app", "a" + std::to_string(pick(2)))
                        .NodeName("n" + std::to_string(pick(9)))
                        .Build());
        break;
      default:
        s.RemovePod("default/p" + std::to_string(pick(12)));
    }
  };
  for (int i = 0; i < 1500; ++i) {
    if (pick(10) == 0) {
      ClusterState::Batch batch(s);
      for (int j = 0; j < 5; ++j) step();
      if (pick(2) == 0) batch.Commit();
    } else {
      step();
    }
    ASSERT_EQ(PairsOfIndex(s), PairsFromScratch(s)) << "step " << i;
  }
}

}  // namespace
}  // namespace cluster_state_test
}  // namespace sched
