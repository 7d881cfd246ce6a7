// The legacy Policy: the profile the seeds' Policy file becomes, the
// translation of each legacy name (docs/policy.md), and every invalid form.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_policy_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using EP = ExtensionPoint;
using Names = std::vector<std::string>;

ApiStatus Decode(const std::string& json, EngineConfig* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  static Interner in;  // outlives the decoded args' atoms
  return DecodeConfig(doc.get(), in, out);
}

std::string Translate(const std::string& policy) {
  JsonDoc doc;
  EXPECT_TRUE(ParseJson(policy, &doc).ok());
  std::string out;
  bool run_all = false;
  const ApiStatus s = TranslatePolicy(doc.get(), &out, &run_all);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

std::vector<std::string> At(const ProfileConfig& p, EP point) {
  std::vector<std::string> out;
  for (const PluginRef& r : p.plugins[static_cast<size_t>(point)]) {
    out.push_back(r.weight != 0 ? r.name + ":" + std::to_string(r.weight) : r.name);
  }
  return out;
}

// examples/policy/seeds-policy.json: every predicate and priority name the
// seeds use that this build has a plugin for, with argument forms.
TEST(DecodePolicyTest, SeedsPolicyFile) {
  std::ifstream f(std::string(LIBSCHED_SOURCE_ROOT) + "/examples/policy/seeds-policy.json");
  ASSERT_TRUE(f) << "cannot read the seeds' Policy file";
  std::stringstream text;
  text << f.rdbuf();
  EngineConfig c;
  const ApiStatus s = Decode(text.str(), &c);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(c.profiles.size(), 1u);
  const ProfileConfig& p = c.profiles[0];
  EXPECT_EQ(p.scheduler_name, "default-scheduler");
  EXPECT_TRUE(p.run_all_filters);
  EXPECT_EQ(At(p, EP::kPreEnqueue), Names({"SchedulingGates"}));
  EXPECT_EQ(At(p, EP::kQueueSort), Names({"PrioritySort"}));
  // Filters in predicateOrdering; each plugin once, where it first appears.
  EXPECT_EQ(At(p, EP::kFilter),
            Names({"NodeUnschedulable", "NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity",
                   "VolumeRestrictions", "TaintToleration", "NodeLabel", "NodeVolumeLimits",
                   "VolumeBinding", "VolumeZone", "PodTopologySpread", "InterPodAffinity"}));
  EXPECT_EQ(At(p, EP::kPreFilter),
            Names({"NodeUnschedulable", "NodeResourcesFit", "NodePorts", "NodeAffinity",
                   "VolumeRestrictions", "NodeLabel", "NodeVolumeLimits", "VolumeBinding",
                   "VolumeZone", "PodTopologySpread", "InterPodAffinity"}));
  EXPECT_EQ(At(p, EP::kPostFilter), Names({"DefaultPreemption"}));
  // Scores in priority-name order; a labelPreference weighs weight x labels.
  EXPECT_EQ(At(p, EP::kScore),
            Names({"NodeResourcesBalancedAllocation:1", "EqualPriority:1", "PodTopologySpread:2",
                   "ImageLocality:1", "InterPodAffinity:1", "NodeResourcesFit:1", "NodeAffinity:1",
                   "NodeLabel:5", "TaintToleration:1"}));
  // The engine's VolumeBinding has no Reserve/PreBind (the caller binds).
  EXPECT_EQ(At(p, EP::kReserve), Names());
  EXPECT_EQ(At(p, EP::kPreBind), Names());
  EXPECT_EQ(At(p, EP::kBind), Names({"DefaultBinder"}));
  // pluginConfig from the arguments.
  EXPECT_EQ(p.plugin_args.inter_pod_affinity.hard_pod_affinity_weight, 10);
  EXPECT_EQ(p.plugin_args.node_label.present_labels, Names({"rack"}));
  EXPECT_EQ(p.plugin_args.node_label.present_labels_preference, Names({"disk-ssd"}));
  EXPECT_FALSE(p.plugin_args.pod_topology_spread.system_defaulting);
}

// `order` (the seeds' extension) runs those predicates first.
TEST(DecodePolicyTest, OrderSetsTheFilterOrder) {
  EngineConfig c;
  const ApiStatus s = Decode(R"({"kind":"Policy","predicates":[
      {"name":"PodFitsResources"},
      {"name":"HostName","order":2},
      {"name":"RequireRack","order":1,"argument":{"labelsPresence":{"labels":["rack"],"presence":true}}}],
      "priorities":[{"name":"EqualPriority","weight":1}]})",
                             &c);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(At(c.profiles[0], EP::kFilter), Names({"NodeLabel", "NodeName", "NodeUnschedulable",
                                                   "NodeResourcesFit", "TaintToleration"}));
  EXPECT_FALSE(c.profiles[0].run_all_filters);
}

