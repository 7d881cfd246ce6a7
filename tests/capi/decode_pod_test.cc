// DecodePod: good pods decode to the right model values; every kind of bad
// known field is rejected with its path and reason.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libsched/model/pod.h"
#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_pod_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::Names;
using ::sched::capi::testing::ParseAndDecodePod;

class DecodePodTest : public ::testing::Test {
 protected:
  Pod Decode(const std::string& json, bool* terminal = nullptr) {
    DecodedPod d;
    const ApiStatus s = ParseAndDecodePod(json, in_, &d);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) return Pod();
    if (terminal != nullptr) *terminal = d.terminal;
    return *d.pod;
  }
  // A pod with `spec` (the spec object's members).
  Pod DecodeSpec(const std::string& spec) {
    return Decode(R"({"metadata":{"name":"p"},"spec":{)" + spec + "}}");
  }
  Atom A(const std::string& s) { return in_.Intern(s); }

  Interner in_;
};

TEST_F(DecodePodTest, MetadataAndDefaults) {
  const Pod p = Decode(R"({"kind":"Pod","metadata":{"name":"web"}})");
  EXPECT_EQ(p.name, "web");
  EXPECT_EQ(p.ns, "default");
  EXPECT_EQ(p.scheduler_name, "default-scheduler");
  EXPECT_EQ(p.priority, 0);
  EXPECT_FALSE(p.terminating);
  EXPECT_TRUE(p.requests.IsZero());
  EXPECT_EQ(p.num_containers, 0);

  bool terminal = true;
  const Pod q = Decode(R"({"metadata":{"name":"web","namespace":"prod","uid":"u-1",
      "creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-02T03:05:00Z",
      "labels":{"app":"web","app.kubernetes.io/name":"x","empty":null},"unknown":{"a":1}},
      "spec":{"nodeName":"n1","schedulerName":"mine","priority":-5},
      "status":{"phase":"Running"}})",
                       &terminal);
  EXPECT_EQ(q.ns, "prod");
  EXPECT_EQ(q.uid, "u-1");
  EXPECT_EQ(q.creation_timestamp, "2024-01-02T03:04:05Z");
  EXPECT_TRUE(q.terminating);
  EXPECT_EQ(q.node_name, "n1");
  EXPECT_EQ(q.scheduler_name, "mine");
  EXPECT_EQ(q.priority, -5);
  EXPECT_FALSE(terminal);
  EXPECT_EQ(q.labels.Get(A("app")), A("web"));
  EXPECT_EQ(q.labels.Get(A("app.kubernetes.io/name")), A("x"));
  EXPECT_EQ(q.labels.Get(A("empty")), A(""));
}

TEST_F(DecodePodTest, PreemptionFields) {
  const Pod p = Decode(R"({"metadata":{"name":"p","deletionTimestamp":"2024-01-02T03:05:00Z"},
      "spec":{"preemptionPolicy":"Never"},
      "status":{"startTime":"2024-01-02T03:04:05Z","conditions":[
        {"type":"DisruptionTarget","status":"True","reason":"PreemptionByScheduler"},
        {"type":"DisruptionTarget","status":"False","reason":"Other"}]}})");
  EXPECT_TRUE(p.preempt_never);
  EXPECT_EQ(p.start_time, int64_t{1704164645} * 1'000'000'000);
  EXPECT_TRUE(p.disruption_target_by_scheduler);  // the first condition decides

  const Pod q = Decode(R"({"metadata":{"name":"p"},
      "spec":{"preemptionPolicy":"PreemptLowerPriority"},
      "status":{"conditions":[
        {"type":"DisruptionTarget","status":"True","reason":"EvictionByEvictionAPI"}]}})");
  EXPECT_FALSE(q.preempt_never);
  EXPECT_EQ(q.start_time, std::nullopt);
  EXPECT_FALSE(q.disruption_target_by_scheduler);
}

TEST_F(DecodePodTest, TerminalPhases) {
  for (const char* phase : {"Succeeded", "Failed"}) {
    bool terminal = false;
    Decode(std::string(R"({"metadata":{"name":"p"},"status":{"phase":")") + phase + "\"}}",
           &terminal);
    EXPECT_TRUE(terminal) << phase;
  }
}

