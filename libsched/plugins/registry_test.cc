#include "libsched/plugins/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace sched {
namespace registry_test {
namespace {

ExtensionPoints Implemented(const Plugin& p) {
  ExtensionPoints out = 0;
  if (dynamic_cast<const PreEnqueuePlugin*>(&p)) out |= Bit(ExtensionPoint::kPreEnqueue);
  if (dynamic_cast<const PreFilterPlugin*>(&p)) out |= Bit(ExtensionPoint::kPreFilter);
  if (dynamic_cast<const FilterPlugin*>(&p)) out |= Bit(ExtensionPoint::kFilter);
  if (dynamic_cast<const PostFilterPlugin*>(&p)) out |= Bit(ExtensionPoint::kPostFilter);
  if (dynamic_cast<const PreScorePlugin*>(&p)) out |= Bit(ExtensionPoint::kPreScore);
  if (dynamic_cast<const ScorePlugin*>(&p)) out |= Bit(ExtensionPoint::kScore);
  return out;
}

// Each row's points are what its plugin implements, and its name is the
// plugin's Name(): the config decoder validates against the rows alone.
TEST(RegistryTest, RowsMatchTheirPlugins) {
  std::set<std::string_view> names;
  for (const RegistryEntry& e : InTreeRegistry()) {
    EXPECT_TRUE(names.insert(e.name).second) << "duplicate row " << e.name;
    EXPECT_EQ(FindPlugin(e.name), &e);
    if (e.factory == nullptr) continue;
    const auto p = e.factory(PluginArgs{});
    EXPECT_EQ(p->Name(), e.name);
    EXPECT_EQ(Implemented(*p), e.points) << e.name;
  }
  EXPECT_EQ(FindPlugin("NoSuchPlugin"), nullptr);
}

std::vector<std::string> Names(const auto& plugins) {
  std::vector<std::string> out;
  for (const auto* p : plugins) out.emplace_back(p->Name());
  return out;
}

// The default profile: upstream's MultiPoint order per point and weights.
TEST(RegistryTest, DefaultProfile) {
  const Profile p = NewDefaultProfile();
  EXPECT_EQ(p.scheduler_name(), "default-scheduler");
  EXPECT_EQ(Names(p.pre_enqueue()),
            std::vector<std::string>({"SchedulingGates", "DynamicResources"}));
  EXPECT_EQ(Names(p.filter()),
            std::vector<std::string>({"NodeUnschedulable", "NodeName", "TaintToleration",
                                      "NodeAffinity", "NodePorts", "NodeResourcesFit",
                                      "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
                                      "VolumeZone", "PodTopologySpread", "InterPodAffinity",
                                      "DynamicResources"}));
  // applyDynamicResources: DynamicResources' PostFilter runs first.
  EXPECT_EQ(Names(p.post_filter()),
            std::vector<std::string>({"DynamicResources", "DefaultPreemption"}));
  EXPECT_EQ(Names(p.pre_filter()).back(), "DynamicResources");
  std::vector<std::pair<std::string, int64_t>> score;
  for (const WeightedScorePlugin& s : p.score()) score.emplace_back(s.plugin->Name(), s.weight);
  EXPECT_EQ(score,
            (std::vector<std::pair<std::string, int64_t>>{{"TaintToleration", 3},
                                                          {"NodeAffinity", 2},
                                                          {"NodeResourcesFit", 1},
                                                          {"PodTopologySpread", 2},
                                                          {"InterPodAffinity", 2},
                                                          {"DynamicResources", 2},
                                                          {"NodeResourcesBalancedAllocation", 1},
                                                          {"ImageLocality", 1}}));
}

// A plugin enabled at several points is one instance (one CycleState slot).
TEST(RegistryTest, OneInstancePerName) {
  ExpandedPlugins e;
  e[static_cast<size_t>(ExtensionPoint::kPreFilter)] = {{"NodeLabel"}};
  e[static_cast<size_t>(ExtensionPoint::kFilter)] = {{"NodeLabel"}, {"NodeName"}};
  e[static_cast<size_t>(ExtensionPoint::kBind)] = {{"DefaultBinder"}};
  const Profile p = BuildProfile("x", e, {});
  EXPECT_EQ(p.num_slots(), 2u);
  ASSERT_EQ(p.pre_filter().size(), 1u);
  EXPECT_EQ(p.pre_filter()[0]->slot(), p.filter()[0]->slot());
  EXPECT_EQ(Names(p.filter()), std::vector<std::string>({"NodeLabel", "NodeName"}));
  EXPECT_TRUE(p.score().empty());
}

// A Score plugin that says what NormalizeScore makes of an all-zero
// column (the equivalence cache's totals add that value instead of
// normalizing) gives that value in every cell, at any column length.
TEST(RegistryTest, ZeroColumnsNormalizeAsDeclared) {
  std::set<std::string_view> declared;
  for (const RegistryEntry& e : InTreeRegistry()) {
    if (e.factory == nullptr) continue;
    const auto p = e.factory(PluginArgs{});
    const auto* score = dynamic_cast<const ScorePlugin*>(p.get());
    int64_t value = -1;
    if (score == nullptr || !score->NormalizesZeroColumnTo(&value)) continue;
    declared.insert(e.name);
    EXPECT_TRUE(score->HasNormalizeScore()) << e.name;
    const CycleState cs(1);
    const Pod pod;
    for (const size_t n : {1u, 2u, 7u, 500u}) {
      std::vector<int64_t> column(n, 0);
      ASSERT_TRUE(score->NormalizeScore(cs, pod, column).IsSuccess()) << e.name;
      EXPECT_EQ(column, std::vector<int64_t>(n, value)) << e.name << " n=" << n;
    }
  }
  // The default profile's DefaultNormalizeScore users.
  EXPECT_EQ(declared, (std::set<std::string_view>{"DynamicResources", "NodeAffinity",
                                                   "TaintToleration"}));
}

}  // namespace
}  // namespace registry_test
}  // namespace sched
