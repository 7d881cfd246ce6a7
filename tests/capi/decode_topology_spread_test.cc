// Decoding what PodTopologySpread reads: spec.topologySpreadConstraints
// (matchLabelKeys merged), the controller ownerReference, Services /
// ReplicationControllers / ReplicaSets / StatefulSets as events, and
// PodTopologySpreadArgs in pluginConfig; bad input names its path.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libsched/model/pod.h"
#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_topology_spread_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::ParseAndDecodePod;

std::string PodWith(const std::string& labels, const std::string& constraints) {
  return R"({"metadata":{"name":"p","labels":{)" + labels +
         R"(}},"spec":{"topologySpreadConstraints":[)" + constraints + "]}}";
}

TEST(DecodeTopologySpreadTest, ConstraintsAndDefaults) {
  Interner in;
  DecodedPod d;
  const ApiStatus s = ParseAndDecodePod(
      PodWith(R"("app":"web","pod-template-hash":"abc")",
              R"({"maxSkew":2,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
                  "labelSelector":{"matchLabels":{"app":"web"}},"minDomains":3,
                  "nodeAffinityPolicy":"Ignore","nodeTaintsPolicy":"Honor",
                  "matchLabelKeys":["pod-template-hash","missing"]},
                 {"maxSkew":1,"topologyKey":"kubernetes.io/hostname",
                  "whenUnsatisfiable":"ScheduleAnyway"})"),
      in, &d);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto& cs = d.pod->topology_spread_constraints;
  ASSERT_EQ(cs.size(), 2u);
  EXPECT_EQ(cs[0].max_skew, 2);
  EXPECT_EQ(in.Str(cs[0].topology_key), "zone");
  EXPECT_TRUE(cs[0].do_not_schedule);
  EXPECT_EQ(cs[0].min_domains, 3);
  EXPECT_EQ(cs[0].node_affinity_policy, NodeInclusionPolicy::kIgnore);
  EXPECT_EQ(cs[0].node_taints_policy, NodeInclusionPolicy::kHonor);
  // matchLabelKeys: pod-template-hash In (abc) is ANDed in; a key the pod
  // lacks adds nothing.
  ASSERT_TRUE(cs[0].selector.has_value());
  ASSERT_EQ(cs[0].selector->requirements.size(), 2u);
  EXPECT_EQ(in.Str(cs[0].selector->requirements[1].key), "pod-template-hash");
  EXPECT_EQ(in.Str(cs[0].selector->requirements[1].values[0]), "abc");
  const LabelSet same({{in.Intern("app"), in.Intern("web")},
                       {in.Intern("pod-template-hash"), in.Intern("abc")}});
  const LabelSet old_revision({{in.Intern("app"), in.Intern("web")},
                               {in.Intern("pod-template-hash"), in.Intern("old")}});
  EXPECT_TRUE(cs[0].selector->Matches(same, in));
  EXPECT_FALSE(cs[0].selector->Matches(old_revision, in));
  // Defaults: minDomains 1, Honor / Ignore; a nil selector stays nil.
  EXPECT_FALSE(cs[1].do_not_schedule);
  EXPECT_EQ(cs[1].min_domains, 1);
  EXPECT_EQ(cs[1].node_affinity_policy, NodeInclusionPolicy::kHonor);
  EXPECT_EQ(cs[1].node_taints_policy, NodeInclusionPolicy::kIgnore);
  EXPECT_FALSE(cs[1].selector.has_value());
}

TEST(DecodeTopologySpreadTest, MatchLabelKeysLeaveANilSelectorNil) {
  Interner in;
  DecodedPod d;
  ASSERT_TRUE(ParseAndDecodePod(PodWith(R"("app":"web")",
                                        R"({"maxSkew":1,"topologyKey":"zone",
                                            "whenUnsatisfiable":"DoNotSchedule",
                                            "matchLabelKeys":["app"]})"),
                                in, &d)
                  .ok());
  EXPECT_FALSE(d.pod->topology_spread_constraints[0].selector.has_value());
}