TEST_F(DecodePodTest, ContainerRequestsSidecarsOverheadAndDefaults) {
  const Pod p = DecodeSpec(R"(
      "initContainers":[
        {"name":"init","resources":{"requests":{"cpu":"2","memory":"1Gi"}}},
        {"name":"side","restartPolicy":"Always","resources":{"requests":{"cpu":"500m"}}}],
      "containers":[
        {"name":"a","resources":{"requests":{"cpu":"1","memory":"2Gi",
            "ephemeral-storage":"1Gi","nvidia.com/gpu":"2","hugepages-2Mi":"4Mi",
            "unknown-native":"5"}}},
        {"name":"b"}],
      "overhead":{"cpu":"100m","memory":"10Mi"})");
  EXPECT_EQ(p.num_containers, 4);
  // containers 1 + sidecar 0.5 = 1.5 cpu; the init phase needs 2 cpu;
  // plus 100m overhead.
  EXPECT_EQ(p.requests.milli_cpu, 2100);
  EXPECT_EQ(p.requests.memory, (2LL << 30) + (10LL << 20));
  EXPECT_EQ(p.requests.ephemeral_storage, 1LL << 30);
  EXPECT_EQ(p.requests.Scalar(A("nvidia.com/gpu")), 2);
  EXPECT_EQ(p.requests.Scalar(A("hugepages-2Mi")), 4LL << 20);
  EXPECT_EQ(in_.Find("unknown-native"), kNoAtom);
  // Container b and the sidecar have no memory request, b no cpu: each
  // gets the scoring defaults (100m, 200Mi).
  EXPECT_EQ(p.non_zero_requests.milli_cpu, 2000 + 100);
  EXPECT_EQ(p.non_zero_requests.memory, (2LL << 30) + 2 * (200LL << 20) + (10LL << 20));
}

TEST_F(DecodePodTest, QuantitiesMayBeNumbersOrNull) {
  const Pod p = DecodeSpec(
      R"("containers":[{"name":"a","resources":{"requests":{"cpu":0.5,"memory":1e3}}},
                       {"name":"b","resources":{"requests":{"cpu":null,"memory":" 1Ki "}}}])");
  EXPECT_EQ(p.requests.milli_cpu, 500);
  EXPECT_EQ(p.requests.memory, 1000 + 1024);
  // b's explicit (null) cpu entry means no default for scoring.
  EXPECT_EQ(p.non_zero_requests.milli_cpu, 500);
}

TEST_F(DecodePodTest, NegativeZeroIsZero) {
  const Pod p = DecodeSpec(
      R"("containers":[{"name":"a","resources":{"requests":{"cpu":"-0","memory":"-0.0Mi",
                                                            "nvidia.com/gpu":-0}}}])");
  EXPECT_TRUE(p.requests.IsZero());
}

TEST_F(DecodePodTest, PodLevelResources) {
  const Pod p = DecodeSpec(
      R"("resources":{"requests":{"cpu":"3","ephemeral-storage":"1Gi"}},
         "containers":[{"name":"a","resources":{"requests":{"cpu":"1","memory":"1Gi"}}}])");
  EXPECT_EQ(p.requests.milli_cpu, 3000);  // pod-level cpu replaces the sum
  EXPECT_EQ(p.requests.memory, 1LL << 30);
  EXPECT_EQ(p.requests.ephemeral_storage, 0);  // not a pod-level resource
}

