// InterPodAffinity::FilterIsNodeLocal's and ScoreCacheKey's keys
// (inter_pod_affinity_cache_key.cc): what moves them and what does not.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/testing/filter_cache_key.h"
#include "libsched/testing/inter_pod_affinity_test_util.h"

namespace sched {
namespace inter_pod_affinity_cache_key_test {
namespace {

using namespace ipa_testing;  // NOLINT: test vocabulary
using testing::PodTerm;

// n1, n2 in zone z1, n3 in z2; hostnames are the names.
const std::vector<NodeSpec> kNodes = {
    {"n1", {{"host", "n1"}, {"zone", "z1"}}},
    {"n2", {{"host", "n2"}, {"zone", "z1"}}},
    {"n3", {{"host", "n3"}, {"zone", "z2"}}},
};

AffinityTerm AppIn(Interner& in, const std::string& topology, const std::string& app) {
  return PodTerm(in, topology, {In(in, "app", {app})});
}

// PreFilter then FilterIsNodeLocal for `pod`: the key's bytes.
std::string KeyOf(const ClusterState& cs, const Pod& pod) {
  return testing::FilterKeyOf(InterPodAffinity(), pod, cs);
}

// AppIn's term for pods of namespaces labelled team=a instead of its own.
AffinityTerm TeamA(Interner& in, const std::string& topology, const std::string& app) {
  AffinityTerm t = AppIn(in, topology, app);
  t.namespaces.clear();
  t.namespace_selector = testing::Selector({In(in, "team", {"a"})});
  return t;
}

// PreScore then ScoreCacheKey for `pod`: the key's bytes, or nullopt when
// the Score is live.
std::optional<std::string> ScoreKeyOf(const ClusterState& cs, const Pod& pod) {
  const InterPodAffinity pl;
  CycleState state(1);
  EXPECT_TRUE(pl.PreScore(state, pod, {}, cs).IsSuccess());
  PodSigner key;
  if (!pl.ScoreCacheKey(state, key)) return std::nullopt;
  return std::string(key.bytes());
}

void AddPod(ClusterState& cs, testing::PodBuilder b, const std::string& node) {
  cs.UpsertPod(b.NodeName(node).Build());
}

// Hostname: a node's count is its own pods', so a matching pod on some node
// leaves the key; a second node with the same hostname value moves it.
TEST(InterPodAffinityCacheKeyTest, HostnameKeyMovesOnlyWhenAValueIsShared) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  const PodPtr p =
      MakePod(in, "p", {{"app", "x"}}).RequiredPodAntiAffinity(AppIn(in, "host", "web")).Build();
  const std::string k0 = KeyOf(cs, *p);
  AddPod(cs, MakePod(in, "w1", {{"app", "web"}}), "n2");
  EXPECT_EQ(KeyOf(cs, *p), k0);
  AddNodes(cs, {{"n4", {{"host", "n1"}, {"zone", "z2"}}}});
  const std::string k1 = KeyOf(cs, *p);
  EXPECT_NE(k1, k0);
  // Now the domains with a matching pod count: n2's is already listed.
  AddPod(cs, MakePod(in, "w2", {{"app", "web"}}), "n2");
  EXPECT_EQ(KeyOf(cs, *p), k1);
  AddPod(cs, MakePod(in, "w3", {{"app", "web"}}), "n4");
  EXPECT_NE(KeyOf(cs, *p), k1);
}

// Zone: the key lists the zones holding a matching pod; another pod in
// such a zone leaves it, the first pod of a zone moves it.
TEST(InterPodAffinityCacheKeyTest, ZoneKeyListsTheZonesWithMatchingPods) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  AddPod(cs, MakePod(in, "w1", {{"app", "web"}}), "n1");
  const PodPtr p =
      MakePod(in, "p", {{"app", "x"}}).RequiredPodAffinity(AppIn(in, "zone", "web")).Build();
  const std::string k0 = KeyOf(cs, *p);
  AddPod(cs, MakePod(in, "w2", {{"app", "web"}}), "n2");
  AddPod(cs, MakePod(in, "other", {{"app", "other"}}), "n3");
  EXPECT_EQ(KeyOf(cs, *p), k0);
  AddPod(cs, MakePod(in, "w3", {{"app", "web"}}), "n3");
  EXPECT_NE(KeyOf(cs, *p), k0);
}

// The first-pod rule reads whether any pod matches P's affinity anywhere.
TEST(InterPodAffinityCacheKeyTest, FirstPodRuleMovesTheKey) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  const PodPtr p =
      MakePod(in, "p", {{"app", "aff"}}).RequiredPodAffinity(AppIn(in, "host", "aff")).Build();
  const std::string k0 = KeyOf(cs, *p);
  AddPod(cs, MakePod(in, "a1", {{"app", "aff"}}), "n1");
  const std::string k1 = KeyOf(cs, *p);
  EXPECT_NE(k1, k0);
  AddPod(cs, MakePod(in, "a2", {{"app", "aff"}}), "n3");
  EXPECT_EQ(KeyOf(cs, *p), k1);
}

