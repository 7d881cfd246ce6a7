// pluginConfig args of NodeResourcesFit, NodeResourcesBalancedAllocation,
// NodeAffinity and DefaultPreemption: defaults (apis/config/v1/defaults.go),
// strict decoding, validation as validation_pluginargs.go words it, and an
// engine that refuses a bad config and honours a good one.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "sched/sched.h"
#include "tests/capi/decode_test_util.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace decode_plugin_args_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::Names;

// A config with one profile whose pluginConfig is [{name, args}].
std::string Config(const std::string& name, const std::string& args) {
  return R"({"profiles":[{"pluginConfig":[{"name":")" + name + R"(","args":)" + args + "}]}]}";
}

ApiStatus Decode(const std::string& json, Interner& in, PluginArgs* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  EngineConfig config;
  CAPI_RETURN_IF_ERROR(DecodeConfig(doc.get(), in, &config));
  *out = config.profiles.at(0).plugin_args;
  return ApiStatus();
}

std::vector<std::pair<std::string, int64_t>> Specs(const std::vector<ResourceSpec>& rs) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const ResourceSpec& r : rs) out.emplace_back(r.name, r.weight);
  return out;
}
using SpecList = std::vector<std::pair<std::string, int64_t>>;
const SpecList kDefaultSpecs = {{"cpu", 1}, {"memory", 1}};

TEST(DecodePluginArgsTest, DefaultsWithoutArgs) {
  Interner in;
  PluginArgs a;
  ASSERT_TRUE(Decode("{}", in, &a).ok());
  EXPECT_EQ(a.node_resources_fit.scoring_strategy.type, ScoringStrategyType::kLeastAllocated);
  EXPECT_EQ(Specs(a.node_resources_fit.scoring_strategy.resources), kDefaultSpecs);
  EXPECT_FALSE(a.node_resources_fit.scoring_strategy.requested_to_capacity_ratio);
  EXPECT_EQ(Specs(a.node_resources_balanced_allocation.resources), kDefaultSpecs);
  EXPECT_EQ(a.default_preemption.min_candidate_nodes_percentage, 10);
  EXPECT_EQ(a.default_preemption.min_candidate_nodes_absolute, 100);
  EXPECT_FALSE(a.node_affinity.added_required);
  EXPECT_TRUE(a.node_affinity.added_preferred.empty());
}

TEST(DecodePluginArgsTest, NodeResourcesFit) {
  Interner in;
  PluginArgs a;
  ASSERT_TRUE(Decode(Config("NodeResourcesFit", R"({
      "apiVersion":"kubescheduler.config.k8s.io/v1","kind":"NodeResourcesFitArgs",
      "ignoredResources":["example.com/foo"],"ignoredResourceGroups":["example.org"],
      "scoringStrategy":{"type":"MostAllocated","resources":[
        {"name":"cpu","weight":3},{"name":"memory"},{"name":"nvidia.com/gpu","weight":0}]}})"),
                     in, &a)
                  .ok());
  const NodeResourcesFitArgs& f = a.node_resources_fit;
  EXPECT_EQ(f.ignored_resources, std::vector<std::string>{"example.com/foo"});
  EXPECT_EQ(f.ignored_resource_groups, std::vector<std::string>{"example.org"});
  EXPECT_EQ(f.scoring_strategy.type, ScoringStrategyType::kMostAllocated);
  // SetDefaults_NodeResourcesFitArgs: a weight left 0 becomes 1.
  EXPECT_EQ(Specs(f.scoring_strategy.resources),
            (SpecList{{"cpu", 3}, {"memory", 1}, {"nvidia.com/gpu", 1}}));
}

TEST(DecodePluginArgsTest, RequestedToCapacityRatio) {
  Interner in;
  PluginArgs a;
  ASSERT_TRUE(Decode(Config("NodeResourcesFit", R"({"scoringStrategy":{
      "type":"RequestedToCapacityRatio",
      "requestedToCapacityRatio":{"shape":[{"utilization":0,"score":10},
                                           {"utilization":100,"score":0}]}}})"),
                     in, &a)
                  .ok());
  const ScoringStrategy& s = a.node_resources_fit.scoring_strategy;
  EXPECT_EQ(s.type, ScoringStrategyType::kRequestedToCapacityRatio);
  EXPECT_EQ(Specs(s.resources), kDefaultSpecs);  // no resources: the default set
  ASSERT_TRUE(s.requested_to_capacity_ratio);
  ASSERT_EQ(s.requested_to_capacity_ratio->shape.size(), 2u);
  EXPECT_EQ(s.requested_to_capacity_ratio->shape[0].score, 10);
  EXPECT_EQ(s.requested_to_capacity_ratio->shape[1].utilization, 100);
}