TEST_F(DecodePodTest, InPlaceResizeStatus) {
  // The status exceeds the spec: max(spec, status) counts.
  Pod p = Decode(R"({"metadata":{"name":"p"},
      "spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"1"}}}]},
      "status":{"containerStatuses":[{"name":"a","allocatedResources":{"cpu":"2"},
                                      "resources":{"requests":{"cpu":"1500m"}}}]}})");
  EXPECT_EQ(p.requests.milli_cpu, 2000);
  // Without status.resources (cs.Resources == nil) the status is not read.
  p = Decode(R"({"metadata":{"name":"p"},
      "spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"1"}}}]},
      "status":{"containerStatuses":[{"name":"a","allocatedResources":{"cpu":"2"}}]}})");
  EXPECT_EQ(p.requests.milli_cpu, 1000);
  // An infeasible resize: upstream ignores the spec.
  p = Decode(R"({"metadata":{"name":"p"},
      "spec":{"containers":[{"name":"a","resources":{"requests":{"cpu":"4"}}}]},
      "status":{"conditions":[{"type":"PodResizePending","reason":"Infeasible"}],
                "containerStatuses":[{"name":"a","allocatedResources":{"cpu":"1"},
                                      "resources":{"requests":{"cpu":"1"}}}]}})");
  EXPECT_EQ(p.requests.milli_cpu, 1000);
  // A plain init container's status is not read.
  p = Decode(R"({"metadata":{"name":"p"},
      "spec":{"initContainers":[{"name":"i","resources":{"requests":{"cpu":"1"}}}]},
      "status":{"initContainerStatuses":[{"name":"i","allocatedResources":{"cpu":"3"},
                                          "resources":{}}]}})");
  EXPECT_EQ(p.requests.milli_cpu, 1000);
  // Pod-level status (InPlacePodLevelResourcesVerticalScaling).
  p = Decode(R"({"metadata":{"name":"p"},
      "spec":{"resources":{"requests":{"cpu":"1"}}},
      "status":{"resources":{"requests":{"cpu":"2"}}}})");
  EXPECT_EQ(p.requests.milli_cpu, 2000);
}

TEST_F(DecodePodTest, HostPortsFromContainersAndSidecars) {
  const Pod p = DecodeSpec(R"(
      "initContainers":[
        {"name":"init","ports":[{"hostPort":1}]},
        {"name":"side","restartPolicy":"Always",
         "ports":[{"containerPort":9,"hostPort":9090,"protocol":"UDP","hostIP":"10.0.0.1"}]}],
      "containers":[{"name":"a","ports":[{"containerPort":80},
                                         {"containerPort":80,"hostPort":8080},
                                         {"hostPort":53,"protocol":"SCTP"}]}])");
  ASSERT_EQ(p.host_ports.size(), 3u);
  EXPECT_EQ(p.host_ports[0], (HostPort{"10.0.0.1", Protocol::kUDP, 9090}));
  EXPECT_EQ(p.host_ports[1], (HostPort{"0.0.0.0", Protocol::kTCP, 8080}));
  EXPECT_EQ(p.host_ports[2], (HostPort{"0.0.0.0", Protocol::kSCTP, 53}));
}

TEST_F(DecodePodTest, ImagesAreNormalized) {
  const Pod p = DecodeSpec(R"(
      "initContainers":[{"name":"i","image":"busybox"}],
      "containers":[{"name":"a","image":"nginx:1.25"},
                    {"name":"b","image":"registry:5000/team/app"},
                    {"name":"c","image":"app@sha256:abcd"},
                    {"name":"d"}],
      "volumes":[{"name":"v","image":{"reference":"data:v1"}},{"name":"w","emptyDir":{}}])");
  EXPECT_EQ(Names(in_, p.images),
            (std::vector<std::string>{"busybox:latest", "nginx:1.25",
                                      "registry:5000/team/app:latest", "app@sha256:abcd",
                                      ":latest", "data:v1"}));
  EXPECT_EQ(p.num_containers, 5);
}

TEST_F(DecodePodTest, Tolerations) {
  const Pod p = DecodeSpec(R"("tolerations":[
      {"operator":"Exists"},
      {"key":"k","value":"v","effect":"NoSchedule"},
      {"key":"k","operator":"Exists","effect":"NoExecute","tolerationSeconds":30},
      {"key":"n","operator":"Gt","value":"5"}])");
  ASSERT_EQ(p.tolerations.size(), 3u);  // Gt: alpha gate off, tolerates nothing
  EXPECT_EQ(p.tolerations[0],
            (Toleration{kNoAtom, TolerationOp::kExists, A(""), TaintEffect::kNone}));
  EXPECT_EQ(p.tolerations[1],
            (Toleration{A("k"), TolerationOp::kEqual, A("v"), TaintEffect::kNoSchedule}));
  EXPECT_EQ(p.tolerations[2],
            (Toleration{A("k"), TolerationOp::kExists, A(""), TaintEffect::kNoExecute}));
}

