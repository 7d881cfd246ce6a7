// DecodeChanges: the shapes sched_engine_apply accepts, what each item
// becomes, and the summary counts.
#include <string>

#include <gtest/gtest.h>

#include "capi/apply_document.h"
#include "capi/limits.h"
#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_changes_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;

constexpr char kNode[] = R"({"kind":"Node","apiVersion":"v1","metadata":{"name":"n1"}})";
constexpr char kBound[] =
    R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"b","namespace":"ns"},
        "spec":{"nodeName":"n1"}})";
constexpr char kPending[] = R"({"kind":"Pod","metadata":{"name":"p"}})";

// Decodes as sched_engine_apply does (ApplyDocument: the events array or
// the items parsed one at a time), checking that decoding the whole tree
// gives the same outcome.
ApiStatus Decode(const std::string& json, Interner& in, ChangeSet* out) {
  JsonDoc tree;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &tree, kMaxApplyBytes));
  Interner whole_in;
  ChangeSet whole;
  const ApiStatus w = DecodeChanges(tree.get(), whole_in, &whole);
  ApplyDocument doc;
  CAPI_RETURN_IF_ERROR(ApplyDocument::Parse(json, &doc));
  const size_t before = out->changes.size();
  const ApiStatus s = DecodeChanges(doc, in, out);
  EXPECT_EQ(s.message(), w.message());
  EXPECT_EQ(s.path(), w.path());
  if (s.ok()) {
    EXPECT_EQ(out->changes.size() - before, whole.changes.size());
  }
  return s;
}

TEST(DecodeChangesTest, BareObjectIsAnUpsert) {
  Interner in;
  ChangeSet cs;
  ASSERT_TRUE(Decode(kNode, in, &cs).ok());
  ASSERT_EQ(cs.changes.size(), 1u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertNode);
  EXPECT_EQ(cs.changes[0].node->name, "n1");
  EXPECT_EQ(cs.summary.applied, 1);
}

TEST(DecodeChangesTest, EventsArray) {
  Interner in;
  ChangeSet cs;
  const std::string doc = std::string("[") +
                          R"({"type":"ADDED","object":)" + kNode + "}," +
                          R"({"type":"MODIFIED","object":)" + kBound + "}," +
                          R"({"type":"ADDED","object":)" + kPending + "}," +
                          R"({"type":"DELETED","object":)" + kPending + "}," +
                          R"({"type":"BOOKMARK","object":{"kind":"Pod","metadata":{}}},)" +
                          R"({"type":"DELETED","object":)" + kBound + "}," +
                          R"({"type":"DELETED","object":)" + kNode + "}," +
                          R"({"type":"ADDED","object":{"kind":"DaemonSet","metadata":{}}})" + "]";
  const ApiStatus s = Decode(doc, in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 6u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertNode);
  EXPECT_EQ(cs.changes[1].op, Change::Op::kUpsertPod);
  EXPECT_EQ(cs.changes[1].pod->node_name, "n1");
  // A pending pod goes to the queue.
  EXPECT_EQ(cs.changes[2].op, Change::Op::kQueuePod);
  EXPECT_EQ(cs.changes[2].pod->name, "p");
  // A deleted pending pod leaves the queue and drops any copy the engine
  // assumed.
  EXPECT_EQ(cs.changes[3].op, Change::Op::kRemovePod);
  EXPECT_EQ(cs.changes[3].key, "default/p");
  EXPECT_EQ(cs.changes[3].pod->name, "p");
  EXPECT_EQ(cs.changes[4].op, Change::Op::kRemovePod);
  EXPECT_EQ(cs.changes[4].key, "ns/b");
  EXPECT_EQ(cs.changes[5].op, Change::Op::kRemoveNode);
  EXPECT_EQ(cs.changes[5].key, "n1");
  EXPECT_EQ(cs.summary.applied, 4);
  EXPECT_EQ(cs.summary.pending_pods, 2);
  EXPECT_EQ(cs.summary.ignored, (std::map<std::string, int64_t>{{"DaemonSet", 1}}));
}

TEST(DecodeChangesTest, TerminalPodsAreRemoved) {
  Interner in;
  ChangeSet cs;
  ASSERT_TRUE(Decode(R"({"type":"MODIFIED","object":{"kind":"Pod","metadata":{"name":"b"},
                         "spec":{"nodeName":"n1"},"status":{"phase":"Succeeded"}}})",
                     in, &cs)
                  .ok());
  ASSERT_EQ(cs.changes.size(), 1u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kRemovePod);
  EXPECT_EQ(cs.changes[0].key, "default/b");
  EXPECT_EQ(cs.summary.applied, 1);
}

