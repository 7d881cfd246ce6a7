// Decoding what the legacy plugins read: the node annotation
// scheduler.alpha.kubernetes.io/preferAvoidPods (NodePreferAvoidPods; a
// malformed one is ignored, as upstream), the controlling ownerReference's
// kind and uid, and ServiceAffinityArgs in pluginConfig.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "capi/decode.h"
#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_legacy_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::ParseAndDecodeNode;
using ::sched::capi::testing::ParseAndDecodePod;

// A node whose preferAvoidPods annotation is `value`, a JSON string literal.
std::string NodeWith(const std::string& value) {
  return R"({"metadata":{"name":"n","annotations":{"other":"x",
      "scheduler.alpha.kubernetes.io/preferAvoidPods":)" +
         value + "}}}";
}

// Quotes `json` as a JSON string.
std::string Quote(const std::string& json) {
  std::string out = "\"";
  for (char c : json) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// An entry of upstream's test annotations.
std::string Entry(const std::string& kind, const std::string& uid) {
  return R"({"podSignature":{"podController":{"apiVersion":"v1","kind":")" + kind +
         R"(","name":"foo","uid":")" + uid +
         R"(","controller":true}},"reason":"some reason","message":"some message"})";
}

TEST(DecodePreferAvoidPodsTest, Annotation) {
  struct Case {
    std::string name;
    std::string annotation;         // the annotation's text
    std::vector<std::string> want;  // kind/uid of each entry
  };
  const std::vector<Case> cases = {
      {"upstream's annotations1",
       R"({"preferAvoidPods":[)" + Entry("ReplicationController", "abcdef123456") + "]}",
       {"ReplicationController/abcdef123456"}},
      {"two entries",
       R"({"preferAvoidPods":[)" + Entry("ReplicaSet", "a") + "," +
           Entry("ReplicationController", "b") + "]}",
       {"ReplicaSet/a", "ReplicationController/b"}},
      {"evictionTime RFC 3339",
       R"({"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u"}},
           "evictionTime":"2016-06-01T12:00:00Z"}]})",
       {"ReplicaSet/u"}},
      // Go's encoding/json: names match case-insensitively, unknown members
      // are ignored, a later duplicate wins.
      {"case-insensitive names",
       R"({"PreferAvoidPods":[{"PODSIGNATURE":{"podcontroller":{"Kind":"ReplicaSet","UID":"u"}}}]})",
       {"ReplicaSet/u"}},
      {"unknown members",
       R"({"x":1,"preferAvoidPods":[{"y":[],"podSignature":{"podController":
           {"kind":"ReplicaSet","uid":"u","z":{}}}}]})",
       {"ReplicaSet/u"}},
      {"later duplicate wins",
       R"({"preferAvoidPods":[)" + Entry("ReplicaSet", "a") + R"(],"preferAvoidPods":[]})",
       {}},
      // No podController: skipped (upstream dereferences nil).
      {"entry without podController",
       R"({"preferAvoidPods":[{"reason":"r"},null,)" + Entry("ReplicaSet", "a") + "]}",
       {"ReplicaSet/a"}},
      {"empty", "", {}},
      {"null", "null", {}},
      {"nulls", R"({"preferAvoidPods":null})", {}},
      // Malformed: ignored as a whole.
      {"not JSON", "{", {}},
      {"trailing text", R"({"preferAvoidPods":[]} x)", {}},
      {"not an object", "[]", {}},
      {"preferAvoidPods not an array", R"({"preferAvoidPods":{}})", {}},
      {"kind not a string",
       R"({"preferAvoidPods":[)" + Entry("ReplicaSet", "a") +
           R"(,{"podSignature":{"podController":{"kind":5,"uid":"u"}}}]})",
       {}},
      {"controller not a bool",
       R"({"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u",
           "controller":"yes"}}}]})",
       {}},
      {"bad evictionTime",
       R"({"preferAvoidPods":[{"podSignature":{"podController":{"kind":"ReplicaSet","uid":"u"}},
           "evictionTime":"yesterday"}]})",
       {}},
      {"reason not a string",
       R"({"preferAvoidPods":[)" + Entry("ReplicaSet", "a") + R"(,{"reason":1}]})",
       {}},
  };
  for (const Case& c : cases) {
    Interner in;
    std::shared_ptr<const Node> node;
    const ApiStatus s = ParseAndDecodeNode(NodeWith(Quote(c.annotation)), in, &node);
    ASSERT_TRUE(s.ok()) << c.name << ": " << s.message();
    std::vector<std::string> got;
    for (const AvoidPodsEntry& e : node->prefer_avoid_pods) got.push_back(e.kind + "/" + e.uid);
    EXPECT_EQ(got, c.want) << c.name;
  }
}

TEST(DecodePreferAvoidPodsTest, NoAnnotations) {
  Interner in;
  std::shared_ptr<const Node> node;
  ASSERT_TRUE(ParseAndDecodeNode(R"({"metadata":{"name":"n"}})", in, &node).ok());
  EXPECT_TRUE(node->prefer_avoid_pods.empty());
}

class DecodeAnnotationsErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeAnnotationsErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  std::shared_ptr<const Node> node;
  const ApiStatus s = ParseAndDecodeNode(c.json, in, &node);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeAnnotationsErrorTest,
    ::testing::Values(
        ErrorCase{"AnnotationsNotAnObject", R"({"metadata":{"name":"n","annotations":[]}})",
                  "metadata.annotations", "metadata.annotations: expected an object, got an array"},
        ErrorCase{"ValueNotAString", NodeWith("{}"),
                  R"(metadata.annotations["scheduler.alpha.kubernetes.io/preferAvoidPods"])",
                  R"(metadata.annotations["scheduler.alpha.kubernetes.io/preferAvoidPods"]: )"
                  "expected a string, got an object"}),
    CaseName);

TEST(DecodeControllerRefTest, KindAndUidWhateverTheApiVersion) {
  struct Case {
    std::string refs;
    std::string kind;
    std::string uid;
  };
  const std::vector<Case> cases = {
      {R"([{"kind":"ReplicationController","name":"foo","uid":"abcdef123456","controller":true}])",
       "ReplicationController", "abcdef123456"},
      {R"([{"apiVersion":"extensions/v1beta1","kind":"ReplicaSet","uid":"u","controller":true}])",
       "ReplicaSet", "u"},
      {R"([{"kind":"ReplicaSet","uid":"a"},{"kind":"Job","uid":"b","controller":true},
           {"kind":"ReplicaSet","uid":"c","controller":true}])",
       "Job", "b"},
      {R"([{"kind":"ReplicaSet","uid":"a","controller":false}])", "", ""},
  };
  for (const Case& c : cases) {
    Interner in;
    DecodedPod d;
    const ApiStatus s =
        ParseAndDecodePod(R"({"metadata":{"name":"p","ownerReferences":)" + c.refs + "}}", in, &d);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(d.pod->controller_ref_kind, c.kind) << c.refs;
    EXPECT_EQ(d.pod->controller_uid, c.uid) << c.refs;
  }
}

ApiStatus DecodeConfigJson(const std::string& json, EngineConfig* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  Interner in;
  return DecodeConfig(doc.get(), in, out);
}

std::string Args(const std::string& args) {
  return R"({"profiles":[{"pluginConfig":[{"name":"ServiceAffinity","args":)" + args + "}]}]}";
}

TEST(DecodeServiceAffinityArgsTest, Lists) {
  EngineConfig c;
  ASSERT_TRUE(DecodeConfigJson("{}", &c).ok());
  EXPECT_TRUE(c.profiles[0].plugin_args.service_affinity.affinity_labels.empty());
  // Upstream's TestLoadFileV1beta1 ServiceAffinity args, and null lists.
  const ApiStatus s = DecodeConfigJson(
      Args(R"({"kind":"ServiceAffinityArgs","apiVersion":"kubescheduler.config.k8s.io/v1",
               "affinityLabels":["foo","bar"],"antiAffinityLabelsPreference":["disk","flash"]})"),
      &c);
  ASSERT_TRUE(s.ok()) << s.message();
  const ServiceAffinityArgs& a = c.profiles[0].plugin_args.service_affinity;
  EXPECT_EQ(a.affinity_labels, (std::vector<std::string>{"foo", "bar"}));
  EXPECT_EQ(a.anti_affinity_labels_preference, (std::vector<std::string>{"disk", "flash"}));
  ASSERT_TRUE(DecodeConfigJson(Args(R"({"affinityLabels":null})"), &c).ok());
  EXPECT_TRUE(c.profiles[0].plugin_args.service_affinity.affinity_labels.empty());
}

class DecodeServiceAffinityArgsErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeServiceAffinityArgsErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  EngineConfig config;
  const ApiStatus s = DecodeConfigJson(c.json, &config);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

constexpr const char* kArgs = "profiles[0].pluginConfig[0].args";
std::string At(const std::string& rest) { return std::string(kArgs) + rest; }

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeServiceAffinityArgsErrorTest,
    ::testing::Values(
        ErrorCase{"NotAnObject", Args("[]"), At(""), At(": expected an object, got an array")},
        ErrorCase{"Kind", Args(R"({"kind":"NodeLabelArgs"})"), At(".kind"),
                  At(".kind: Unsupported value: \"NodeLabelArgs\": supported values: "
                     "\"ServiceAffinityArgs\"")},
        ErrorCase{"ApiVersion", Args(R"({"apiVersion":"kubescheduler.config.k8s.io/v1beta1"})"),
                  At(".apiVersion"),
                  At(".apiVersion: Unsupported value: \"kubescheduler.config.k8s.io/v1beta1\": "
                     "supported values: \"kubescheduler.config.k8s.io/v1\"")},
        ErrorCase{"ListNotAnArray", Args(R"({"affinityLabels":"zone"})"), At(".affinityLabels"),
                  At(".affinityLabels: expected an array, got a string")},
        ErrorCase{"LabelNotAString", Args(R"({"antiAffinityLabelsPreference":["zone",1]})"),
                  At(".antiAffinityLabelsPreference[1]"),
                  At(".antiAffinityLabelsPreference[1]: expected a string, got a number")},
        ErrorCase{"UnknownField", Args(R"({"labels":["zone"]})"), At(".labels"),
                  At(".labels: unknown field")},
        ErrorCase{"DuplicateField", Args(R"({"affinityLabels":[],"affinityLabels":[]})"),
                  At(".affinityLabels"), At(".affinityLabels: duplicate key")}),
    CaseName);

}  // namespace
}  // namespace decode_legacy_test
}  // namespace sched::capi
