// NominatedPodsByNode kept across cycles (its slots, the names it
// resolved, the NominatedKeys beside the pods) against a fresh lookup of
// the nominator by name after every change: nominations added and
// removed (and rolled back), a nominated pod's priority changed, nodes
// removed, added (on a freed index) and replaced, and Builds with nothing
// changed.
#include "libsched/framework/nominated_pods_by_node.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "libsched/queue/nominator.h"
#include "libsched/state/undo_log.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/map_nominator.h"

namespace sched {
namespace nominated_pods_by_node_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// What a fresh computation gives for `node`: the nominator asked by name.
std::vector<uint32_t> FreshYielded(const PodNominator& nominator, const NodeInfo& node,
                                   const Pod& pod) {
  std::vector<uint32_t> want;
  const auto pods = nominator.NominatedPodsOn(node.node()->name);
  for (size_t k = 0; k < pods.size(); ++k) {
    if (YieldsToNominated(*pods[k], pod)) want.push_back(static_cast<uint32_t>(k));
  }
  return want;
}

// Checks `by` against `nominator` for `node` and every probe pod;
// `version` is the node's list version (0: none or unversioned).
void ExpectFresh(const NominatedPodsByNode& by, const PodNominator& nominator,
                 const NodeInfo& node, uint64_t version,
                 const std::vector<std::shared_ptr<const Pod>>& probes, const std::string& where) {
  SCOPED_TRACE(where + " node " + node.node()->name);
  const auto want = nominator.NominatedPodsOn(node.node()->name);
  const auto got = by.On(node);
  ASSERT_EQ(got.size(), want.size());
  for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(got[k].get(), want[k].get()) << k;
  std::vector<uint32_t> positions;
  for (const auto& probe : probes) {
    const YieldedNominations y = by.Yielded(node, *probe, NominatedKey::Of(*probe), &positions);
    EXPECT_EQ(std::vector<uint32_t>(y.positions.begin(), y.positions.end()),
              FreshYielded(nominator, node, *probe))
        << "probe " << probe->name << " uid '" << probe->uid << "' priority " << probe->priority;
    EXPECT_EQ(y.version, version);
  }
}

TEST(NominatedPodsByNodeTest, KeptAcrossCyclesMatchesAFreshLookup) {
  constexpr int kNames = 8;
  constexpr int kPods = 12;
  const int32_t kPriorities[] = {0, 500, 1000};
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
    ClusterState state;
    UndoLog log;
    Nominator nominator(&log);
    NominatedPodsByNode by;
    auto name_of = [](int i) { return "n" + std::to_string(i); };
    for (int i = 0; i < 6; ++i) {
      state.UpsertNode(NodeBuilder(state.interner(), name_of(i)).Capacity(4000, 4000).Build());
    }
    // The pods as the nominator holds them (the newest version of each);
    // every third has no uid (SamePod then compares namespace and name).
    std::vector<std::shared_ptr<const Pod>> pods;
    for (int k = 0; k < kPods; ++k) {
      PodBuilder b(state.interner(), "p" + std::to_string(k), k % 2 == 0 ? "a" : "b");
      b.Priority(kPriorities[pick(3)]);
      if (k % 3 == 0) b.Uid("");
      pods.push_back(b.Build());
    }
    // Probes: the pods themselves (a pod never yields to itself), one of
    // each priority with fresh names, one with p1's namespace and name but
    // another uid, and one with p2's namespace and name and no uid.
    std::vector<std::shared_ptr<const Pod>> probes = pods;
    for (const int32_t p : kPriorities) {
      probes.push_back(PodBuilder(state.interner(), "q" + std::to_string(p)).Priority(p).Build());
    }
    probes.push_back(PodBuilder(state.interner(), "p1", "b").Uid("other").Priority(500).Build());
    probes.push_back(PodBuilder(state.interner(), "p2", "a").Uid("").Priority(0).Build());

    for (int step = 0; step < 300; ++step) {
      const std::string where = "step " + std::to_string(step);
      const int k = pick(kPods);
      const std::string name = name_of(pick(kNames));
      switch (pick(9)) {
        case 0:
        case 1:  // nominated (to a node that may not exist)
          nominator.AddNominatedPod(pods[k], name);
          break;
        case 2:
          nominator.DeleteNominatedPodIfExists(*pods[k]);
          break;
        case 3: {  // the priority changes: the nomination is kept
          auto changed = std::make_shared<Pod>(*pods[k]);
          changed->priority = kPriorities[pick(3)];
          nominator.UpdateNominatedPod(*pods[k], changed);
          pods[k] = changed;
          probes[k] = changed;
          break;
        }
        case 4:  // its index is freed (no pods are bound)
          state.RemoveNode(name);
          break;
        case 5:  // added on a freed index, or replaced by a new Node object
          state.UpsertNode(NodeBuilder(state.interner(), name).Capacity(4000, 4000).Build());
          break;
        case 6:  // the nominations' changes from here on may be undone
          if (!log.recording()) log.Begin();
          break;
        case 7:  // and are
          log.Rollback();
          break;
        default:  // nothing changes
          break;
      }
      by.Build(state, nominator);
      std::map<std::string, uint64_t, std::less<>> versions;
      nominator.ForEachNominatedNode([&](std::string_view n, NominatedPodsByNode::Pods,
                                         uint64_t v) { versions[std::string(n)] = v; });
      for (const NodeInfo* ni : state.NodeList()) {
        const auto v = versions.find(ni->node()->name);
        const uint64_t version = v == versions.end() ? 0 : v->second;
        ExpectFresh(by, nominator, *ni, version, probes, where);
        const NodeInfo copy = *ni;  // the dry run's copies: same index and Node
        ExpectFresh(by, nominator, copy, version, probes, where + " copy");
        // A node of no state at this index, named as another: by name.
        NodeInfo other(ni->index());
        other.SetNode(NodeBuilder(state.interner(), name).Build(), 1);
        ExpectFresh(by, nominator, other, 0, probes, where + " other");
      }
      if (HasFailure()) return;
    }
  }
}