TEST(DecodeTopologySpreadTest, ControllerOwnerReference) {
  struct Case {
    std::string refs;
    ControllerKind kind;
    std::string name;
  };
  const std::vector<Case> cases = {
      {R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-1","controller":true}])",
       ControllerKind::kReplicaSet, "web-1"},
      {R"([{"apiVersion":"apps/v1","kind":"StatefulSet","name":"db","controller":true}])",
       ControllerKind::kStatefulSet, "db"},
      {R"([{"apiVersion":"v1","kind":"ReplicationController","name":"rc","controller":true}])",
       ControllerKind::kReplicationController, "rc"},
      // Not the controller; another group version; a Job.
      {R"([{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"x"}])", ControllerKind::kOther, ""},
      {R"([{"apiVersion":"extensions/v1beta1","kind":"ReplicaSet","name":"x","controller":true}])",
       ControllerKind::kOther, ""},
      {R"([{"apiVersion":"batch/v1","kind":"Job","name":"j","controller":true},
           {"apiVersion":"apps/v1","kind":"ReplicaSet","name":"x","controller":true}])",
       ControllerKind::kOther, ""},
  };
  for (const Case& c : cases) {
    Interner in;
    DecodedPod d;
    const ApiStatus s = ParseAndDecodePod(
        R"({"metadata":{"name":"p","ownerReferences":)" + c.refs + "}}", in, &d);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(d.pod->controller_kind, c.kind) << c.refs;
    EXPECT_EQ(d.pod->controller_name, c.name) << c.refs;
  }
}

class DecodeTopologySpreadErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeTopologySpreadErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  DecodedPod d;
  const ApiStatus s = ParseAndDecodePod(c.json, in, &d);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

std::string One(const std::string& members) { return PodWith("", "{" + members + "}"); }
constexpr const char* kC0 = "spec.topologySpreadConstraints[0]";

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeTopologySpreadErrorTest,
    ::testing::Values(
        ErrorCase{"NotAnArray", R"({"metadata":{"name":"p"},"spec":{"topologySpreadConstraints":{}}})",
                  "spec.topologySpreadConstraints",
                  "spec.topologySpreadConstraints: expected an array, got an object"},
        ErrorCase{"MaxSkewZero",
                  One(R"("maxSkew":0,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule")"),
                  std::string(kC0) + ".maxSkew",
                  std::string(kC0) + ".maxSkew: Invalid value: 0: must be greater than zero"},
        ErrorCase{"MaxSkewMissing", One(R"("topologyKey":"z","whenUnsatisfiable":"DoNotSchedule")"),
                  std::string(kC0) + ".maxSkew",
                  std::string(kC0) + ".maxSkew: Invalid value: 0: must be greater than zero"},
        ErrorCase{"TopologyKeyMissing", One(R"("maxSkew":1,"whenUnsatisfiable":"DoNotSchedule")"),
                  std::string(kC0) + ".topologyKey",
                  std::string(kC0) + ".topologyKey: Required value"},
        ErrorCase{"TopologyKeyInvalid",
                  One(R"("maxSkew":1,"topologyKey":"a b","whenUnsatisfiable":"DoNotSchedule")"),
                  std::string(kC0) + ".topologyKey",
                  std::string(kC0) + ".topologyKey: Invalid value: not a label key"},
        ErrorCase{"WhenUnsatisfiable",
                  One(R"("maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"Maybe")"),
                  std::string(kC0) + ".whenUnsatisfiable",
                  std::string(kC0) +
                      ".whenUnsatisfiable: Unsupported value: \"Maybe\": supported values: "
                      "\"DoNotSchedule\", \"ScheduleAnyway\""},
        ErrorCase{"MinDomainsZero",
                  One(R"("maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",
                         "minDomains":0)"),
                  std::string(kC0) + ".minDomains",
                  std::string(kC0) + ".minDomains: Invalid value: 0: must be greater than zero"},
        ErrorCase{"MinDomainsScheduleAnyway",
                  One(R"("maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"ScheduleAnyway",
                         "minDomains":2)"),
                  std::string(kC0) + ".minDomains",
                  std::string(kC0) +
                      ".minDomains: Invalid value: 2: can only use minDomains if "
                      "whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway"},
        ErrorCase{"Policy",
                  One(R"("maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",
                         "nodeTaintsPolicy":"honor")"),
                  std::string(kC0) + ".nodeTaintsPolicy",
                  std::string(kC0) +
                      ".nodeTaintsPolicy: Unsupported value: \"honor\": supported values: "
                      "\"Honor\", \"Ignore\""},
        ErrorCase{"InvalidSelector",
                  One(R"("maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",
                         "labelSelector":{"matchExpressions":[{"key":"a","operator":"In"}]})"),
                  std::string(kC0) + ".labelSelector",
                  std::string(kC0) + ".labelSelector: Invalid value: invalid selector"},
        ErrorCase{"MatchLabelKeysType",
                  One(R"("maxSkew":1,"topologyKey":"z","whenUnsatisfiable":"DoNotSchedule",
                         "matchLabelKeys":[1])"),
                  std::string(kC0) + ".matchLabelKeys[0]",
                  std::string(kC0) + ".matchLabelKeys[0]: expected a string, got a number"},
        ErrorCase{"OwnerReferenceController",
                  R"({"metadata":{"name":"p","ownerReferences":[{"controller":"yes"}]}})",
                  "metadata.ownerReferences[0].controller",
                  "metadata.ownerReferences[0].controller: expected a boolean, got a string"}),
    CaseName);