// The translation of names whose plugins other parts of the build supply,
// and of the fields a Policy may leave out, as KubeSchedulerConfiguration.
TEST(DecodePolicyTest, Translation) {
  const std::string kHead =
      R"({"apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",)"
      R"("profiles":[{"schedulerName":"default-scheduler","plugins":{"multiPoint":)"
      R"({"disabled":[{"name":"*"}]},"preEnqueue":{"enabled":[{"name":"SchedulingGates"}]},)"
      R"("queueSort":{"enabled":[{"name":"PrioritySort"}]},)";
  const std::string kMandatory =
      R"("preFilter":{"enabled":[{"name":"NodeUnschedulable"}]},)"
      R"("filter":{"enabled":[{"name":"NodeUnschedulable"},{"name":"TaintToleration"}]},)"
      R"("postFilter":{"enabled":[{"name":"DefaultPreemption"}]},)";
  const std::string kBind = R"("bind":{"enabled":[{"name":"DefaultBinder"}]}},)";
  EXPECT_EQ(Translate(R"({"kind":"Policy","predicates":[],"priorities":[
                {"name":"MostRequestedPriority","weight":3}]})"),
            kHead + kMandatory +
                R"("preScore":{"enabled":[{"name":"NodeResourcesFit"}]},)"
                R"("score":{"enabled":[{"name":"NodeResourcesFit","weight":3}]},)" +
                kBind +
                R"("pluginConfig":[{"name":"NodeResourcesFit","args":{"scoringStrategy":)"
                R"({"type":"MostAllocated"}}}]}]})");
  EXPECT_EQ(Translate(R"({"kind":"Policy","predicates":[],"priorities":[
                {"name":"Ratio","weight":2,"argument":{"requestedToCapacityRatioArguments":{
                  "shape":[{"utilization":0,"score":0},{"utilization":100,"score":10}],
                  "resources":[{"name":"cpu","weight":2}]}}}]})"),
            kHead + kMandatory +
                R"("preScore":{"enabled":[{"name":"NodeResourcesFit"}]},)"
                R"("score":{"enabled":[{"name":"NodeResourcesFit","weight":2}]},)" +
                kBind +
                R"("pluginConfig":[{"name":"NodeResourcesFit","args":{"scoringStrategy":)"
                R"({"type":"RequestedToCapacityRatio","resources":[{"name":"cpu","weight":2}],)"
                R"("requestedToCapacityRatio":{"shape":[{"utilization":0,"score":0},)"
                R"({"utilization":100,"score":10}]}}}}]}]})");
  EXPECT_EQ(Translate(R"({"kind":"Policy","predicates":[
                {"name":"Zone","argument":{"serviceAffinity":{"labels":["zone"]}}}],
                "priorities":[
                {"name":"ServiceSpreadingPriority","weight":1},
                {"name":"NodePreferAvoidPodsPriority","weight":10000},
                {"name":"A","weight":2,"argument":{"serviceAntiAffinity":{"label":"rack"}}},
                {"name":"B","weight":2,"argument":{"serviceAntiAffinity":{"label":"zone"}}}]})"),
            kHead +
                R"("preFilter":{"enabled":[{"name":"NodeUnschedulable"},)"
                R"({"name":"ServiceAffinity"}]},)"
                R"("filter":{"enabled":[{"name":"NodeUnschedulable"},{"name":"TaintToleration"},)"
                R"({"name":"ServiceAffinity"}]},)"
                R"("postFilter":{"enabled":[{"name":"DefaultPreemption"}]},)"
                R"("preScore":{"enabled":[{"name":"SelectorSpread"},{"name":"ServiceAffinity"}]},)"
                R"("score":{"enabled":[{"name":"NodePreferAvoidPods","weight":10000},)"
                R"({"name":"SelectorSpread","weight":1},{"name":"ServiceAffinity","weight":4}]},)" +
                kBind +
                R"("pluginConfig":[{"name":"ServiceAffinity","args":{"affinityLabels":["zone"],)"
                R"("antiAffinityLabelsPreference":["rack","zone"]}}]}]})");
  // No predicates / priorities fields: upstream's default sets.
  const std::string defaults = Translate(R"({"kind":"Policy"})");
  for (const char* want :
       {R"({"name":"NodePreferAvoidPods","weight":10000})",
        R"({"name":"SelectorSpread","weight":1})", R"({"name":"PodTopologySpread","weight":2})",
        R"({"name":"VolumeBinding"})", R"({"name":"InterPodAffinity"})",
        R"("defaultingType":"List")"}) {
    EXPECT_NE(defaults.find(want), std::string::npos) << want << " in " << defaults;
  }
}

class DecodePolicyErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePolicyErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  EngineConfig config;
  const ApiStatus s = Decode(c.json, &config);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePolicyErrorTest,
    ::testing::Values(
        ErrorCase{"UnknownPredicate",
                  R"({"kind":"Policy","predicates":[{"name":"HostName"},{"name":"HostName"},
                      {"name":"HostName"},{"name":"PodFitsMemory"}]})",
                  "predicates[3].name",
                  "predicates[3].name: predicate type not found for "
                  "\"PodFitsMemory\""},
        ErrorCase{"UnknownPriority",
                  R"({"kind":"Policy","priorities":[{"name":"MostRequested","weight":1}]})",
                  "priorities[0].name",
                  "priorities[0].name: priority type not found for "
                  "\"MostRequested\""},
        ErrorCase{"PriorityWeightZero",
                  R"({"kind":"Policy","priorities":[{"name":"EqualPriority"}]})",
                  "priorities[0].weight",
                  "priorities[0].weight: priority \"EqualPriority\" should have a "
                  "positive "
                  "weight applied to it or it has overflown"},
        ErrorCase{"PriorityWeightType",
                  R"({"kind":"Policy","priorities":[{"name":"EqualPriority","weight":"1"}]})",
                  "priorities[0].weight",
                  "priorities[0].weight: expected an integer, got a string"},
        ErrorCase{
            "PluginWeightOverflow",
            R"({"kind":"Policy","priorities":[{"name":"EqualPriority","weight":3000000000}]})",
            "priorities[0].name",
            "priorities[0].name: the weight of plugin \"EqualPriority\" "
            "(3000000000) "
            "exceeds 2147483647"},
        ErrorCase{"HardPodAffinityWeight",
                  R"({"kind":"Policy","hardPodAffinitySymmetricWeight":101})",
                  "hardPodAffinitySymmetricWeight",
                  "hardPodAffinitySymmetricWeight: Invalid value: 101: not in "
                  "valid range "
                  "[0-100]"},
        ErrorCase{"AlwaysCheckType", R"({"kind":"Policy","alwaysCheckAllPredicates":1})",
                  "alwaysCheckAllPredicates",
                  "alwaysCheckAllPredicates: expected a boolean, got a number"},
        ErrorCase{"UnknownField", R"({"kind":"Policy","predicate":[]})", "predicate",
                  "predicate: unknown field"},
        ErrorCase{"ApiVersion", R"({"kind":"Policy","apiVersion":"v2"})", "apiVersion",
                  "apiVersion: Unsupported value: \"v2\": supported values: \"v1\""},
        ErrorCase{"Extenders", R"({"kind":"Policy","extenders":[{}]})", "extenders",
                  "extenders: not supported: extenders"},
        ErrorCase{"PredicatesType", R"({"kind":"Policy","predicates":{}})", "predicates",
                  "predicates: expected an array, got an object"},
        ErrorCase{"PredicateUnknownField",
                  R"({"kind":"Policy","predicates":[{"name":"HostName","weight":1}]})",
                  "predicates[0].weight", "predicates[0].weight: unknown field"},
        ErrorCase{"PredicateNoName", R"({"kind":"Policy","predicates":[{"order":1}]})",
                  "predicates[0].name", "predicates[0].name: Required value"},
        ErrorCase{"PredicateOrderType",
                  R"({"kind":"Policy","predicates":[{"name":"HostName","order":1.5}]})",
                  "predicates[0].order", "predicates[0].order: expected an integer, got 1.5"},
        ErrorCase{"TwoArguments",
                  R"({"kind":"Policy","predicates":[{"name":"x","argument":{
                      "serviceAffinity":{"labels":["a"]},"labelsPresence":{"labels":["a"]}}}]})",
                  "predicates[0].argument",
                  "predicates[0].argument: exactly 1 argument is required, got 2"},
        ErrorCase{"NoArgument",
                  R"({"kind":"Policy","priorities":[{"name":"x","weight":1,"argument":{}}]})",
                  "priorities[0].argument",
                  "priorities[0].argument: exactly 1 argument is required, got 0"},
        ErrorCase{"UnknownArgument",
                  R"({"kind":"Policy","predicates":[{"name":"x","argument":{"labels":{}}}]})",
                  "predicates[0].argument.labels", "predicates[0].argument.labels: unknown field"},
        ErrorCase{"ArgumentFieldType",
                  R"({"kind":"Policy","predicates":[{"name":"x","argument":{
                      "labelsPresence":{"labels":"rack"}}}]})",
                  "predicates[0].argument.labelsPresence.labels",
                  "predicates[0].argument.labelsPresence.labels: expected an "
                  "array, got a "
                  "string"},
        ErrorCase{"LabelPreferenceWeights",
                  R"({"kind":"Policy","priorities":[
                      {"name":"a","weight":1,"argument":{"labelPreference":{"label":"x"}}},
                      {"name":"b","weight":2,"argument":{"labelPreference":{"label":"y"}}}]})",
                  "priorities[1].weight",
                  "priorities[1].weight: labelPreference priorities must all "
                  "have the same "
                  "weight, got 2 and 1"},
        ErrorCase{"RatioTwice",
                  R"({"kind":"Policy","priorities":[
                      {"name":"a","weight":1,"argument":{"requestedToCapacityRatioArguments":{}}},
                      {"name":"b","weight":1,"argument":{"requestedToCapacityRatioArguments":{}}}]})",
                  "priorities[1].argument",
                  "priorities[1].argument: requestedToCapacityRatioArguments "
                  "may be given once"},
        ErrorCase{"LeastAndMost",
                  R"({"kind":"Policy","priorities":[{"name":"LeastRequestedPriority","weight":1},
                      {"name":"MostRequestedPriority","weight":1}]})",
                  "priorities[1].name",
                  "priorities[1].name: LeastRequestedPriority, MostRequestedPriority "
                  "and "
                  "RequestedToCapacityRatioPriority cannot be combined: each sets "
                  "NodeResourcesFit's scoring strategy"},
        ErrorCase{"LabelConflict",
                  R"({"kind":"Policy","predicates":[
                      {"name":"a","argument":{"labelsPresence":{"labels":["x"],"presence":true}}},
                      {"name":"b","argument":{"labelsPresence":{"labels":["x"]}}}],
                      "priorities":[{"name":"EqualPriority","weight":1}]})",
                  "",
                  "the profile translated from the Policy is invalid: "
                  "profiles[0].pluginConfig[0].args.presentLabels[0]: Invalid value: "
                  "\"x\": has "
                  "conflict with profiles[0].pluginConfig[0].args.absentLabels[0]"}),
    CaseName);

}  // namespace
}  // namespace decode_policy_test
}  // namespace sched::capi