// A removed Node (and its strings) is not kept for names no longer
// nominated: the next Build drops them, and so does a cycle with no
// nominations at all (Release).
TEST(NominatedPodsByNodeTest, GoneNodesAreNotKept) {
  struct Case {
    const char* name;
    bool nominations_stop;  // else the pod moves to n1 and Build runs
  };
  const Case cases[] = {{"the pod is nominated elsewhere", false},
                        {"no pod is nominated any more", true}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState state;
    Nominator nominator;
    NominatedPodsByNode by;
    for (const char* n : {"n0", "n1"}) {
      state.UpsertNode(NodeBuilder(state.interner(), n).Capacity(4000, 4000).Build());
    }
    std::shared_ptr<const Pod> pod = PodBuilder(state.interner(), "p").Build();
    nominator.AddNominatedPod(pod, "n0");
    by.Build(state, nominator);
    const std::weak_ptr<const Node> n0 = state.FindNode("n0")->shared_node();
    nominator.DeleteNominatedPodIfExists(*pod);
    ASSERT_TRUE(state.RemoveNode("n0"));
    if (c.nominations_stop) {
      by.Release();
    } else {
      nominator.AddNominatedPod(pod, "n1");
      by.Build(state, nominator);
      uint64_t version = 0;  // n1's list, the only one
      nominator.ForEachNominatedNode(
          [&](std::string_view, NominatedPodsByNode::Pods, uint64_t v) { version = v; });
      ExpectFresh(by, nominator, *state.FindNode("n1"), version, {pod}, "after the move");
    }
    EXPECT_TRUE(n0.expired());
  }
}

// Unversioned lists (version 0) change in place: nothing kept is trusted.
TEST(NominatedPodsByNodeTest, UnversionedListsAreReadAfresh) {
  ClusterState state;
  state.UpsertNode(NodeBuilder(state.interner(), "n0").Build());
  testing::MapNominator nominator;
  const auto low = PodBuilder(state.interner(), "low").Priority(0).Build();
  const auto high = PodBuilder(state.interner(), "high").Priority(1000).Build();
  const auto probe = PodBuilder(state.interner(), "probe").Priority(500).Build();
  NominatedPodsByNode by;
  std::vector<uint32_t> positions;
  const NodeInfo& n0 = *state.FindNode("n0");
  nominator.pods["n0"] = {high};
  by.Build(state, nominator);
  EXPECT_EQ(by.Yielded(n0, *probe, NominatedKey::Of(*probe), &positions).positions.size(), 1u);
  nominator.pods["n0"][0] = low;  // same list, same address, another pod
  by.Build(state, nominator);
  EXPECT_EQ(by.On(n0)[0].get(), low.get());
  EXPECT_EQ(by.Yielded(n0, *probe, NominatedKey::Of(*probe), &positions).positions.size(), 0u);
}