TEST_F(DecodePodTest, SchedulingGates) {
  EXPECT_TRUE(DecodeSpec(R"("containers":[])").scheduling_gates.empty());
  const Pod p = DecodeSpec(R"("schedulingGates":[{"name":"example.com/a"},{"name":"b"}])");
  EXPECT_EQ(p.scheduling_gates, (std::vector<std::string>{"example.com/a", "b"}));
}

TEST_F(DecodePodTest, NodeSelectorAndAffinity) {
  const Pod p = DecodeSpec(R"(
      "nodeSelector":{"disk":"ssd"},
      "affinity":{"nodeAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[
          {"matchExpressions":[{"key":"zone","operator":"In","values":["b","a"]},
                               {"key":"gen","operator":"Gt","values":["3"]}],
           "matchFields":[{"key":"metadata.name","operator":"NotIn","values":["n9"]}]},
          {}]},
        "preferredDuringSchedulingIgnoredDuringExecution":[
          {"weight":7,"preference":{"matchExpressions":[
            {"key":"gpu","operator":"Exists"}]}}]}})");
  ASSERT_EQ(p.node_selector.size(), 1u);
  EXPECT_EQ(p.node_selector[0].key, A("disk"));
  EXPECT_EQ(p.node_selector[0].op, SelectorOp::kIn);
  EXPECT_EQ(p.node_selector[0].values, std::vector<Atom>{A("ssd")});

  ASSERT_TRUE(p.required_node_affinity.has_value());
  const auto& terms = p.required_node_affinity->terms;
  ASSERT_EQ(terms.size(), 2u);
  EXPECT_TRUE(terms[0].valid);
  ASSERT_EQ(terms[0].match_expressions.size(), 2u);
  const Requirement& zone = terms[0].match_expressions[0];
  EXPECT_EQ(zone.op, SelectorOp::kIn);
  std::vector<Atom> want = {A("a"), A("b")};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(zone.values, want);
  EXPECT_EQ(terms[0].match_expressions[1].op, SelectorOp::kGt);
  EXPECT_EQ(terms[0].match_expressions[1].number, 3);
  ASSERT_EQ(terms[0].match_fields.size(), 1u);
  EXPECT_EQ(terms[0].match_fields[0].values, std::vector<Atom>{A("n9")});
  EXPECT_TRUE(terms[1].match_expressions.empty() && terms[1].match_fields.empty());

  ASSERT_EQ(p.preferred_node_affinity.size(), 1u);
  EXPECT_EQ(p.preferred_node_affinity[0].weight, 7);
  EXPECT_EQ(p.preferred_node_affinity[0].preference.match_expressions[0].op,
            SelectorOp::kExists);
}

// Requirements that labels.NewRequirement rejects make the term invalid
// (it never matches) but are not decode errors.
TEST_F(DecodePodTest, InvalidRequirementsInvalidateTheirTerm) {
  const std::vector<std::string> invalid = {
      R"({"key":"a","operator":"In"})",
      R"({"key":"a","operator":"NotIn","values":[]})",
      R"({"key":"a","operator":"Exists","values":["x"]})",
      R"({"key":"a","operator":"Gt","values":["1","2"]})",
      R"({"key":"a","operator":"Lt","values":["1.5"]})",
      R"({"key":"a","operator":"Gt","values":["99999999999999999999"]})",
      // Gt/Lt values must also be label values, so signs are out.
      R"({"key":"a","operator":"Gt","values":["+3"]})",
      R"({"key":"a","operator":"Lt","values":["-7"]})",
      R"({"key":"a","operator":"Like","values":["x"]})",
      R"({"key":"a b","operator":"Exists"})",
      R"({"key":"-a","operator":"Exists"})",
      R"({"key":"Example.com/a","operator":"Exists"})",
      R"({"key":"a","operator":"In","values":["not valid"]})",
      R"({"key":"a","operator":"In","values":[")" + std::string(64, 'x') + R"("]})",
  };
  for (const std::string& req : invalid) {
    const Pod p = DecodeSpec(
        R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
           {"nodeSelectorTerms":[{"matchExpressions":[)" + req + "]}]}}}");
    ASSERT_TRUE(p.required_node_affinity.has_value()) << req;
    EXPECT_FALSE(p.required_node_affinity->terms[0].valid) << req;
  }
  const std::vector<std::string> invalid_fields = {
      R"({"key":"metadata.name","operator":"In","values":["a","b"]})",
      R"({"key":"metadata.name","operator":"Exists"})",
      R"({"key":"metadata.namespace","operator":"In","values":["a"]})",
  };
  for (const std::string& req : invalid_fields) {
    const Pod p = DecodeSpec(
        R"("affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":
           [{"weight":1,"preference":{"matchFields":[)" + req + "]}}]}}");
    ASSERT_EQ(p.preferred_node_affinity.size(), 1u) << req;
    EXPECT_FALSE(p.preferred_node_affinity[0].preference.valid) << req;
  }
  const Pod ok = DecodeSpec(
      R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":
         {"nodeSelectorTerms":[{"matchExpressions":[
           {"key":"example.com/a_b.c","operator":"In","values":["","A-1.b_2"]},
           {"key":"a","operator":"DoesNotExist"},
           {"key":"a","operator":"Lt","values":["007"]}]}]}}})");
  EXPECT_TRUE(ok.required_node_affinity->terms[0].valid);
}