TEST(DecodePluginArgsTest, NullsKeepDefaults) {
  Interner in;
  PluginArgs a;
  ASSERT_TRUE(Decode(R"({"profiles":[{"pluginConfig":[
      {"name":"NodeResourcesFit","args":{"scoringStrategy":null,"ignoredResources":null}},
      {"name":"NodeResourcesBalancedAllocation","args":{"resources":null}},
      {"name":"DefaultPreemption","args":{"minCandidateNodesPercentage":null}},
      {"name":"NodeAffinity","args":{"addedAffinity":null}}]}]})",
                     in, &a)
                  .ok());
  EXPECT_EQ(Specs(a.node_resources_fit.scoring_strategy.resources), kDefaultSpecs);
  EXPECT_EQ(Specs(a.node_resources_balanced_allocation.resources), kDefaultSpecs);
  EXPECT_EQ(a.default_preemption.min_candidate_nodes_percentage, 10);
  EXPECT_FALSE(a.node_affinity.added_required);
}

TEST(DecodePluginArgsTest, BalancedAllocationAndPreemption) {
  Interner in;
  PluginArgs a;
  ASSERT_TRUE(Decode(R"({"profiles":[{"pluginConfig":[
      {"name":"NodeResourcesBalancedAllocation","args":{"kind":"NodeResourcesBalancedAllocationArgs",
        "resources":[{"name":"cpu"},{"name":"example.com/gpu","weight":1}]}},
      {"name":"DefaultPreemption","args":{"kind":"DefaultPreemptionArgs",
        "minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":5}}]}]})",
                     in, &a)
                  .ok());
  EXPECT_EQ(Specs(a.node_resources_balanced_allocation.resources),
            (SpecList{{"cpu", 1}, {"example.com/gpu", 1}}));
  EXPECT_EQ(a.default_preemption.min_candidate_nodes_percentage, 0);
  EXPECT_EQ(a.default_preemption.min_candidate_nodes_absolute, 5);
}

TEST(DecodePluginArgsTest, NodeAffinityAddedAffinity) {
  Interner in;
  PluginArgs a;
  // validation_pluginargs_test.go "valid added affinity", plus a broken
  // preferred term of weight 0, which upstream never parses.
  ASSERT_TRUE(Decode(Config("NodeAffinity", R"({"kind":"NodeAffinityArgs","addedAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
        {"matchExpressions":[{"key":"label-1","operator":"In","values":["label-1-val"]}]}]},
      "preferredDuringSchedulingIgnoredDuringExecution":[
        {"weight":1,"preference":{"matchFields":[
          {"key":"metadata.name","operator":"In","values":["node-1"]}]}},
        {"weight":0,"preference":{"matchExpressions":[
          {"key":"bad key","operator":"In","values":["x"]}]}}]}})"),
                     in, &a)
                  .ok());
  const NodeAffinityArgs& n = a.node_affinity;
  ASSERT_TRUE(n.added_required);
  ASSERT_EQ(n.added_required->terms.size(), 1u);
  const Requirement& r = n.added_required->terms[0].match_expressions.at(0);
  EXPECT_EQ(in.Str(r.key), "label-1");
  EXPECT_EQ(Names(in, r.values), std::vector<std::string>{"label-1-val"});
  ASSERT_EQ(n.added_preferred.size(), 2u);
  EXPECT_EQ(n.added_preferred[0].weight, 1);
  EXPECT_EQ(Names(in, n.added_preferred[0].preference.match_fields.at(0).values),
            std::vector<std::string>{"node-1"});
  EXPECT_FALSE(n.added_preferred[1].preference.valid);
}

class DecodePluginArgsErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePluginArgsErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  PluginArgs args;
  const ApiStatus s = Decode(c.json, in, &args);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