TEST(DecodeWorkloadTest, EventsOfEveryKind) {
  Interner in;
  JsonDoc doc;
  ASSERT_TRUE(ParseJson(R"([
      {"type":"ADDED","object":{"apiVersion":"v1","kind":"Service",
        "metadata":{"name":"web","namespace":"shop"},"spec":{"selector":{"app":"web"}}}},
      {"type":"ADDED","object":{"apiVersion":"v1","kind":"Service",
        "metadata":{"name":"headless"},"spec":{}}},
      {"type":"ADDED","object":{"apiVersion":"v1","kind":"ReplicationController",
        "metadata":{"name":"rc"},"spec":{"selector":{"app":"rc"}}}},
      {"type":"MODIFIED","object":{"apiVersion":"apps/v1","kind":"ReplicaSet",
        "metadata":{"name":"rs"},"spec":{"selector":{"matchLabels":{"app":"rs"}}}}},
      {"type":"ADDED","object":{"apiVersion":"apps/v1","kind":"StatefulSet",
        "metadata":{"name":"ss"},"spec":{"selector":{"matchExpressions":
          [{"key":"app","operator":"Exists"}]}}}},
      {"type":"DELETED","object":{"apiVersion":"apps/v1","kind":"ReplicaSet",
        "metadata":{"name":"rs"}}},
      {"type":"ADDED","object":{"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"d"}}}])",
                        &doc)
                  .ok());
  ChangeSet cs;
  const ApiStatus s = DecodeChanges(doc.get(), in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 6u);
  const Workload& svc = *cs.changes[0].workload;
  EXPECT_EQ(svc.kind, WorkloadKind::kService);
  EXPECT_EQ(svc.ns, "shop");
  ASSERT_TRUE(svc.match_labels.has_value());
  EXPECT_EQ(svc.match_labels->Get(in.Intern("app")), in.Intern("web"));
  EXPECT_FALSE(cs.changes[1].workload->match_labels.has_value());  // nil selector
  EXPECT_EQ(cs.changes[2].workload->kind, WorkloadKind::kReplicationController);
  EXPECT_EQ(cs.changes[3].workload->kind, WorkloadKind::kReplicaSet);
  ASSERT_TRUE(cs.changes[3].workload->selector.has_value());
  EXPECT_EQ(cs.changes[4].workload->kind, WorkloadKind::kStatefulSet);
  EXPECT_TRUE(cs.changes[4].workload->selector->valid);
  EXPECT_EQ(cs.changes[5].op, Change::Op::kRemoveWorkload);
  EXPECT_EQ(cs.changes[5].workload_kind, WorkloadKind::kReplicaSet);
  EXPECT_EQ(cs.changes[5].key, "default/rs");
  EXPECT_EQ(cs.summary.applied, 6);
  EXPECT_EQ(cs.summary.ignored["Deployment"], 1);
}

TEST(DecodeWorkloadTest, BadSelectorNamesPath) {
  Interner in;
  JsonDoc doc;
  ASSERT_TRUE(ParseJson(R"({"kind":"List","items":[{"apiVersion":"v1","kind":"Service",
      "metadata":{"name":"s"},"spec":{"selector":{"app":1}}}]})",
                        &doc)
                  .ok());
  ChangeSet cs;
  const ApiStatus s = DecodeChanges(doc.get(), in, &cs);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), "items[0].spec.selector.app");
}

