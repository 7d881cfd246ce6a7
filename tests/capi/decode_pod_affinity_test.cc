// DecodePodAffinity (through DecodePod) and Namespace objects (through
// DecodeChanges): terms, namespaces, selectors, matchLabelKeys, parse
// failures kept for the plugin, and malformed JSON rejected with its path.
#include <string>

#include <gtest/gtest.h>

#include "libsched/model/pod.h"
#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_pod_affinity_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::Names;
using ::sched::capi::testing::ParseAndDecodePod;

// A pod in namespace "ns" with labels app=web, tier=fe and this affinity.
std::string WithAffinity(const std::string& affinity) {
  return R"({"metadata":{"name":"p","namespace":"ns","labels":{"app":"web","tier":"fe"}},
             "spec":{"affinity":{)" +
         affinity + "}}}";
}

class DecodePodAffinityTest : public ::testing::Test {
 protected:
  PodAffinityTerms Decode(const std::string& affinity) {
    DecodedPod d;
    const ApiStatus s = ParseAndDecodePod(WithAffinity(affinity), in_, &d);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) return {};
    pod_ = *d.pod;
    return d.pod->pod_affinity;
  }
  Atom A(const std::string& s) { return in_.Intern(s); }

  Interner in_;
  Pod pod_;
};

TEST_F(DecodePodAffinityTest, RequiredAndPreferredTerms) {
  const PodAffinityTerms t = Decode(R"(
      "podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
          {"labelSelector":{"matchLabels":{"app":"db"},"matchExpressions":[
             {"key":"tier","operator":"NotIn","values":["x","a"]}]},
           "topologyKey":"zone"}],
        "preferredDuringSchedulingIgnoredDuringExecution":[
          {"weight":7,"podAffinityTerm":{"labelSelector":{},"namespaces":["b","a","b"],
                                         "topologyKey":"host"}}]},
      "podAntiAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
          {"weight":3,"podAffinityTerm":{"topologyKey":"rack","namespaceSelector":{}}}]})");
  EXPECT_TRUE(t.parse_error.empty()) << t.parse_error;
  EXPECT_TRUE(t.has_pod_affinity);
  EXPECT_FALSE(t.has_required_anti_affinity);
  ASSERT_EQ(t.required_affinity.size(), 1u);
  const AffinityTerm& r = t.required_affinity[0];
  EXPECT_EQ(r.topology_key, A("zone"));
  EXPECT_EQ(Names(in_, r.namespaces), std::vector<std::string>{"ns"}) << "the pod's namespace";
  EXPECT_FALSE(r.namespace_selector) << "nil namespaceSelector selects nothing";
  ASSERT_TRUE(r.selector);
  ASSERT_EQ(r.selector->requirements.size(), 2u);
  EXPECT_EQ(r.selector->requirements[0].key, A("app"));
  EXPECT_EQ(r.selector->requirements[0].op, SelectorOp::kIn);
  EXPECT_EQ(r.selector->requirements[1].op, SelectorOp::kNotIn);
  EXPECT_EQ(Names(in_, r.selector->requirements[1].values), (std::vector<std::string>{"x", "a"}));

  ASSERT_EQ(t.preferred_affinity.size(), 1u);
  EXPECT_EQ(t.preferred_affinity[0].weight, 7);
  const AffinityTerm& p = t.preferred_affinity[0].term;
  ASSERT_TRUE(p.selector);
  EXPECT_TRUE(p.selector->requirements.empty()) << "{} selects every pod";
  EXPECT_EQ(p.namespaces.size(), 2u) << "listed namespaces, deduplicated";

  ASSERT_EQ(t.preferred_anti_affinity.size(), 1u);
  const AffinityTerm& a = t.preferred_anti_affinity[0].term;
  EXPECT_FALSE(a.selector) << "a missing labelSelector selects nothing";
  EXPECT_TRUE(a.namespaces.empty()) << "a namespaceSelector replaces the default namespace";
  EXPECT_TRUE(a.NamespaceSelectorIsEmpty());
}