const std::string kArgs = "profiles[0].pluginConfig[0].args";
const std::string kStrategy = kArgs + ".scoringStrategy";
const std::string kShape = kStrategy + ".requestedToCapacityRatio.shape";
const std::string kAdded = kArgs + ".addedAffinity";
const std::string kTerm0 =
    kAdded + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]";

ErrorCase Err(std::string name, const std::string& plugin, const std::string& args,
              const std::string& path, const std::string& detail) {
  return {std::move(name), Config(plugin, args), path, path + ": " + detail};
}

std::string Ratio(const std::string& shape) {
  return R"({"scoringStrategy":{"type":"RequestedToCapacityRatio","requestedToCapacityRatio":{"shape":)" +
         shape + "}}}";
}

std::string Required(const std::string& requirement, const std::string& list = "matchExpressions") {
  return R"({"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{")" +
         list + R"(":[)" + requirement + "]}]}}}";
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePluginArgsErrorTest,
    ::testing::Values(
        ErrorCase{"EntryUnknownField",
                  R"({"profiles":[{"pluginConfig":[{"name":"NodeAffinity","arg":{}}]}]})",
                  "profiles[0].pluginConfig[0].arg",
                  "profiles[0].pluginConfig[0].arg: unknown field"},
        // NodeResourcesFitArgs.
        Err("FitUnknownField", "NodeResourcesFit", R"({"ignoredResource":[]})",
            kArgs + ".ignoredResource", "unknown field"),
        Err("FitKind", "NodeResourcesFit", R"({"kind":"NodeAffinityArgs"})", kArgs + ".kind",
            R"(Unsupported value: "NodeAffinityArgs": supported values: "NodeResourcesFitArgs")"),
        Err("FitIgnoredResourceName", "NodeResourcesFit",
            R"({"ignoredResources":["example.com/"]})", kArgs + ".ignoredResources[0]",
            R"(Invalid value: "example.com/": not a valid qualified name)"),
        Err("FitIgnoredResourceNotString", "NodeResourcesFit", R"({"ignoredResources":[1]})",
            kArgs + ".ignoredResources[0]", "expected a string, got a number"),
        Err("FitIgnoredGroupSlash", "NodeResourcesFit",
            R"({"ignoredResourceGroups":["example.com/aa"]})", kArgs + ".ignoredResourceGroups[0]",
            R"(Invalid value: "example.com/aa": resource group name can't contain '/')"),
        Err("FitStrategyUnknownField", "NodeResourcesFit",
            R"({"scoringStrategy":{"type":"LeastAllocated","shape":[]}})", kStrategy + ".shape",
            "unknown field"),
        Err("FitTypeMissing", "NodeResourcesFit", R"({"scoringStrategy":{}})", kStrategy + ".type",
            R"(Unsupported value: "": supported values: "LeastAllocated", "MostAllocated", )"
            R"("RequestedToCapacityRatio")"),
        Err("FitTypeInvalid", "NodeResourcesFit", R"({"scoringStrategy":{"type":"Invalid"}})",
            kStrategy + ".type",
            R"(Unsupported value: "Invalid": supported values: "LeastAllocated", )"
            R"("MostAllocated", "RequestedToCapacityRatio")"),
        Err("FitWeightAboveMax", "NodeResourcesFit",
            R"({"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu","weight":101}]}})",
            kStrategy + ".resources[0].weight",
            "Invalid value: 101: resource weight of cpu not in valid range (0, 100]"),
        Err("FitWeightNegative", "NodeResourcesFit",
            R"({"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"memory","weight":-1}]}})",
            kStrategy + ".resources[0].weight",
            "Invalid value: -1: resource weight of memory not in valid range (0, 100]"),
        Err("FitResourceUnknownField", "NodeResourcesFit",
            R"({"scoringStrategy":{"type":"LeastAllocated","resources":[{"name":"cpu","wieght":1}]}})",
            kStrategy + ".resources[0].wieght", "unknown field"),
        Err("FitRatioMissing", "NodeResourcesFit",
            R"({"scoringStrategy":{"type":"RequestedToCapacityRatio"}})",
            kStrategy + ".requestedToCapacityRatio",
            "Required value: must be specified when type is RequestedToCapacityRatio"),
        Err("FitRatioForbidden", "NodeResourcesFit",
            R"({"scoringStrategy":{"type":"LeastAllocated","requestedToCapacityRatio":{}}})",
            kStrategy + ".requestedToCapacityRatio",
            "Forbidden: must be nil when type is not RequestedToCapacityRatio"),
        Err("FitShapeEmpty", "NodeResourcesFit", Ratio("[]"), kShape,
            "Required value: at least one point must be specified"),
        Err("FitShapeNotIncreasing", "NodeResourcesFit",
            Ratio(R"([{"utilization":10,"score":3},{"utilization":10,"score":4}])"),
            kShape + "[1].utilization",
            "Invalid value: 10: values must be sorted in increasing order"),
        Err("FitShapeUtilizationRange", "NodeResourcesFit",
            Ratio(R"([{"utilization":101,"score":3}])"), kShape + "[0].utilization",
            "Invalid value: 101: not in valid range [0, 100]"),
        Err("FitShapeScoreRange", "NodeResourcesFit", Ratio(R"([{"utilization":10,"score":11}])"),
            kShape + "[0].score", "Invalid value: 11: not in valid range [0, 10]"),
        Err("FitShapeNotInteger", "NodeResourcesFit", Ratio(R"([{"utilization":1.5,"score":1}])"),
            kShape + "[0].utilization", "expected an integer, got 1.5"),
        Err("FitShapeUnknownField", "NodeResourcesFit", Ratio(R"([{"utilisation":1,"score":1}])"),
            kShape + "[0].utilisation", "unknown field"),
        // NodeResourcesBalancedAllocationArgs.
        Err("BalancedWeight", "NodeResourcesBalancedAllocation",
            R"({"resources":[{"name":"cpu","weight":2},{"name":"memory"}]})",
            kArgs + ".resources[0].weight", "Invalid value: 2: must be 1"),
        Err("BalancedDuplicate", "NodeResourcesBalancedAllocation",
            R"({"resources":[{"name":"cpu"},{"name":"cpu"}]})", kArgs + ".resources[1].name",
            R"(Duplicate value: "cpu")"),
        Err("BalancedUnknownField", "NodeResourcesBalancedAllocation", R"({"resource":[]})",
            kArgs + ".resource", "unknown field"),
        // DefaultPreemptionArgs.
        Err("PreemptionPercentage", "DefaultPreemption", R"({"minCandidateNodesPercentage":900})",
            kArgs + ".minCandidateNodesPercentage",
            "Invalid value: 900: not in valid range [0, 100]"),
        Err("PreemptionAbsolute", "DefaultPreemption", R"({"minCandidateNodesAbsolute":-1})",
            kArgs + ".minCandidateNodesAbsolute", "Invalid value: -1: not in valid range [0, inf)"),
        Err("PreemptionBothZero", "DefaultPreemption",
            R"({"minCandidateNodesPercentage":0,"minCandidateNodesAbsolute":0})",
            kArgs + ".minCandidateNodesPercentage",
            "Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute"),
        Err("PreemptionInt32", "DefaultPreemption", R"({"minCandidateNodesAbsolute":4294967296})",
            kArgs + ".minCandidateNodesAbsolute",
            "must be between -2147483648 and 2147483647, got 4294967296"),
        Err("PreemptionUnknownField", "DefaultPreemption", R"({"minCandidateNodes":1})",
            kArgs + ".minCandidateNodes", "unknown field"),
        // NodeAffinityArgs.
        Err("AffinityUnknownField", "NodeAffinity", R"({"addedAffinity":{"required":{}}})",
            kAdded + ".required", "unknown field"),
        Err("AffinityTermUnknownField", "NodeAffinity",
            R"({"addedAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchLabels":{}}]}}})",
            kTerm0 + ".matchLabels", "unknown field"),
        Err("AffinityRequirementUnknownField", "NodeAffinity",
            Required(R"({"key":"a","operator":"Exists","value":"x"})"),
            kTerm0 + ".matchExpressions[0].value", "unknown field"),
        Err("AffinityInvalidKey", "NodeAffinity",
            Required(R"({"key":"invalid/label/key","operator":"In","values":["label-1-val"]})"),
            kTerm0 + ".matchExpressions[0].key",
            R"(Invalid value: "invalid/label/key": not a valid label key)"),
        Err("AffinityUnknownOperator", "NodeAffinity",
            Required(R"({"key":"a","operator":"Within","values":["x"]})"),
            kTerm0 + ".matchExpressions[0].operator",
            R"(Unsupported value: "Within": supported values: "In", "NotIn", "Exists", )"
            R"("DoesNotExist", "Gt", "Lt")"),
        Err("AffinityInWithoutValues", "NodeAffinity", Required(R"({"key":"a","operator":"In"})"),
            kTerm0 + ".matchExpressions[0].values",
            "Required value: for 'in', 'notin' operators, values set can't be empty"),
        Err("AffinityGtNotInteger", "NodeAffinity",
            Required(R"({"key":"a","operator":"Gt","values":["x"]})"),
            kTerm0 + ".matchExpressions[0].values[0]",
            R"(Invalid value: "x": for 'Gt', 'Lt' operators, the value must be an integer)"),
        Err("AffinityFieldTwoValues", "NodeAffinity",
            Required(R"({"key":"metadata.name","operator":"In","values":["a","b"]})",
                     "matchFields"),
            kTerm0 + ".matchFields[0].values", "Invalid value: must have one element"),
        Err("AffinityPreferredInvalid", "NodeAffinity",
            R"({"addedAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{"matchFields":[{"key":"metadata.name","operator":"Exists"}]}}]}})",
            kAdded + ".preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0]"
                     ".operator",
            R"(Unsupported value: "Exists": supported values: "In", "NotIn")"),
        Err("AffinityWrongType", "NodeAffinity",
            R"({"addedAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":{}}})",
            kAdded + ".preferredDuringSchedulingIgnoredDuringExecution",
            "expected an array, got an object")),
    CaseName);

