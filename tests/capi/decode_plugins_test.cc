// profiles[].plugins: upstream's merge with the defaults, MultiPoint
// expansion and weights, and the framework's errors at the field's path.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_plugins_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using EP = ExtensionPoint;

ApiStatus Decode(const std::string& json, EngineConfig* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  static Interner in;  // outlives the decoded args' atoms
  return DecodeConfig(doc.get(), in, out);
}

// "Name" or "Name:weight" per plugin of one point.
std::vector<std::string> At(const ProfileConfig& p, EP point) {
  std::vector<std::string> out;
  for (const PluginRef& r : p.plugins[static_cast<size_t>(point)]) {
    out.push_back(r.weight != 0 ? r.name + ":" + std::to_string(r.weight) : r.name);
  }
  return out;
}

using Names = std::vector<std::string>;

TEST(DecodePluginsTest, DefaultProfile) {
  EngineConfig c;
  ASSERT_TRUE(Decode("{}", &c).ok());
  const ProfileConfig& p = c.profiles[0];
  EXPECT_EQ(At(p, EP::kQueueSort), Names({"PrioritySort"}));
  EXPECT_EQ(At(p, EP::kPreFilter),
            Names({"NodeUnschedulable", "NodeAffinity", "NodePorts", "NodeResourcesFit",
                   "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding", "VolumeZone",
                   "PodTopologySpread", "InterPodAffinity", "DynamicResources"}));
  EXPECT_EQ(At(p, EP::kScore),
            Names({"TaintToleration:3", "NodeAffinity:2", "NodeResourcesFit:1",
                   "PodTopologySpread:2", "InterPodAffinity:2", "DynamicResources:2",
                   "NodeResourcesBalancedAllocation:1", "ImageLocality:1"}));
  EXPECT_EQ(At(p, EP::kBind), Names({"DefaultBinder"}));
  EXPECT_FALSE(p.run_all_filters);
}

// The cases of upstream's TestSchedulerDefaults / TestMergePlugins that a
// user writes: disable one, reweight one, append one, replace a point.
TEST(DecodePluginsTest, CustomProfiles) {
  EngineConfig c;
  const ApiStatus s = Decode(R"({"profiles":[
      {"schedulerName":"reweight","plugins":{
         "score":{"enabled":[{"name":"ImageLocality","weight":5}],
                  "disabled":[{"name":"TaintToleration"}]}}},
      {"schedulerName":"multipoint","plugins":{
         "multiPoint":{"enabled":[{"name":"NodeLabel","weight":4}],
                       "disabled":[{"name":"InterPodAffinity"}]}},
       "pluginConfig":[{"name":"NodeLabel","args":{"presentLabels":["zone"]}}]},
      {"schedulerName":"filters","plugins":{
         "filter":{"enabled":[{"name":"NodeResourcesFit"},{"name":"NodeName"}],
                   "disabled":[{"name":"*"}]}}}]})",
                             &c);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(c.profiles.size(), 3u);
  // An explicit Score entry overrides MultiPoint's weight and keeps its
  // place first; a disabled one is gone.
  EXPECT_EQ(
      At(c.profiles[0], EP::kScore),
      Names({"ImageLocality:5", "NodeAffinity:2", "NodeResourcesFit:1", "PodTopologySpread:2",
             "InterPodAffinity:2", "DynamicResources:2", "NodeResourcesBalancedAllocation:1"}));
  EXPECT_EQ(At(c.profiles[0], EP::kFilter).size(), 13u);  // filters untouched
  // A MultiPoint plugin is appended at each of its points.
  const Names filters1 = At(c.profiles[1], EP::kFilter);
  EXPECT_EQ(filters1.back(), "NodeLabel");
  EXPECT_EQ(std::count(filters1.begin(), filters1.end(), "InterPodAffinity"), 0);
  EXPECT_EQ(At(c.profiles[1], EP::kScore).back(), "NodeLabel:4");
  EXPECT_EQ(c.profiles[1].plugin_args.node_label.present_labels, Names({"zone"}));
  // "*" replaces a point's defaults with the list, in its order.
  EXPECT_EQ(At(c.profiles[2], EP::kFilter), Names({"NodeResourcesFit", "NodeName"}));
  EXPECT_EQ(At(c.profiles[2], EP::kPreFilter).size(), 11u);  // with DynamicResources
}

class DecodePluginsErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePluginsErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  EngineConfig config;
  const ApiStatus s = Decode(c.json, &config);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePluginsErrorTest,
    ::testing::Values(
        ErrorCase{"UnknownPoint", R"({"profiles":[{"plugins":{"filters":{}}}]})",
                  "profiles[0].plugins.filters", "profiles[0].plugins.filters: unknown field"},
        ErrorCase{"UnknownSetField", R"({"profiles":[{"plugins":{"filter":{"enable":[]}}}]})",
                  "profiles[0].plugins.filter.enable",
                  "profiles[0].plugins.filter.enable: unknown field"},
        ErrorCase{
            "UnknownPluginField",
            R"({"profiles":[{"plugins":{"score":{"enabled":[{"name":"NodeName","wieght":1}]}}}]})",
            "profiles[0].plugins.score.enabled[0].wieght",
            "profiles[0].plugins.score.enabled[0].wieght: unknown field"},
        ErrorCase{"UnknownPlugin",
                  R"({"profiles":[{"plugins":{"multiPoint":{"enabled":[{"name":"Foo"}]}}}]})",
                  "profiles[0].plugins.multiPoint.enabled[0].name",
                  "profiles[0].plugins.multiPoint.enabled[0].name: plugin \"Foo\" "
                  "does not exist"},
        ErrorCase{"RemovedPlugin",
                  R"({"profiles":[{"plugins":{"filter":{"enabled":[{"name":"EBSLimits"}]}}}]})",
                  "profiles[0].plugins.filter.enabled[0].name",
                  "profiles[0].plugins.filter.enabled[0].name: plugin \"EBSLimits\" "
                  "does not "
                  "exist"},
        ErrorCase{"UnknownDisabled",
                  R"({"profiles":[{"plugins":{"score":{"disabled":[{"name":"Foo"}]}}}]})",
                  "profiles[0].plugins.score.disabled[0].name",
                  "profiles[0].plugins.score.disabled[0].name: plugin \"Foo\" does "
                  "not exist"},
        ErrorCase{"StarOnlyInDisabled",
                  R"({"profiles":[{"plugins":{"score":{"enabled":[{"name":"*"}]}}}]})",
                  "profiles[0].plugins.score.enabled[0].name",
                  "profiles[0].plugins.score.enabled[0].name: plugin \"*\" does not "
                  "exist"},
        ErrorCase{"MissingName", R"({"profiles":[{"plugins":{"score":{"enabled":[{}]}}}]})",
                  "profiles[0].plugins.score.enabled[0].name",
                  "profiles[0].plugins.score.enabled[0].name: Required value"},
        ErrorCase{"DoesNotExtend",
                  R"({"profiles":[{"plugins":{"score":{"enabled":[{"name":"NodeName"}]}}}]})",
                  "profiles[0].plugins.score.enabled[0].name",
                  "profiles[0].plugins.score.enabled[0].name: plugin \"NodeName\" "
                  "does not "
                  "extend ScorePlugin"},
        ErrorCase{"Duplicate",
                  R"({"profiles":[{"plugins":{"filter":{"enabled":[{"name":"NodeName"},
                      {"name":"NodeName"}]}}}]})",
                  "profiles[0].plugins.filter.enabled[1].name",
                  "profiles[0].plugins.filter.enabled[1].name: plugin \"NodeName\" "
                  "already "
                  "registered as \"FilterPlugin\""},
        ErrorCase{"DuplicateMultiPoint",
                  R"({"profiles":[{"plugins":{"multiPoint":{"enabled":[{"name":"NodeLabel"},
                      {"name":"NodeLabel"}]}}}]})",
                  "profiles[0].plugins.multiPoint.enabled[1].name",
                  "profiles[0].plugins.multiPoint.enabled[1].name: plugin "
                  "\"NodeLabel\" already "
                  "registered as \"MultiPoint\""},
        ErrorCase{"WeightRange",
                  R"({"profiles":[{"plugins":{"score":{"enabled":[{"name":"ImageLocality",
                      "weight":2147483648}]}}}]})",
                  "profiles[0].plugins.score.enabled[0].weight",
                  "profiles[0].plugins.score.enabled[0].weight: must be between "
                  "-2147483648 and "
                  "2147483647, got 2147483648"},
        ErrorCase{"NoQueueSort",
                  R"({"profiles":[{"plugins":{"queueSort":{"disabled":[{"name":"*"}]}}}]})",
                  "profiles[0].plugins",
                  "profiles[0].plugins: only one queue sort plugin required for "
                  "profile with "
                  "scheduler name \"default-scheduler\", but got 0"},
        ErrorCase{"NoBind",
                  R"({"profiles":[{"schedulerName":"x","plugins":{"multiPoint":{
                      "disabled":[{"name":"DefaultBinder"}]}}}]})",
                  "profiles[0].plugins",
                  "profiles[0].plugins: at least one bind plugin is needed for "
                  "profile with "
                  "scheduler name \"x\""},
        ErrorCase{"NodeLabelArgsConflict",
                  R"({"profiles":[{"pluginConfig":[{"name":"NodeLabel","args":{
                      "presentLabels":["a","b"],"absentLabels":["b"]}}]}]})",
                  "profiles[0].pluginConfig[0].args.presentLabels[1]",
                  "profiles[0].pluginConfig[0].args.presentLabels[1]: Invalid value: "
                  "\"b\": has "
                  "conflict with profiles[0].pluginConfig[0].args.absentLabels[0]"},
        ErrorCase{"NodeLabelArgsType",
                  R"({"profiles":[{"pluginConfig":[{"name":"NodeLabel","args":{
                      "presentLabelsPreference":"a"}}]}]})",
                  "profiles[0].pluginConfig[0].args.presentLabelsPreference",
                  "profiles[0].pluginConfig[0].args.presentLabelsPreference: "
                  "expected an array, "
                  "got a string"}),
    CaseName);

}  // namespace
}  // namespace decode_plugins_test
}  // namespace sched::capi