// Existing pods' anti-affinity by zone: the zones where the term is held.
TEST(InterPodAffinityCacheKeyTest, ExistingTermsByZoneListTheirZones) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  auto holder = [&](const std::string& name) {
    return MakePod(in, name, {{"app", "h"}}).RequiredPodAntiAffinity(AppIn(in, "zone", "web"));
  };
  AddPod(cs, holder("h1"), "n1");
  const PodPtr p = MakePod(in, "p", {{"app", "web"}}).Build();
  const std::string k0 = KeyOf(cs, *p);
  AddPod(cs, holder("h2"), "n2");
  EXPECT_EQ(KeyOf(cs, *p), k0);
  AddPod(cs, holder("h3"), "n3");
  EXPECT_NE(KeyOf(cs, *p), k0);
}

// An existing pod's term with a namespaceSelector matches P through its
// Namespace's labels: relabelling the Namespace moves the key.
TEST(InterPodAffinityCacheKeyTest, NamespaceLabelsMoveTheKey) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  AddNamespace(cs, "default", {{"team", "a"}});
  const AffinityTerm team_a = TeamA(in, "host", "web");
  AddPod(cs, MakePod(in, "h1", {{"app", "h"}}, "other").RequiredPodAntiAffinity(team_a), "n1");
  const PodPtr p =
      MakePod(in, "p", {{"app", "web"}}).RequiredPodAntiAffinity(AppIn(in, "host", "none")).Build();
  const std::string k0 = KeyOf(cs, *p);
  AddNamespace(cs, "default", {{"team", "b"}});
  EXPECT_NE(KeyOf(cs, *p), k0);
}

// P's labels decide which existing pods' terms match it: the key holds
// them (and P's labels are not in its class signature).
TEST(InterPodAffinityCacheKeyTest, ExistingTermsMatchingPAreInTheKey) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  AddPod(cs,
         MakePod(in, "h1", {{"app", "h"}}).RequiredPodAntiAffinity(AppIn(in, "host", "web")),
         "n1");
  const PodPtr web = MakePod(in, "p", {{"app", "web"}})
                         .RequiredPodAntiAffinity(AppIn(in, "host", "none"))
                         .Build();
  const PodPtr other = MakePod(in, "q", {{"app", "other"}})
                           .RequiredPodAntiAffinity(AppIn(in, "host", "none"))
                           .Build();
  EXPECT_NE(KeyOf(cs, *web), KeyOf(cs, *other));
}

// AddPod moved an existing pod's term count (nominated pods, preemption):
// not node-local.
TEST(InterPodAffinityCacheKeyTest, NotNodeLocalAfterAddPodMovedExistingTerms) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  const PodPtr p = MakePod(in, "p", {{"app", "web"}}).Build();
  const PodPtr holder = MakePod(in, "h", {{"app", "h"}})
                            .RequiredPodAntiAffinity(AppIn(in, "zone", "web"))
                            .NodeName("n1")
                            .Build();
  cs.UpsertPod(holder);
  const InterPodAffinity pl;
  CycleState state(1);
  PreFilterResult result;
  ASSERT_TRUE(pl.PreFilter(state, *p, cs, &result).IsSuccess());
  PodSigner key;
  EXPECT_TRUE(pl.FilterIsNodeLocal(state, key));
  ASSERT_TRUE(pl.AddPod(state, *p, *holder, *cs.FindNode("n2")).IsSuccess());
  EXPECT_FALSE(pl.FilterIsNodeLocal(state, key));
}

// Score by hostname: a node's raw score counts its own pods, so pods that
// come and go leave the key; a shared hostname value, or a zone term,
// makes the Score live.
TEST(InterPodAffinityCacheKeyTest, ScoreKeyCachesHostnameTermsOnly) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  AddPod(cs, MakePod(in, "w1", {{"app", "web"}}), "n1");
  const PodPtr p =
      MakePod(in, "p", {{"app", "x"}}).PreferredPodAffinity(1, AppIn(in, "host", "web")).Build();
  const std::optional<std::string> k0 = ScoreKeyOf(cs, *p);
  ASSERT_TRUE(k0.has_value());
  AddPod(cs, MakePod(in, "w2", {{"app", "web"}}), "n2");
  EXPECT_EQ(ScoreKeyOf(cs, *p), k0);
  const PodPtr zone =
      MakePod(in, "z", {{"app", "x"}}).PreferredPodAffinity(1, AppIn(in, "zone", "web")).Build();
  EXPECT_FALSE(ScoreKeyOf(cs, *zone).has_value());
  AddNodes(cs, {{"n4", {{"host", "n1"}, {"zone", "z2"}}}});
  EXPECT_FALSE(ScoreKeyOf(cs, *p).has_value());
}