TEST_F(DecodePodAffinityTest, RequiredAntiAffinityMarksThePod) {
  PodAffinityTerms t = Decode(R"("podAntiAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":"zone"}]})");
  EXPECT_TRUE(t.has_pod_affinity);
  EXPECT_TRUE(t.has_required_anti_affinity);
  EXPECT_EQ(t.required_anti_affinity.size(), 1u);

  t = Decode(R"("podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[]})");
  EXPECT_TRUE(t.has_pod_affinity) << "an empty podAntiAffinity still counts (podWithAffinity)";
  EXPECT_FALSE(t.has_required_anti_affinity);

  t = Decode(R"("podAffinity":null,"nodeAffinity":{})");
  EXPECT_FALSE(t.has_pod_affinity);
}

TEST_F(DecodePodAffinityTest, MatchLabelKeysMergeIntoTheSelector) {
  const PodAffinityTerms t = Decode(R"("podAffinity":{
      "requiredDuringSchedulingIgnoredDuringExecution":[
        {"labelSelector":{"matchLabels":{"x":"y"}},"topologyKey":"zone",
         "matchLabelKeys":["app","missing"],"mismatchLabelKeys":["tier"]},
        {"topologyKey":"zone","matchLabelKeys":["app"]}]})");
  ASSERT_EQ(t.required_affinity.size(), 2u);
  const LabelSelector& s = *t.required_affinity[0].selector;
  ASSERT_EQ(s.requirements.size(), 3u) << "a key the pod lacks adds nothing";
  EXPECT_EQ(s.requirements[1].key, A("app"));
  EXPECT_EQ(s.requirements[1].op, SelectorOp::kIn);
  EXPECT_EQ(s.requirements[1].values, std::vector<Atom>{A("web")});
  EXPECT_EQ(s.requirements[2].key, A("tier"));
  EXPECT_EQ(s.requirements[2].op, SelectorOp::kNotIn);
  EXPECT_EQ(s.requirements[2].values, std::vector<Atom>{A("fe")});
  EXPECT_FALSE(t.required_affinity[1].selector) << "a nil selector stays nil";

  LabelSet web({{A("app"), A("web")}, {A("x"), A("y")}});
  LabelSet db({{A("app"), A("db")}, {A("x"), A("y")}});
  EXPECT_TRUE(s.Matches(web, in_));
  EXPECT_FALSE(s.Matches(db, in_));
}

TEST_F(DecodePodAffinityTest, UnparsableSelectorsEmptyTheirListAndAreReported) {
  const PodAffinityTerms t = Decode(R"(
      "podAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[
          {"topologyKey":"zone"},
          {"labelSelector":{"matchExpressions":[{"key":"a","operator":"Gt","values":["1"]}]},
           "topologyKey":"zone"}]},
      "podAntiAffinity":{
        "requiredDuringSchedulingIgnoredDuringExecution":[
          {"labelSelector":{"matchLabels":{"a":"{{.bad-value.}}"}},"topologyKey":"zone"}],
        "preferredDuringSchedulingIgnoredDuringExecution":[
          {"weight":1,"podAffinityTerm":{"topologyKey":"zone",
            "namespaceSelector":{"matchExpressions":[{"key":"a","operator":"In"}]}}}]})");
  EXPECT_TRUE(t.required_affinity.empty());
  EXPECT_TRUE(t.required_anti_affinity.empty());
  EXPECT_TRUE(t.preferred_anti_affinity.empty());
  EXPECT_TRUE(t.has_required_anti_affinity) << "decided by the spec, as upstream";
  EXPECT_EQ(t.parse_error,
            "[requiredAffinityTerms: term 1: invalid label selector, "
            "requiredAntiAffinityTerms: term 0: invalid label selector, "
            "preferredAntiAffinityTerms: term 0: invalid label selector]");

  const PodAffinityTerms one = Decode(R"("podAffinity":{
      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"podAffinityTerm":{
        "labelSelector":{"matchExpressions":[{"key":"a","operator":"Exists","values":["v"]}]},
        "topologyKey":"zone"}}]})");
  EXPECT_EQ(one.parse_error, "preferredAffinityTerms: term 0: invalid label selector");
}

TEST_F(DecodePodAffinityTest, NamespaceAtomIsSet) {
  Decode(R"("podAffinity":{})");
  EXPECT_EQ(pod_.ns_atom, A("ns"));
}

class DecodePodAffinityErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePodAffinityErrorTest, NamesPathAndReason) {
  Interner in;
  DecodedPod d;
  const ApiStatus s = ParseAndDecodePod(GetParam().json, in, &d);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.path(), GetParam().path);
  EXPECT_EQ(s.message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePodAffinityErrorTest,
    ::testing::Values(
        ErrorCase{"PodAffinityNotObject", WithAffinity(R"("podAffinity":[])"),
                  "spec.affinity.podAffinity",
                  "spec.affinity.podAffinity: expected an object, got an array"},
        ErrorCase{"TermNotObject",
                  WithAffinity(R"("podAntiAffinity":{
                      "requiredDuringSchedulingIgnoredDuringExecution":[1]})"),
                  "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]",
                  "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]:"
                  " expected an object, got a number"},
        ErrorCase{"TopologyKeyType",
                  WithAffinity(R"("podAffinity":{
                      "requiredDuringSchedulingIgnoredDuringExecution":[{"topologyKey":1}]})"),
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "topologyKey",
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "topologyKey: expected a string, got a number"},
        ErrorCase{"NamespacesType",
                  WithAffinity(R"("podAffinity":{
                      "requiredDuringSchedulingIgnoredDuringExecution":[{"namespaces":[true]}]})"),
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "namespaces[0]",
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "namespaces[0]: expected a string, got a boolean"},
        ErrorCase{"MatchLabelsValueType",
                  WithAffinity(R"("podAffinity":{
                      "requiredDuringSchedulingIgnoredDuringExecution":[
                        {"labelSelector":{"matchLabels":{"a":1}}}]})"),
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "labelSelector.matchLabels.a",
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "labelSelector.matchLabels.a: expected a string, got a number"},
        ErrorCase{"PreferredWithoutTerm",
                  WithAffinity(R"("podAntiAffinity":{
                      "preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1}]})"),
                  "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution"
                  "[0].podAffinityTerm",
                  "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution"
                  "[0].podAffinityTerm: Required value"},
        ErrorCase{"PreferredWeightType",
                  WithAffinity(R"("podAffinity":{
                      "preferredDuringSchedulingIgnoredDuringExecution":[
                        {"weight":"x","podAffinityTerm":{}}]})"),
                  "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
                  "weight",
                  "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0]."
                  "weight: expected an integer, got a string"},
        ErrorCase{"MatchLabelKeysType",
                  WithAffinity(R"("podAffinity":{
                      "requiredDuringSchedulingIgnoredDuringExecution":[
                        {"labelSelector":{},"matchLabelKeys":"app"}]})"),
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "matchLabelKeys",
                  "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
                  "matchLabelKeys: expected an array, got a string"}),
    CaseName);

// Namespace objects as apply input.
ApiStatus DecodeDoc(const std::string& json, Interner& in, ChangeSet* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  return DecodeChanges(doc.get(), in, out);
}

TEST(DecodeNamespaceTest, EventsUpsertAndRemove) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"([
      {"type":"ADDED","object":{"kind":"Namespace","apiVersion":"v1",
        "metadata":{"name":"team-a","labels":{"team":"a"}}}},
      {"type":"DELETED","object":{"kind":"Namespace","metadata":{"name":"team-b"}}}])",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertNamespace);
  EXPECT_EQ(cs.changes[0].ns->name, "team-a");
  EXPECT_EQ(cs.changes[0].ns->name_atom, in.Find("team-a"));
  EXPECT_EQ(cs.changes[0].ns->labels.Get(in.Find("team")), in.Find("a"));
  EXPECT_EQ(cs.changes[1].op, Change::Op::kRemoveNamespace);
  EXPECT_EQ(cs.changes[1].key, "team-b");
  EXPECT_EQ(cs.summary.applied, 2);
  EXPECT_TRUE(cs.summary.ignored.empty());
}

TEST(DecodeNamespaceTest, BadNamespacesNameTheirPath) {
  Interner in;
  ChangeSet cs;
  ApiStatus s = DecodeDoc(R"({"kind":"NamespaceList","items":[{"metadata":{}}]})", in, &cs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "items[0].metadata.name: Required value");
  s = DecodeDoc(R"({"kind":"Namespace","metadata":{"name":"n","labels":{"a":[]}}})", in, &cs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.path(), "metadata.labels.a");
}

}  // namespace
}  // namespace decode_pod_affinity_test
}  // namespace sched::capi