ApiStatus DecodeConfigJson(const std::string& json, EngineConfig* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  Interner in;
  return DecodeConfig(doc.get(), in, out);
}

std::string Args(const std::string& args) {
  return R"({"profiles":[{"pluginConfig":[{"name":"PodTopologySpread","args":)" + args + "}]}]}";
}

TEST(DecodePodTopologySpreadArgsTest, DefaultsAndList) {
  EngineConfig c;
  ASSERT_TRUE(DecodeConfigJson("{}", &c).ok());
  EXPECT_TRUE(c.profiles[0].plugin_args.pod_topology_spread.system_defaulting);
  ASSERT_TRUE(DecodeConfigJson(Args(R"({"kind":"PodTopologySpreadArgs",
      "apiVersion":"kubescheduler.config.k8s.io/v1","defaultingType":"List",
      "defaultConstraints":[{"maxSkew":3,"topologyKey":"zone","whenUnsatisfiable":"DoNotSchedule",
        "nodeTaintsPolicy":"Honor"}]})"),
                               &c)
                  .ok());
  const PodTopologySpreadArgs& a = c.profiles[0].plugin_args.pod_topology_spread;
  EXPECT_FALSE(a.system_defaulting);
  ASSERT_EQ(a.default_constraints.size(), 1u);
  EXPECT_EQ(a.default_constraints[0].max_skew, 3);
  EXPECT_EQ(a.default_constraints[0].topology_key, "zone");
  EXPECT_TRUE(a.default_constraints[0].do_not_schedule);
  EXPECT_EQ(a.default_constraints[0].node_taints_policy, NodeInclusionPolicy::kHonor);
  // List with no constraints: no defaults at all.
  ASSERT_TRUE(DecodeConfigJson(Args(R"({"defaultingType":"List"})"), &c).ok());
  EXPECT_FALSE(c.profiles[0].plugin_args.pod_topology_spread.system_defaulting);
}

class DecodePodTopologySpreadArgsErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePodTopologySpreadArgsErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  EngineConfig config;
  const ApiStatus s = DecodeConfigJson(c.json, &config);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

constexpr const char* kArgs = "profiles[0].pluginConfig[0].args";
std::string At(const std::string& rest) { return std::string(kArgs) + rest; }

