#include "libsched/state/affinity_term_index.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace affinity_term_index_test {
namespace {

using Kind = AffinityTermIndex::Kind;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::PodTerm;
using testing::Req;

// One kind of the index as "<namespaces> app=<value> @<key> w<weight>
// held=<n>" -> topology value -> count.
using Dumped = std::map<std::string, std::map<std::string, int64_t>>;
Dumped Dump(const ClusterState& s, Kind kind) {
  Dumped out;
  const Interner& in = s.interner();
  for (const auto& [key, e] : s.affinity_term_index().entries(kind)) {
    std::string name;
    for (Atom ns : e.term.namespaces) name += in.Str(ns) + ",";
    if (e.term.namespace_selector) name += "nsSelector,";
    for (const Requirement& r : e.term.selector->requirements) {
      name += " " + in.Str(r.key) + "=" + in.Str(r.values.at(0));
    }
    name += " @" + in.Str(e.term.topology_key) + " w" + std::to_string(e.weight) +
            " held=" + std::to_string(e.held);
    EXPECT_FALSE(out.contains(name)) << "two entries for one term: " << name;
    auto& counts = out[name];
    for (const auto& [value, count] : e.counts) {
      EXPECT_GT(count, 0);
      counts[in.Str(value)] = count;
    }
  }
  return out;
}

class AffinityTermIndexTest : public ::testing::Test {
 protected:
  void Node(const std::string& name, const std::string& zone) {
    NodeBuilder b(in_, name);
    if (!zone.empty()) b.Label("zone", zone);
    s_.UpsertNode(b.Build());
  }
  AffinityTerm Term(const std::string& app) {
    return PodTerm(in_, "zone", {Req(in_, "app", SelectorOp::kIn, {app})});
  }
  // A pod with required anti-affinity to `app` in its zone.
  void AntiPod(const std::string& name, const std::string& node, const std::string& app,
               const std::string& ns = "default") {
    s_.UpsertPod(
        PodBuilder(in_, name, ns).NodeName(node).RequiredPodAntiAffinity(Term(app)).Build());
  }

  ClusterState s_;
  Interner& in_ = s_.interner();
};

TEST_F(AffinityTermIndexTest, PodsOfOneTemplateShareAnEntry) {
  Node("n1", "z1");
  Node("n2", "z1");
  Node("n3", "z2");
  AntiPod("a1", "n1", "web");
  AntiPod("a2", "n2", "web");
  AntiPod("a3", "n3", "web");
  AntiPod("b1", "n3", "db");
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=3", {{"z1", 2}, {"z2", 1}}},
                    {"default, app=db @zone w0 held=1", {{"z2", 1}}}}));
  EXPECT_TRUE(s_.affinity_term_index().entries(Kind::kRequiredAffinity).empty());

  s_.RemovePod("default/a1");
  s_.RemovePod("default/a3");
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=1", {{"z1", 1}}},
                    {"default, app=db @zone w0 held=1", {{"z2", 1}}}}));
  s_.RemovePod("default/a2");
  s_.RemovePod("default/b1");
  EXPECT_TRUE(s_.affinity_term_index().entries(Kind::kRequiredAntiAffinity).empty());
}

TEST_F(AffinityTermIndexTest, TermsDefaultedToOtherNamespacesAreDistinct) {
  Node("n1", "z1");
  AntiPod("a1", "n1", "web");
  AntiPod("a1", "n1", "web", "other");
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=1", {{"z1", 1}}},
                    {"other, app=web @zone w0 held=1", {{"z1", 1}}}}));
}

TEST_F(AffinityTermIndexTest, NamespaceSelectorIsPartOfTheTerm) {
  Node("n1", "z1");
  AffinityTerm with_selector = Term("web");
  with_selector.namespace_selector = testing::Selector({Req(in_, "team", SelectorOp::kExists)});
  for (const char* name : {"s1", "s2"}) {
    s_.UpsertPod(PodBuilder(in_, name, "default")
                     .NodeName("n1")
                     .RequiredPodAntiAffinity(with_selector)
                     .Build());
  }
  AntiPod("plain", "n1", "web");
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"nsSelector, app=web @zone w0 held=2", {{"z1", 2}}},
                    {"default, app=web @zone w0 held=1", {{"z1", 1}}}}));
}

TEST_F(AffinityTermIndexTest, EveryKindAndWeightHasItsEntries) {
  Node("n1", "z1");
  s_.UpsertPod(PodBuilder(in_, "p", "default")
                   .NodeName("n1")
                   .RequiredPodAffinity(Term("web"))
                   .RequiredPodAffinity(Term("web"))  // held twice, counted twice
                   .PreferredPodAffinity(5, Term("web"))
                   .PreferredPodAffinity(7, Term("web"))
                   .PreferredPodAntiAffinity(5, Term("db"))
                   .Build());
  EXPECT_EQ(Dump(s_, Kind::kRequiredAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {{"z1", 2}}}}));
  EXPECT_EQ(Dump(s_, Kind::kPreferredAffinity),
            (Dumped{{"default, app=web @zone w5 held=1", {{"z1", 1}}},
                    {"default, app=web @zone w7 held=1", {{"z1", 1}}}}));
  EXPECT_EQ(Dump(s_, Kind::kPreferredAntiAffinity),
            (Dumped{{"default, app=db @zone w5 held=1", {{"z1", 1}}}}));
  EXPECT_TRUE(s_.affinity_term_index().entries(Kind::kRequiredAntiAffinity).empty());
  s_.RemovePod("default/p");
  for (Kind k : {Kind::kRequiredAffinity, Kind::kPreferredAffinity, Kind::kPreferredAntiAffinity}) {
    EXPECT_TRUE(s_.affinity_term_index().entries(k).empty());
  }
}

TEST_F(AffinityTermIndexTest, OnlyNodesWithTheTopologyLabelCount) {
  Node("unlabelled", "");
  AntiPod("a1", "unlabelled", "web");
  AntiPod("a2", "not-yet-known", "web");  // bound to a node with no Node object
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {}}}));
  // The node arrives, then the other gets the label.
  Node("not-yet-known", "z1");
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {{"z1", 1}}}}));
  Node("unlabelled", "z1");
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {{"z1", 2}}}}));
}

TEST_F(AffinityTermIndexTest, RelabelledAndRemovedNodesMoveTheirPods) {
  Node("n1", "z1");
  Node("n2", "z1");
  AntiPod("a1", "n1", "web");
  AntiPod("a2", "n2", "web");
  Node("n1", "z2");  // n1 changes domain
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {{"z1", 1}, {"z2", 1}}}}));
  Node("n1", "z2");  // unchanged labels: nothing moves
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {{"z1", 1}, {"z2", 1}}}}));
  ASSERT_TRUE(s_.RemoveNode("n2"));  // its pod stays, uncounted
  EXPECT_EQ(Dump(s_, Kind::kRequiredAntiAffinity),
            (Dumped{{"default, app=web @zone w0 held=2", {{"z2", 1}}}}));
  s_.RemovePod("default/a2");
  s_.RemovePod("default/a1");
  EXPECT_TRUE(s_.affinity_term_index().entries(Kind::kRequiredAntiAffinity).empty());
}

}  // namespace
}  // namespace affinity_term_index_test
}  // namespace sched
