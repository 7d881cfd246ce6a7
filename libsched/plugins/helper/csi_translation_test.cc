// TranslatePVTopology against csi-translation-lib's
// TestTranslateTopologyFromInTreeToCSI and TestAddTopology (v0.36.3).
#include "libsched/plugins/helper/csi_translation.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace csi_translation_test {
namespace {

using testing::Req;
using testing::Term;

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kRegion = "topology.kubernetes.io/region";
constexpr const char* kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr const char* kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr const char* kGCEKey = "topology.gke.io/zone";

LabelSet Labels(Interner& in, const std::map<std::string, std::string>& m) {
  std::vector<LabelSet::Entry> entries;
  for (const auto& [k, v] : m) entries.emplace_back(in.Intern(k), in.Intern(v));
  return LabelSet(entries);
}

// One zone-then-region term of `zone_key` / `region_key`.
NodeSelector ZoneFirst(Interner& in, const char* zone_key, const char* zone, const char* region_key,
                       const char* region) {
  return NodeSelector{{Term({Req(in, zone_key, SelectorOp::kIn, {zone}),
                             Req(in, region_key, SelectorOp::kIn, {region})})}};
}

bool Equal(const std::optional<NodeSelector>& a, const std::optional<NodeSelector>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || a->terms == b->terms;
}

TEST(CSITranslationTest, TranslateTopologyFromInTreeToCSI) {
  Interner in;
  struct Case {
    std::string name;
    std::map<std::string, std::string> labels;
    std::optional<NodeSelector> affinity;
    std::optional<NodeSelector> want;
  };
  const std::vector<Case> cases = {
      {"Replace GA Kubernetes Zone Topology to GCE CSI Topology",
       {{kZone, "us-east1-a"}, {kRegion, "us-east1"}},
       ZoneFirst(in, kZone, "us-east1-a", kRegion, "us-east1"),
       ZoneFirst(in, kGCEKey, "us-east1-a", kRegion, "us-east1")},
      {"Replace Beta Kubernetes Topology to GCE CSI Topology and upgrade region label",
       {{kZone, "us-east1-a"}, {kRegion, "us-east1"}},
       ZoneFirst(in, kBetaZone, "us-west2-b", kBetaRegion, "us-west2"),
       ZoneFirst(in, kGCEKey, "us-west2-b", kRegion, "us-west2")},
      // addTopology through the PV's zone label (TestAddTopology).
      {"zone label added to a PV without affinity",
       {{kBetaZone, "us-central1-f__us-central1-a__ us-central1-c__us-central1-b"}},
       std::nullopt,
       NodeSelector{
           {Term({Req(in, kGCEKey, SelectorOp::kIn,
                      {"us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"})})}}},
      {"including whitespace-named zones",
       {{kZone, " __us-central1-a"}},
       std::nullopt,
       NodeSelector{{Term({Req(in, kGCEKey, SelectorOp::kIn, {"us-central1-a"})})}}},
      {"only whitespace-named zones", {{kZone, " __\t__  "}}, std::nullopt, std::nullopt},
      {"zone label added to every term",
       {{kZone, "us-east1-a"}},
       NodeSelector{
           {Term({Req(in, "a", SelectorOp::kExists)}), Term({Req(in, "b", SelectorOp::kExists)})}},
       NodeSelector{{Term({Req(in, "a", SelectorOp::kExists),
                           Req(in, kGCEKey, SelectorOp::kIn, {"us-east1-a"})}),
                     Term({Req(in, "b", SelectorOp::kExists),
                           Req(in, kGCEKey, SelectorOp::kIn, {"us-east1-a"})})}}},
      {"no labels, no affinity", {}, std::nullopt, std::nullopt},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    PersistentVolume pv;
    pv.labels = Labels(in, c.labels);
    pv.node_affinity = c.affinity;
    EXPECT_TRUE(Equal(TranslatePVTopology(pv, kGCEKey, in), c.want));
  }
}

// A CSI key no node carries (never interned) matches no node.
TEST(CSITranslationTest, KeyNeverInternedMatchesNoNode) {
  Interner in;
  PersistentVolume pv;
  pv.labels = Labels(in, {{kZone, "z1"}});
  const std::optional<NodeSelector> got =
      TranslatePVTopology(pv, "topology.ebs.csi.aws.com/zone", in);
  ASSERT_TRUE(got.has_value());
  EXPECT_FALSE(got->Matches(Labels(in, {{kZone, "z1"}}), kNoAtom, in));
}

TEST(CSITranslationTest, MigratedPlugins) {
  CSINode node;
  node.migrated_plugins = {"kubernetes.io/aws-ebs", "kubernetes.io/gce-pd"};
  EXPECT_TRUE(IsPluginMigratedToCSIOnNode(&node, kGCEPDInTreePlugin));
  EXPECT_FALSE(IsPluginMigratedToCSIOnNode(&node, "kubernetes.io/cinder"));
  EXPECT_FALSE(IsPluginMigratedToCSIOnNode(nullptr, kGCEPDInTreePlugin));
  EXPECT_EQ(CSITopologyKey(kGCEPDInTreePlugin), "topology.gke.io/zone");
  EXPECT_EQ(CSITopologyKey(kAWSEBSInTreePlugin), "topology.ebs.csi.aws.com/zone");
  EXPECT_EQ(CSITopologyKey("kubernetes.io/cinder"), "");
}

}  // namespace
}  // namespace csi_translation_test
}  // namespace sched