// Upstream's TestValidatePodTopologySpreadArgs, rewritten.
INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePodTopologySpreadArgsErrorTest,
    ::testing::Values(
        ErrorCase{"MaxSkewZero",
                  Args(R"({"defaultingType":"List","defaultConstraints":[
                      {"maxSkew":0,"topologyKey":"k","whenUnsatisfiable":"DoNotSchedule"}]})"),
                  At(".defaultConstraints[0].maxSkew"),
                  At(".defaultConstraints[0].maxSkew: Invalid value: 0: must be greater than zero")},
        ErrorCase{"EmptyTopologyKey",
                  Args(R"({"defaultingType":"List","defaultConstraints":[
                      {"maxSkew":1,"whenUnsatisfiable":"DoNotSchedule"}]})"),
                  At(".defaultConstraints[0].topologyKey"),
                  At(".defaultConstraints[0].topologyKey: Required value")},
        ErrorCase{"WhenUnsatisfiableEmpty",
                  Args(R"({"defaultingType":"List","defaultConstraints":[
                      {"maxSkew":1,"topologyKey":"k"}]})"),
                  At(".defaultConstraints[0].whenUnsatisfiable"),
                  At(".defaultConstraints[0].whenUnsatisfiable: Required value")},
        ErrorCase{"LabelSelectorForbidden",
                  Args(R"({"defaultingType":"List","defaultConstraints":[
                      {"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"DoNotSchedule",
                       "labelSelector":{}}]})"),
                  At(".defaultConstraints[0].labelSelector"),
                  At(".defaultConstraints[0].labelSelector: Forbidden: constraint must not define "
                     "a selector, as they deduced for each pod")},
        ErrorCase{"Repeated",
                  Args(R"({"defaultingType":"List","defaultConstraints":[
                      {"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"DoNotSchedule"},
                      {"maxSkew":2,"topologyKey":"k","whenUnsatisfiable":"DoNotSchedule"}]})"),
                  At(".defaultConstraints[1]"),
                  At(".defaultConstraints[1]: Duplicate value: \"{k, DoNotSchedule}\"")},
        ErrorCase{"SystemWithConstraints",
                  Args(R"({"defaultingType":"System","defaultConstraints":[
                      {"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"DoNotSchedule"}]})"),
                  At(".defaultingType"),
                  At(".defaultingType: Invalid value: \"System\": when .defaultConstraints are "
                     "not empty")},
        ErrorCase{"ConstraintsWithoutListDefaulting",
                  Args(R"({"defaultConstraints":[
                      {"maxSkew":1,"topologyKey":"k","whenUnsatisfiable":"DoNotSchedule"}]})"),
                  At(".defaultingType"),
                  At(".defaultingType: Invalid value: \"System\": when .defaultConstraints are "
                     "not empty")},
        ErrorCase{"DefaultingType", Args(R"({"defaultingType":"Other"})"), At(".defaultingType"),
                  At(".defaultingType: Unsupported value: \"Other\": supported values: "
                     "\"System\", \"List\"")},
        ErrorCase{"UnknownField", Args(R"({"hardPodAffinityWeight":1})"),
                  At(".hardPodAffinityWeight"), At(".hardPodAffinityWeight: unknown field")},
        ErrorCase{"OtherPlugin",
                  R"({"profiles":[{"pluginConfig":[{"name":"ImageLocality","args":{}}]}]})",
                  "profiles[0].pluginConfig[0].name",
                  "profiles[0].pluginConfig[0].name: not supported: only InterPodAffinity, "
                  "PodTopologySpread, NodeResourcesFit, NodeResourcesBalancedAllocation, "
                  "NodeAffinity, DefaultPreemption, NodeLabel and ServiceAffinity take arguments"},
        ErrorCase{"DuplicatePlugin",
                  R"({"profiles":[{"pluginConfig":[{"name":"PodTopologySpread"},
                      {"name":"PodTopologySpread"}]}]})",
                  "profiles[0].pluginConfig[1]",
                  "profiles[0].pluginConfig[1]: Duplicate value: \"PodTopologySpread\""}),
    CaseName);

}  // namespace
}  // namespace decode_topology_spread_test
}  // namespace sched::capi