// Existing pods' terms by hostname score P through its labels and its
// Namespace's labels (a namespaceSelector): the key lists those that
// match, so relabelling the Namespace moves it; P's own namespaceSelector
// term, resolved, moves it too.
TEST(InterPodAffinityCacheKeyTest, ScoreKeyFollowsNamespaceLabels) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  AddNamespace(cs, "default", {{"team", "a"}});
  const AffinityTerm team_a = TeamA(in, "host", "web");
  AddPod(cs, MakePod(in, "h1", {{"app", "h"}}, "other").PreferredPodAffinity(3, team_a), "n1");
  AddPod(cs, MakePod(in, "w1", {{"app", "web"}}), "n2");
  // Each also has a plain term meeting w1, so PreScore never skips.
  const PodPtr web = MakePod(in, "p", {{"app", "web"}})
                         .PreferredPodAffinity(1, AppIn(in, "host", "web"))
                         .Build();
  const PodPtr own = MakePod(in, "q", {{"app", "x"}})
                         .PreferredPodAffinity(2, team_a)
                         .PreferredPodAntiAffinity(1, AppIn(in, "host", "web"))
                         .Build();
  const std::optional<std::string> k0 = ScoreKeyOf(cs, *web);
  const std::optional<std::string> own0 = ScoreKeyOf(cs, *own);
  ASSERT_TRUE(k0.has_value());
  ASSERT_TRUE(own0.has_value());
  AddNamespace(cs, "default", {{"team", "b"}});
  EXPECT_NE(ScoreKeyOf(cs, *web), k0);
  EXPECT_NE(ScoreKeyOf(cs, *own), own0);
}

// Pods of one class that differ by labels: each matches another existing
// pod's term by hostname (as many of them), and the score key tells them
// apart.
TEST(InterPodAffinityCacheKeyTest, ScoreKeyHoldsWhichExistingTermsMatchP) {
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, kNodes);
  AddPod(cs, MakePod(in, "h1", {{"app", "h"}}).PreferredPodAffinity(1, AppIn(in, "host", "web")),
         "n1");
  AddPod(cs,
         MakePod(in, "h2", {{"app", "h"}}).PreferredPodAffinity(1, AppIn(in, "host", "other")),
         "n2");
  const std::optional<std::string> web =
      ScoreKeyOf(cs, *MakePod(in, "p", {{"app", "web"}}).Build());
  const std::optional<std::string> other =
      ScoreKeyOf(cs, *MakePod(in, "q", {{"app", "other"}}).Build());
  ASSERT_TRUE(web.has_value());
  ASSERT_TRUE(other.has_value());
  EXPECT_NE(web, other);
}

// SignPod: P's required and preferred terms tell classes apart, its labels
// do not (the keys hold what they decide).
TEST(InterPodAffinityCacheKeyTest, SignPodFeedsTheTerms) {
  Interner in;
  const InterPodAffinity pl;
  auto sign = [&](const Pod& pod) {
    PodSigner sig;
    pl.SignPod(pod, sig);
    return std::string(sig.bytes());
  };
  const std::string base = sign(*MakePod(in, "p", {{"app", "a"}}).Build());
  EXPECT_EQ(sign(*MakePod(in, "q", {{"app", "b"}}).Build()), base);
  EXPECT_NE(
      sign(*MakePod(in, "p", {{"app", "a"}}).RequiredPodAffinity(AppIn(in, "zone", "a")).Build()),
      base);
  EXPECT_NE(sign(*MakePod(in, "p", {{"app", "a"}})
                      .RequiredPodAntiAffinity(AppIn(in, "zone", "a"))
                      .Build()),
            base);
  EXPECT_NE(sign(*MakePod(in, "p", {{"app", "a"}})
                      .PreferredPodAffinity(1, AppIn(in, "zone", "a"))
                      .Build()),
            base);
  EXPECT_NE(sign(*MakePod(in, "p", {{"app", "a"}})
                      .PreferredPodAntiAffinity(1, AppIn(in, "zone", "a"))
                      .Build()),
            base);
}

}  // namespace
}  // namespace inter_pod_affinity_cache_key_test
}  // namespace sched
