// DecodeConfig: defaults, the accepted subset of KubeSchedulerConfiguration,
// and strict rejection of everything else.
#include <string>

#include <gtest/gtest.h>

#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_config_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;

// `in` receives the atoms of plugin args; null: a throwaway interner.
ApiStatus Decode(const std::string& json, EngineConfig* out, Interner* in = nullptr) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  Interner scratch;
  return DecodeConfig(doc.get(), in != nullptr ? *in : scratch, out);
}

TEST(DecodeConfigTest, EmptyIsTheDefaultProfile) {
  EngineConfig c;
  ASSERT_TRUE(Decode("{}", &c).ok());
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_EQ(c.profiles[0].percentage_of_nodes_to_score, 0);
  EXPECT_EQ(c.seed, 0u);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 1);
  EXPECT_EQ(c.pod_max_backoff_seconds, 10);
  EXPECT_EQ(c.parallelism, 0);  // hardware threads
}

TEST(DecodeConfigTest, FullConfig) {
  EngineConfig c;
  const ApiStatus s = Decode(R"({
      "apiVersion":"kubescheduler.config.k8s.io/v1","kind":"KubeSchedulerConfiguration",
      "percentageOfNodesToScore":40,"parallelism":8,"seed":"18446744073709551615",
      "podInitialBackoffSeconds":2,"podMaxBackoffSeconds":2,"equivalenceCache":false,
      "profiles":[{"schedulerName":"a"},
                  {"schedulerName":"b","percentageOfNodesToScore":0},
                  {"schedulerName":"c","percentageOfNodesToScore":100}]})",
                             &c);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(c.seed, UINT64_MAX);
  EXPECT_EQ(c.parallelism, 8);
  EXPECT_EQ(c.pod_initial_backoff_seconds, 2);
  EXPECT_EQ(c.pod_max_backoff_seconds, 2);
  EXPECT_FALSE(c.equivalence_cache);
  ASSERT_EQ(c.profiles.size(), 3u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "a");
  EXPECT_EQ(c.profiles[0].percentage_of_nodes_to_score, 40);  // the global value
  EXPECT_EQ(c.profiles[1].percentage_of_nodes_to_score, 0);   // the profile's own
  EXPECT_EQ(c.profiles[2].percentage_of_nodes_to_score, 100);
}

TEST(DecodeConfigTest, LoneProfileDefaultsItsName) {
  EngineConfig c;
  ASSERT_TRUE(Decode(R"({"profiles":[{}],"seed":7})", &c).ok());
  ASSERT_EQ(c.profiles.size(), 1u);
  EXPECT_EQ(c.profiles[0].scheduler_name, "default-scheduler");
  EXPECT_EQ(c.seed, 7u);
  EXPECT_TRUE(c.equivalence_cache);  // on by default
  ASSERT_TRUE(Decode(R"({"profiles":[]})", &c).ok());
  EXPECT_EQ(c.profiles.size(), 1u);
}

TEST(DecodeConfigTest, InterPodAffinityArgs) {
  EngineConfig c;
  ApiStatus s = Decode(R"({"profiles":[
      {"schedulerName":"a","pluginConfig":[{"name":"InterPodAffinity","args":{
        "apiVersion":"kubescheduler.config.k8s.io/v1","kind":"InterPodAffinityArgs",
        "hardPodAffinityWeight":0,"ignorePreferredTermsOfExistingPods":true}}]},
      {"schedulerName":"b","pluginConfig":[{"name":"InterPodAffinity"}]},
      {"schedulerName":"c","pluginConfig":null}]})",
                       &c);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(c.profiles.size(), 3u);
  EXPECT_EQ(c.profiles[0].plugin_args.inter_pod_affinity.hard_pod_affinity_weight, 0);
  EXPECT_TRUE(c.profiles[0].plugin_args.inter_pod_affinity.ignore_preferred_terms_of_existing_pods);
  for (size_t i : {1, 2}) {  // the v1 defaults
    EXPECT_EQ(c.profiles[i].plugin_args.inter_pod_affinity.hard_pod_affinity_weight, 1);
    EXPECT_FALSE(
        c.profiles[i].plugin_args.inter_pod_affinity.ignore_preferred_terms_of_existing_pods);
  }
}

class DecodeConfigErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeConfigErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  EngineConfig config;
  const ApiStatus s = Decode(c.json, &config);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

// {"profiles":[{"schedulerName":"p0"},...]} with n profiles.
std::string Profiles(int n) {
  std::string json = R"({"profiles":[)";
  for (int i = 0; i < n; ++i) {
    json += std::string(i ? "," : "") + R"({"schedulerName":"p)" + std::to_string(i) + "\"}";
  }
  return json + "]}";
}

