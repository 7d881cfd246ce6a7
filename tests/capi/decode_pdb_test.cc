// DecodePdb and PodDisruptionBudget events in DecodeChanges.
#include <string>

#include <gtest/gtest.h>

#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_pdb_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;

ApiStatus ParseAndDecodePdb(const std::string& json, Interner& in,
                            std::shared_ptr<const PodDisruptionBudget>* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  return DecodePdb(doc.get(), JsonPath(), in, out);
}

class DecodePdbTest : public ::testing::Test {
 protected:
  std::shared_ptr<const PodDisruptionBudget> Decode(const std::string& json) {
    std::shared_ptr<const PodDisruptionBudget> out;
    const ApiStatus s = ParseAndDecodePdb(json, in_, &out);
    EXPECT_TRUE(s.ok()) << s.message();
    return out;
  }
  bool Covers(const PodDisruptionBudget& pdb, const std::string& ns,
              std::vector<std::pair<std::string, std::string>> labels) {
    Pod pod;
    pod.ns = ns;
    std::vector<LabelSet::Entry> entries;
    for (const auto& [k, v] : labels) entries.push_back({in_.Intern(k), in_.Intern(v)});
    pod.labels = LabelSet(std::move(entries));
    return pdb.Covers(pod, in_);
  }
  Interner in_;
};

TEST_F(DecodePdbTest, FieldsPreemptionReads) {
  const auto pdb = Decode(R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
      "metadata":{"name":"web","namespace":"prod"},
      "spec":{"minAvailable":2,"selector":{"matchLabels":{"app":"web"},
        "matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]}]}},
      "status":{"disruptionsAllowed":1,"disruptedPods":{"web-2":"t","web-1":"t"}}})");
  ASSERT_NE(pdb, nullptr);
  EXPECT_EQ(pdb->ns, "prod");
  EXPECT_EQ(pdb->name, "web");
  EXPECT_EQ(pdb->disruptions_allowed, 1);
  EXPECT_EQ(pdb->disrupted_pods, (std::vector<std::string>{"web-1", "web-2"}));
  EXPECT_TRUE(pdb->HasDisrupted("web-1"));
  EXPECT_FALSE(pdb->HasDisrupted("web-3"));
  EXPECT_TRUE(Covers(*pdb, "prod", {{"app", "web"}}));
  EXPECT_FALSE(Covers(*pdb, "prod", {{"app", "web"}, {"tier", "db"}}));
  EXPECT_FALSE(Covers(*pdb, "default", {{"app", "web"}}));  // other namespace
}

TEST_F(DecodePdbTest, NilEmptyAndInvalidSelectorsMatchNothing) {
  for (const char* spec : {R"({})", R"({"selector":null})", R"({"selector":{}})",
                           R"({"selector":{"matchExpressions":[{"key":"app","operator":"In"}]}})",
                           R"({"selector":{"matchExpressions":[{"key":"app","operator":"Gt",
                               "values":["1"]}]}})"}) {
    const auto pdb = Decode(std::string(R"({"metadata":{"name":"x"},"spec":)") + spec + "}");
    ASSERT_NE(pdb, nullptr);
    EXPECT_EQ(pdb->ns, "default");
    EXPECT_FALSE(Covers(*pdb, "default", {{"app", "1"}})) << spec;
  }
}

class DecodePdbErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodePdbErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  std::shared_ptr<const PodDisruptionBudget> out;
  const ApiStatus s = ParseAndDecodePdb(c.json, in, &out);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodePdbErrorTest,
    ::testing::Values(
        ErrorCase{"NoName", R"({"metadata":{}})", "metadata.name",
                  "metadata.name: Required value"},
        ErrorCase{"AllowedType", R"({"metadata":{"name":"x"},"status":{"disruptionsAllowed":"1"}})",
                  "status.disruptionsAllowed",
                  "status.disruptionsAllowed: expected an integer, got a string"},
        ErrorCase{"SelectorType", R"({"metadata":{"name":"x"},"spec":{"selector":[]}})",
                  "spec.selector", "spec.selector: expected an object, got an array"},
        ErrorCase{"MatchLabelType",
                  R"({"metadata":{"name":"x"},"spec":{"selector":{"matchLabels":{"a":1}}}})",
                  "spec.selector.matchLabels.a",
                  "spec.selector.matchLabels.a: expected a string, got a number"},
        ErrorCase{"ExpressionType",
                  R"({"metadata":{"name":"x"},"spec":{"selector":{"matchExpressions":[1]}}})",
                  "spec.selector.matchExpressions[0]",
                  "spec.selector.matchExpressions[0]: expected an object, got a number"}),
    CaseName);

TEST(DecodeChangesPdbTest, AddedModifiedDeleted) {
  Interner in;
  ChangeSet cs;
  JsonDoc doc;
  ASSERT_TRUE(ParseJson(R"([
      {"type":"ADDED","object":{"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
        "metadata":{"name":"a","namespace":"ns"}}},
      {"type":"MODIFIED","object":{"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
        "metadata":{"name":"a","namespace":"ns"},"status":{"disruptionsAllowed":3}}},
      {"type":"DELETED","object":{"apiVersion":"policy/v1","kind":"PodDisruptionBudget",
        "metadata":{"name":"a","namespace":"ns"}}},
      {"type":"ADDED","object":{"apiVersion":"policy/v1beta1","kind":"PodDisruptionBudget",
        "metadata":{"name":"old"}}}])",
                        &doc)
                  .ok());
  const ApiStatus s = DecodeChanges(doc.get(), in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 3u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertPdb);
  EXPECT_EQ(cs.changes[1].pdb->disruptions_allowed, 3);
  EXPECT_EQ(cs.changes[2].op, Change::Op::kRemovePdb);
  EXPECT_EQ(cs.changes[2].key, "ns/a");
  EXPECT_EQ(cs.summary.applied, 3);
  EXPECT_EQ(cs.summary.ignored["PodDisruptionBudget"], 1);  // only policy/v1 is read
}

}  // namespace
}  // namespace decode_pdb_test
}  // namespace sched::capi