// Checks `by` (just built) against `nominator` for every node of `state`.
void ExpectAllFresh(const NominatedPodsByNode& by, const ClusterState& state,
                    const Nominator& nominator,
                    const std::vector<std::shared_ptr<const Pod>>& probes,
                    const std::string& where) {
  std::map<std::string, uint64_t, std::less<>> versions;
  nominator.ForEachNominatedNode([&](std::string_view n, NominatedPodsByNode::Pods, uint64_t v) {
    versions[std::string(n)] = v;
  });
  for (const NodeInfo* ni : state.NodeList()) {
    const auto v = versions.find(ni->node()->name);
    ExpectFresh(by, nominator, *ni, v == versions.end() ? 0 : v->second, probes, where);
  }
}

// A Build after the first revisits only the lists changed since (the
// nominator's journal) and the lists whose node the state moved: each case
// changes the nominations or the nodes between Builds the way one such
// revisit (or its absence) would get wrong.
TEST(NominatedPodsByNodeTest, IncrementalBuildMatchesAFreshLookup) {
  struct World {
    ClusterState state;
    UndoLog log;
    Nominator nominator{&log};
    NominatedPodsByNode by;
    std::vector<std::shared_ptr<const Pod>> pods;  // p0 (priority 0) .. p3 (3000)
    void AddNode(const std::string& name) {
      state.UpsertNode(NodeBuilder(state.interner(), name).Capacity(4000, 4000).Build());
    }
    void Build() { by.Build(state, nominator); }
  };
  struct Case {
    const char* name;
    std::function<void(World&)> change;  // after a Build with p0 on n0, p1 on n1
  };
  const Case cases[] = {
      {"a list changed", [](World& w) { w.nominator.AddNominatedPod(w.pods[2], "n0"); }},
      {"a list gone", [](World& w) { w.nominator.DeleteNominatedPodIfExists(*w.pods[0]); }},
      {"a list moved", [](World& w) { w.nominator.AddNominatedPod(w.pods[0], "n2"); }},
      {"a rollback to an earlier version (built in between)",
       [](World& w) {
         w.log.Begin();
         w.nominator.AddNominatedPod(w.pods[2], "n0");  // n0's list grows (its vector moves)
         w.nominator.DeleteNominatedPodIfExists(*w.pods[1]);  // n1's goes
         w.Build();
         w.log.Rollback();
       }},
      {"a committed unit",
       [](World& w) {
         w.log.Begin();
         w.nominator.AddNominatedPod(w.pods[2], "n0");
         w.log.Commit();
       }},
      {"a node removed and another added at its index",
       [](World& w) {
         w.nominator.AddNominatedPod(w.pods[2], "n9");  // no such node yet
         w.Build();
         ASSERT_TRUE(w.state.RemoveNode("n0"));
         w.AddNode("n9");  // takes n0's index
         w.AddNode("n0");  // back, at another
       }},
      {"a nominated name's node added", [](World& w) {
         w.nominator.AddNominatedPod(w.pods[2], "n9");
         w.Build();
         w.AddNode("n9");
       }},
      {"a node replaced (a new Node object)", [](World& w) { w.AddNode("n1"); }},
      {"a fork's changes",
       [](World& w) {
         Nominator fork;
         fork.ShareFrom(w.nominator);
         fork.AddNominatedPod(w.pods[3], "n1");
         w.by.Build(w.state, fork);
         ExpectAllFresh(w.by, w.state, fork, w.pods, "the fork");
         w.nominator.AddNominatedPod(w.pods[2], "n1");
       }},
      {"no change", [](World&) {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    World w;
    for (int i = 0; i < 3; ++i) w.AddNode("n" + std::to_string(i));
    for (int k = 0; k < 4; ++k) {
      w.pods.push_back(
          PodBuilder(w.state.interner(), "p" + std::to_string(k)).Priority(1000 * k).Build());
    }
    w.nominator.AddNominatedPod(w.pods[0], "n0");
    w.nominator.AddNominatedPod(w.pods[1], "n1");
    w.Build();
    c.change(w);
    w.Build();
    ExpectAllFresh(w.by, w.state, w.nominator, w.pods, "after");
    w.Build();  // and once more with nothing changed
    ExpectAllFresh(w.by, w.state, w.nominator, w.pods, "again");
  }
}

}  // namespace
}  // namespace nominated_pods_by_node_test
}  // namespace sched