TEST(DecodeConfigTest, ProfilesAreBounded) {
  EngineConfig config;
  EXPECT_TRUE(Decode(Profiles(100), &config).ok());
  EXPECT_EQ(config.profiles.size(), 100u);
  const ApiStatus s = Decode(Profiles(101), &config);
  EXPECT_EQ(s.path(), "profiles");
  EXPECT_EQ(s.message(), "profiles: Too many: 101: must have at most 100 items");
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeConfigErrorTest,
    ::testing::Values(
        ErrorCase{"NotObject", "[]", "", "expected an object, got an array"},
        ErrorCase{"UnknownField", R"({"leaderElection":{}})", "leaderElection",
                  "leaderElection: unknown field"},
        ErrorCase{"Duplicate", R"({"seed":1,"seed":2})", "seed", "seed: duplicate key"},
        ErrorCase{"ApiVersion", R"({"apiVersion":"v1"})", "apiVersion",
                  "apiVersion: Unsupported value: \"v1\": supported values: "
                  "\"kubescheduler.config.k8s.io/v1\""},
        ErrorCase{"Kind", R"({"kind":"Pod"})", "kind",
                  "kind: Unsupported value: \"Pod\": supported values: "
                  "\"KubeSchedulerConfiguration\", \"Policy\""},
        ErrorCase{"PercentageRange", R"({"percentageOfNodesToScore":-1})",
                  "percentageOfNodesToScore",
                  "percentageOfNodesToScore: must be between 0 and 100, got -1"},
        ErrorCase{"Parallelism", R"({"parallelism":0})", "parallelism",
                  "parallelism: must be between 1 and 2147483647, got 0"},
        ErrorCase{"InitialBackoff", R"({"podInitialBackoffSeconds":0})",
                  "podInitialBackoffSeconds",
                  "podInitialBackoffSeconds: must be between 1 and 1000000000, got 0"},
        ErrorCase{"MaxBackoffBelowInitial",
                  R"({"podInitialBackoffSeconds":5,"podMaxBackoffSeconds":4})",
                  "podMaxBackoffSeconds",
                  "podMaxBackoffSeconds: must be greater than or equal to "
                  "PodInitialBackoffSeconds"},
        ErrorCase{"SeedNegative", R"({"seed":-1})", "seed",
                  "seed: must be between 0 and 9007199254740992, got -1"},
        ErrorCase{"SeedString", R"({"seed":"12a"})", "seed",
                  "seed: expected an unsigned 64-bit integer"},
        ErrorCase{"EquivalenceCacheType", R"({"equivalenceCache":"on"})", "equivalenceCache",
                  "equivalenceCache: expected a boolean, got a string"},
        ErrorCase{"ProfilesType", R"({"profiles":{}})", "profiles",
                  "profiles: expected an array, got an object"},
        ErrorCase{"ProfileUnknownField", R"({"profiles":[{"schedulerName":"a","x":1}]})",
                  "profiles[0].x", "profiles[0].x: unknown field"},
        ErrorCase{"HardPodAffinityWeightRange",
                  R"({"profiles":[{"pluginConfig":[{"name":"InterPodAffinity",
                      "args":{"hardPodAffinityWeight":101}}]}]})",
                  "profiles[0].pluginConfig[0].args.hardPodAffinityWeight",
                  "profiles[0].pluginConfig[0].args.hardPodAffinityWeight: Invalid value: 101: "
                  "not in valid range [0, 100]"},
        ErrorCase{"InterPodAffinityArgsUnknown",
                  R"({"profiles":[{"pluginConfig":[{"name":"InterPodAffinity",
                      "args":{"hardPodAffinityWeigth":1}}]}]})",
                  "profiles[0].pluginConfig[0].args.hardPodAffinityWeigth",
                  "profiles[0].pluginConfig[0].args.hardPodAffinityWeigth: unknown field"},
        ErrorCase{"InterPodAffinityArgsKind",
                  R"({"profiles":[{"pluginConfig":[{"name":"InterPodAffinity",
                      "args":{"kind":"NodeAffinityArgs"}}]}]})",
                  "profiles[0].pluginConfig[0].args.kind",
                  "profiles[0].pluginConfig[0].args.kind: Unsupported value: "
                  "\"NodeAffinityArgs\": supported values: \"InterPodAffinityArgs\""},
        ErrorCase{"PluginConfigDuplicate",
                  R"({"profiles":[{"pluginConfig":[{"name":"InterPodAffinity"},
                      {"name":"InterPodAffinity"}]}]})",
                  "profiles[0].pluginConfig[1]",
                  "profiles[0].pluginConfig[1]: Duplicate value: \"InterPodAffinity\""},
        ErrorCase{"PluginConfigOtherPlugin",
                  R"({"profiles":[{"pluginConfig":[{"name":"ImageLocality","args":{}}]}]})",
                  "profiles[0].pluginConfig[0].name",
                  "profiles[0].pluginConfig[0].name: not supported: only InterPodAffinity, "
                  "PodTopologySpread, NodeResourcesFit, NodeResourcesBalancedAllocation, "
                  "NodeAffinity, DefaultPreemption, NodeLabel and ServiceAffinity take arguments"},
        ErrorCase{"ProfileNameMissing", R"({"profiles":[{"schedulerName":"a"},{}]})",
                  "profiles[1].schedulerName", "profiles[1].schedulerName: Required value"},
        ErrorCase{"ProfileNameDuplicate",
                  R"({"profiles":[{"schedulerName":"a"},{"schedulerName":"a"}]})",
                  "profiles[1].schedulerName",
                  "profiles[1].schedulerName: Duplicate value: \"a\""},
        ErrorCase{"ProfilePercentage",
                  R"({"profiles":[{"schedulerName":"a","percentageOfNodesToScore":101}]})",
                  "profiles[0].percentageOfNodesToScore",
                  "profiles[0].percentageOfNodesToScore: must be between 0 and 100, got 101"}),
    CaseName);

}  // namespace
}  // namespace decode_config_test
}  // namespace sched::capi