// The array parsed item by item (ApplyDocument) wherever it sits in the
// text, with any whitespace, and the List's other members as written.
TEST(DecodeChangesTest, ItemsAmongOtherMembers) {
  Interner in;
  ChangeSet cs;
  const std::string list = std::string("\n{ \"items\" :\t[ ") + kNode + " ,\r\n " + kPending +
                           R"( ] , "metadata":{"items":[1]}, "kind" : "List" }  )";
  ASSERT_TRUE(Decode(list, in, &cs).ok());
  EXPECT_EQ(cs.changes.size(), 2u);
  ChangeSet events;
  ASSERT_TRUE(Decode(std::string(" [ \n") + R"({"type":"ADDED","object":)" + kNode + "} ]", in,
                     &events)
                  .ok());
  EXPECT_EQ(events.changes.size(), 1u);
}

TEST(DecodeChangesTest, Lists) {
  Interner in;
  ChangeSet cs;
  const std::string list = std::string(R"({"kind":"List","apiVersion":"v1","items":[)") +
                           kNode + "," + kBound + "," + kPending + R"(,{"kind":"ConfigMap"},)" +
                           R"({"kind":"Node","apiVersion":"example.com/v1"}]})";
  ASSERT_TRUE(Decode(list, in, &cs).ok());
  EXPECT_EQ(cs.changes.size(), 3u);  // node, bound pod, queued pod
  EXPECT_EQ(cs.summary.applied, 2);
  EXPECT_EQ(cs.summary.pending_pods, 1);
  EXPECT_EQ(cs.summary.ignored,
            (std::map<std::string, int64_t>{{"ConfigMap", 1}, {"Node", 1}}));

  // A typed list from the API server: items carry no kind.
  ChangeSet typed;
  ASSERT_TRUE(Decode(R"({"kind":"NodeList","apiVersion":"v1","items":[
                           {"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]})",
                     in, &typed)
                  .ok());
  ASSERT_EQ(typed.changes.size(), 2u);
  EXPECT_EQ(typed.changes[1].node->name, "b");
}

class DecodeChangesErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeChangesErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  ChangeSet cs;
  const ApiStatus s = Decode(c.json, in, &cs);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeChangesErrorTest,
    ::testing::Values(
        ErrorCase{"Scalar", "42", "",
                  "expected a watch event, an array of events, a List or an object"},
        ErrorCase{"NoKind", R"({"metadata":{"name":"x"}})", "kind", "kind: Required value"},
        ErrorCase{"EventType", R"([{"type":"ERROR","object":{"kind":"Status"}}])", "[0].type",
                  "[0].type: Unsupported value: \"ERROR\": supported values: \"ADDED\", "
                  "\"BOOKMARK\", \"DELETED\", \"MODIFIED\""},
        ErrorCase{"EventNotObject", R"([1])", "[0]", "[0]: expected an object, got a number"},
        ErrorCase{"EventWithoutObject", R"([{"type":"ADDED"}])", "[0].object",
                  "[0].object: Required value"},
        ErrorCase{"EventObjectNull", R"({"type":"ADDED","object":null})", "object",
                  "object: Required value"},
        ErrorCase{"ItemKind", R"({"kind":"List","items":[{"kind":"Node","metadata":{"name":"a"}},
                                                        {"metadata":{"name":"b"}}]})",
                  "items[1].kind", "items[1].kind: Required value"},
        // Two "items" (one written with an escape): the decoder sees both.
        ErrorCase{"ItemsTwice", R"({"kind":"List","items":[],"items":[1]})", "items",
                  "items: duplicate field"},
        ErrorCase{"ItemsTwiceEscaped", R"({"kind":"List","items":[],"it\u0065ms":[1]})",
                  "items", "items: duplicate field"},
        ErrorCase{"ItemsType", R"({"kind":"List","items":{}})", "items",
                  "items: expected an array, got an object"},
        ErrorCase{"KindType", R"({"kind":1})", "kind", "kind: expected a string, got a number"},
        ErrorCase{"BadPodInEvent",
                  R"([{"type":"ADDED","object":{"kind":"Node","metadata":{"name":"a"}}},
                      {"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"p"},
                        "spec":{"containers":[{"resources":{"requests":{"cpu":"-x"}}}]}}}])",
                  "[1].object.spec.containers[0].resources.requests.cpu",
                  "[1].object.spec.containers[0].resources.requests.cpu: invalid quantity "
                  "\"-x\": invalid quantity syntax"}),
    CaseName);

}  // namespace
}  // namespace decode_changes_test
}  // namespace sched::capi