// A config whose args fail leaves no engine behind.
TEST(PluginArgsEngineTest, BadArgsCreateNoEngine) {
  const std::string config = Config("NodeResourcesFit", R"({"scoringStrategy":{"type":"Most"}})");
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &e, &err), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(e, nullptr);
  EXPECT_STREQ(sched_error_path(err), (kStrategy + ".type").c_str());
  sched_error_free(err);
}

// The engine schedules with the profile's args: MostAllocated packs, and
// addedAffinity rejects every node it does not match, with upstream's
// reason.
TEST(PluginArgsEngineTest, ProfilesUseTheirArgs) {
  const std::string config = R"({"profiles":[
      {"schedulerName":"pack","pluginConfig":[{"name":"NodeResourcesFit","args":
        {"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu","weight":1}]}}}]},
      {"schedulerName":"zoned","pluginConfig":[{"name":"NodeAffinity","args":{"addedAffinity":
        {"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchExpressions":[{"key":"zone","operator":"In","values":["b"]}]}]}}}}]}]})";
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  ASSERT_EQ(sched_engine_new(config.data(), config.size(), &e, &err), SCHED_OK)
      << sched_error_message(err);
  using testing::CallApply;
  using testing::CallSchedule;
  using testing::NodeJson;
  using testing::PodJson;
  ASSERT_EQ(
      CallApply(e, "[" + testing::EventJson("ADDED", NodeJson("empty", "8", R"("zone":"a")")) +
                       "," + testing::EventJson("ADDED", NodeJson("busy", "8")) + "," +
                       testing::EventJson("ADDED", PodJson("b", "4", "busy")) + "]")
          .status,
      SCHED_OK);
  const std::string pack = CallSchedule(e, PodJson("p", "1", "", R"("schedulerName":"pack",)"),
                                        SCHED_SCHEDULE_NODE_STATUSES)
                               .output;
  EXPECT_NE(pack.find(R"("node":"busy")"), std::string::npos) << pack;
  const std::string zoned = CallSchedule(e, PodJson("p", "1", "", R"("schedulerName":"zoned",)"),
                                         SCHED_SCHEDULE_NODE_STATUSES)
                                .output;
  EXPECT_NE(zoned.find("0/2 nodes are available: 2 node(s) didn't match scheduler-enforced node "
                       "affinity."),
            std::string::npos)
      << zoned;
  sched_engine_free(e);
}

}  // namespace
}  // namespace decode_plugin_args_test
}  // namespace sched::capi