// Every member DecodePod reads is looked up, whichever others are set: a
// member given twice is an error at its path (even as null, which Member
// finds twice before it reads either).
TEST(DecodePodMembersTest, EveryReadMemberIsLookedUp) {
  struct Case {
    std::string prefix;  // JSON up to the repeated member
    std::string suffix;  // JSON after it
    std::string at;      // the path of the object holding it
    std::vector<std::string> members;
  };
  const std::vector<Case> cases = {
      {R"({"metadata":{"name":"p",)", "}}", "metadata",
       {"namespace", "uid", "creationTimestamp", "deletionTimestamp", "labels",
        "ownerReferences", "annotations"}},
      {R"({"metadata":{"name":"p"},"spec":{)", "}}", "spec",
       {"nodeName", "schedulerName", "priority", "preemptionPolicy", "nodeSelector",
        "affinity", "topologySpreadConstraints", "tolerations", "schedulingGates",
        "initContainers", "containers", "volumes", "overhead", "resources"}},
      {R"({"metadata":{"name":"p"},"spec":{"containers":[{"name":"c","ports":[{)", "}]}]}}",
       "spec.containers[0].ports[0]", {"hostPort", "hostIP", "protocol"}},
      {R"({"metadata":{"name":"p"},"spec":{"containers":[{)", "}]}}", "spec.containers[0]",
       {"name", "image", "restartPolicy", "resources", "ports"}},
  };
  for (const Case& c : cases) {
    for (const std::string& m : c.members) {
      SCOPED_TRACE(c.at + "." + m);
      const std::string json = c.prefix + "\"" + m + "\":null,\"" + m + "\":null" + c.suffix;
      Interner in;
      DecodedPod d;
      const ApiStatus s = ParseAndDecodePod(json, in, &d);
      EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
      EXPECT_EQ(s.path(), c.at + "." + m);
      EXPECT_EQ(s.message(), c.at + "." + m + ": duplicate field");
    }
  }
}

class DecodePodErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePodErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  DecodedPod d;
  const ApiStatus s = ParseAndDecodePod(c.json, in, &d);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

// A pod named "p" with the given spec members.
std::string Spec(const std::string& members) {
  return R"({"metadata":{"name":"p"},"spec":{)" + members + "}}";
}
std::string Container(const std::string& members) {
  return Spec(R"("containers":[{"name":"c",)" + members + "}]");
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePodErrorTest,
    ::testing::Values(
        ErrorCase{"NotAnObject", "[]", "", "expected an object, got an array"},
        ErrorCase{"NoMetadata", "{}", "metadata.name", "metadata.name: Required value"},
        ErrorCase{"EmptyName", R"({"metadata":{"name":""}})", "metadata.name",
                  "metadata.name: Required value"},
        ErrorCase{"NameNotString", R"({"metadata":{"name":5}})", "metadata.name",
                  "metadata.name: expected a string, got a number"},
        ErrorCase{"MetadataNotObject", R"({"metadata":"p"})", "metadata",
                  "metadata: expected an object, got a string"},
        ErrorCase{"DuplicateField", R"({"metadata":{"name":"p"},"spec":{},"spec":{}})", "spec",
                  "spec: duplicate field"},
        ErrorCase{"LabelNotString", R"({"metadata":{"name":"p","labels":{"app":1}}})",
                  "metadata.labels.app", "metadata.labels.app: expected a string, got a number"},
        ErrorCase{"DuplicateLabel",
                  R"({"metadata":{"name":"p","labels":{"a.b/c":"1","a.b/c":"2"}}})",
                  "metadata.labels[\"a.b/c\"]", "metadata.labels[\"a.b/c\"]: duplicate key"},
        ErrorCase{"DeletionTimestampType", R"({"metadata":{"name":"p","deletionTimestamp":1}})",
                  "metadata.deletionTimestamp",
                  "metadata.deletionTimestamp: expected a string, got a number"},
        ErrorCase{"PreemptionPolicy", Spec(R"("preemptionPolicy":"Sometimes")"),
                  "spec.preemptionPolicy",
                  "spec.preemptionPolicy: Unsupported value: \"Sometimes\": supported values: "
                  "\"Never\", \"PreemptLowerPriority\""},
        ErrorCase{"StartTimeSyntax",
                  R"({"metadata":{"name":"p"},"status":{"startTime":"2024-01-02"}})",
                  "status.startTime",
                  "status.startTime: must be an RFC 3339 time like 2024-01-02T15:04:05Z"},
        ErrorCase{"StartTimeType", R"({"metadata":{"name":"p"},"status":{"startTime":1}})",
                  "status.startTime", "status.startTime: expected a string, got a number"},
        ErrorCase{"PriorityFraction", Spec(R"("priority":1.5)"), "spec.priority",
                  "spec.priority: expected an integer, got 1.5"},
        ErrorCase{"PriorityRange", Spec(R"("priority":3000000000)"), "spec.priority",
                  "spec.priority: must be between -2147483648 and 2147483647, got 3000000000"},
        ErrorCase{"SchedulingGatesNotArray", Spec(R"("schedulingGates":{})"),
                  "spec.schedulingGates", "spec.schedulingGates: expected an array, got an object"},
        ErrorCase{"SchedulingGateNameNotString", Spec(R"("schedulingGates":[{"name":1}])"),
                  "spec.schedulingGates[0].name",
                  "spec.schedulingGates[0].name: expected a string, got a number"},
        ErrorCase{"ContainersNotArray", Spec(R"("containers":{})"), "spec.containers",
                  "spec.containers: expected an array, got an object"},
        ErrorCase{"ContainerNotObject", Spec(R"("containers":[null])"), "spec.containers[0]",
                  "spec.containers[0]: expected an object, got null"},
        ErrorCase{"BadCpu", Container(R"("resources":{"requests":{"cpu":"1x"}})"),
                  "spec.containers[0].resources.requests.cpu",
                  "spec.containers[0].resources.requests.cpu: invalid quantity \"1x\": "
                  "invalid quantity syntax"},
        ErrorCase{"QuantityType", Container(R"("resources":{"requests":{"memory":true}})"),
                  "spec.containers[0].resources.requests.memory",
                  "spec.containers[0].resources.requests.memory: expected a quantity string "
                  "such as \"500m\" or \"64Gi\""},
        ErrorCase{"BadExtended",
                  Container(R"("resources":{"requests":{"nvidia.com/gpu":"abc"}})"),
                  "spec.containers[0].resources.requests[\"nvidia.com/gpu\"]",
                  "spec.containers[0].resources.requests[\"nvidia.com/gpu\"]: invalid quantity "
                  "\"abc\": invalid quantity syntax"},
        ErrorCase{"DuplicateRequest",
                  Container(R"("resources":{"requests":{"cpu":"1","cpu":"2"}})"),
                  "spec.containers[0].resources.requests.cpu",
                  "spec.containers[0].resources.requests.cpu: duplicate key"},
        ErrorCase{"RequestsNotObject", Container(R"("resources":{"requests":["cpu"]})"),
                  "spec.containers[0].resources.requests",
                  "spec.containers[0].resources.requests: expected an object, got an array"},
        ErrorCase{"ImageType", Container(R"("image":7)"), "spec.containers[0].image",
                  "spec.containers[0].image: expected a string, got a number"},
        ErrorCase{"Protocol", Container(R"("ports":[{"hostPort":80,"protocol":"HTTP"}])"),
                  "spec.containers[0].ports[0].protocol",
                  "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": "
                  "supported values: \"SCTP\", \"TCP\", \"UDP\""},
        ErrorCase{"HostPortType", Container(R"("ports":[{"hostPort":"80"}])"),
                  "spec.containers[0].ports[0].hostPort",
                  "spec.containers[0].ports[0].hostPort: expected an integer, got a string"},
        ErrorCase{"RestartPolicy",
                  Spec(R"("initContainers":[{"name":"i","restartPolicy":"Sometimes"}])"),
                  "spec.initContainers[0].restartPolicy",
                  "spec.initContainers[0].restartPolicy: Unsupported value: \"Sometimes\": "
                  "supported values: \"Always\", \"Never\", \"OnFailure\""},
        ErrorCase{"OverheadQuantity", Spec(R"("overhead":{"cpu":"lots"})"), "spec.overhead.cpu",
                  "spec.overhead.cpu: invalid quantity \"lots\": invalid quantity syntax"},
        ErrorCase{"PodLevelQuantity", Spec(R"("resources":{"requests":{"memory":"1Q"}})"),
                  "spec.resources.requests.memory",
                  "spec.resources.requests.memory: invalid quantity \"1Q\": "
                  "invalid quantity syntax"},
        // The API server's ValidateResourceQuantityValue: no negative amounts.
        ErrorCase{"NegativeCpu", Container(R"("resources":{"requests":{"cpu":"-1"}})"),
                  "spec.containers[0].resources.requests.cpu",
                  "spec.containers[0].resources.requests.cpu: Invalid value: \"-1\": must be "
                  "greater than or equal to 0"},
        ErrorCase{"NegativeMemoryNumber",
                  Container(R"("resources":{"requests":{"memory":-1024}})"),
                  "spec.containers[0].resources.requests.memory",
                  "spec.containers[0].resources.requests.memory: Invalid value: \"-1024\": "
                  "must be greater than or equal to 0"},
        ErrorCase{"NegativeEphemeralStorage",
                  Container(R"("resources":{"requests":{"ephemeral-storage":" -1Gi "}})"),
                  "spec.containers[0].resources.requests.ephemeral-storage",
                  "spec.containers[0].resources.requests.ephemeral-storage: Invalid value: "
                  "\"-1Gi\": must be greater than or equal to 0"},
        ErrorCase{"NegativeExtended",
                  Container(R"("resources":{"requests":{
                                 "nvidia.com/gpu":"-9223372036854775808"}})"),
                  "spec.containers[0].resources.requests[\"nvidia.com/gpu\"]",
                  "spec.containers[0].resources.requests[\"nvidia.com/gpu\"]: Invalid value: "
                  "\"-9223372036854775808\": must be greater than or equal to 0"},
        // Rounds to a non-negative amount, but the quantity is negative.
        ErrorCase{"NegativeTinyMemory",
                  Container(R"("resources":{"requests":{"memory":"-0.0001Ki"}})"),
                  "spec.containers[0].resources.requests.memory",
                  "spec.containers[0].resources.requests.memory: Invalid value: "
                  "\"-0.0001Ki\": must be greater than or equal to 0"},
        ErrorCase{"NegativeTinyCpu", Container(R"("resources":{"requests":{"cpu":"-1n"}})"),
                  "spec.containers[0].resources.requests.cpu",
                  "spec.containers[0].resources.requests.cpu: Invalid value: \"-1n\": must be "
                  "greater than or equal to 0"},
        ErrorCase{"NegativeInitContainer",
                  Spec(R"("initContainers":[{"name":"i",
                       "resources":{"requests":{"pods":"-1"}}}])"),
                  "spec.initContainers[0].resources.requests.pods",
                  "spec.initContainers[0].resources.requests.pods: Invalid value: \"-1\": "
                  "must be greater than or equal to 0"},
        ErrorCase{"NegativeOverhead", Spec(R"("overhead":{"memory":"-10Mi"})"),
                  "spec.overhead.memory",
                  "spec.overhead.memory: Invalid value: \"-10Mi\": must be greater than or "
                  "equal to 0"},
        ErrorCase{"NegativePodLevel", Spec(R"("resources":{"requests":{"cpu":"-500m"}})"),
                  "spec.resources.requests.cpu",
                  "spec.resources.requests.cpu: Invalid value: \"-500m\": must be greater "
                  "than or equal to 0"},
        ErrorCase{"NegativeAllocatedResources",
                  R"({"metadata":{"name":"p"},"status":{"containerStatuses":[
                      {"name":"c","allocatedResources":{"cpu":"-2"}}]}})",
                  "status.containerStatuses[0].allocatedResources.cpu",
                  "status.containerStatuses[0].allocatedResources.cpu: Invalid value: \"-2\": "
                  "must be greater than or equal to 0"},
        ErrorCase{"NegativeStatusRequests",
                  R"({"metadata":{"name":"p"},"status":{"initContainerStatuses":[
                      {"name":"i","resources":{"requests":{"memory":"-1"}}}]}})",
                  "status.initContainerStatuses[0].resources.requests.memory",
                  "status.initContainerStatuses[0].resources.requests.memory: Invalid value: "
                  "\"-1\": must be greater than or equal to 0"},
        ErrorCase{"NegativePodStatusAllocated",
                  R"({"metadata":{"name":"p"},"status":{"allocatedResources":{"cpu":"-1"}}})",
                  "status.allocatedResources.cpu",
                  "status.allocatedResources.cpu: Invalid value: \"-1\": must be greater than "
                  "or equal to 0"},
        ErrorCase{"TolerationOperator", Spec(R"("tolerations":[{"key":"k","operator":"In"}])"),
                  "spec.tolerations[0].operator",
                  "spec.tolerations[0].operator: Unsupported value: \"In\": supported values: "
                  "\"Equal\", \"Exists\", \"Gt\", \"Lt\""},
        ErrorCase{"TolerationEffect", Spec(R"("tolerations":[{"key":"k","effect":"Never"}])"),
                  "spec.tolerations[0].effect",
                  "spec.tolerations[0].effect: Unsupported value: \"Never\": supported values: "
                  "\"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\""},
        ErrorCase{"NodeSelectorValue", Spec(R"("nodeSelector":{"disk":true})"),
                  "spec.nodeSelector.disk",
                  "spec.nodeSelector.disk: expected a string, got a boolean"},
        ErrorCase{"RequirementValueType",
                  Spec(R"("affinity":{"nodeAffinity":{
                       "requiredDuringSchedulingIgnoredDuringExecution":
                       {"nodeSelectorTerms":[{"matchExpressions":[
                         {"key":"a","operator":"In","values":[1]}]}]}}})"),
                  "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                  "nodeSelectorTerms[0].matchExpressions[0].values[0]",
                  "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                  "nodeSelectorTerms[0].matchExpressions[0].values[0]: expected a string, got a "
                  "number"},
        ErrorCase{"PreferredWeight",
                  Spec(R"("affinity":{"nodeAffinity":{
                       "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":"high"}]}})"),
                  "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
                  "weight",
                  "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
                  "weight: expected an integer, got a string"},
        ErrorCase{"Phase", R"({"metadata":{"name":"p"},"status":{"phase":"Done"}})",
                  "status.phase",
                  "status.phase: Unsupported value: \"Done\": supported values: \"Failed\", "
                  "\"Pending\", \"Running\", \"Succeeded\", \"Unknown\""},
        ErrorCase{"StatusQuantity",
                  R"({"metadata":{"name":"p"},"status":{"containerStatuses":[
                      {"name":"c","allocatedResources":{"cpu":"x"}}]}})",
                  "status.containerStatuses[0].allocatedResources.cpu",
                  "status.containerStatuses[0].allocatedResources.cpu: invalid quantity \"x\": "
                  "invalid quantity syntax"},
        ErrorCase{"VolumeImageReference",
                  Spec(R"("volumes":[{"name":"v","image":{"reference":1}}])"),
                  "spec.volumes[0].image.reference",
                  "spec.volumes[0].image.reference: expected a string, got a number"}),
    CaseName);

}  // namespace
}  // namespace decode_pod_test
}  // namespace sched::capi
