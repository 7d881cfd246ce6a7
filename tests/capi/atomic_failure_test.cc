// A call that fails changes nothing: for each kind of rejected call (bad
// JSON, a bad item in the middle of a batch, every limit of capi/limits.h,
// bad flags, an unknown schedulerName, an invalid pod with ASSUME...), the
// engine's state digest is the same before and after, and the next valid
// call answers as on an engine that never saw the bad one.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "capi/engine.h"
#include "capi/limits.h"
#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EventJson;
using testing::NodeJson;
using testing::PodJson;

struct EngineDeleter {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
using EnginePtr = std::unique_ptr<sched_engine, EngineDeleter>;

// Five equal nodes (so selectHost draws from the random source) with
// labels and a bound pod each, and an assumed pod.
EnginePtr BaseEngine() {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new("{\"seed\":7}", 10, &e, nullptr), SCHED_OK);
  std::string events = "[";
  for (int i = 0; i < 5; ++i) {
    const std::string n = "n" + std::to_string(i);
    events += (i ? "," : "") +
              EventJson("ADDED", NodeJson(n, "8", R"("zone":"z)" + std::to_string(i % 2) + "\"")) +
              "," + EventJson("ADDED", PodJson("bound-" + n, "1", n));
  }
  events += "]";
  EXPECT_EQ(CallApply(e, events).status, SCHED_OK);
  EXPECT_EQ(CallSchedule(e, PodJson("assumed", "2"), SCHED_SCHEDULE_ASSUME).status, SCHED_OK);
  return EnginePtr(e);
}

// Ten events, all valid but the fifth, which is `bad`; the valid ones would
// add a node, bind pods and delete a node if applied.
std::string BatchWithFifth(const std::string& bad) {
  std::vector<std::string> events = {
      EventJson("ADDED", NodeJson("extra", "64")),
      EventJson("ADDED", PodJson("p1", "1", "n0")),
      EventJson("DELETED", NodeJson("n4", "8")),
      EventJson("MODIFIED", NodeJson("n1", "1")),
      bad,
      EventJson("ADDED", PodJson("p2", "1", "n2")),
      EventJson("DELETED", PodJson("bound-n3", "1", "n3")),
      EventJson("ADDED", PodJson("p3", "1", "extra")),
      EventJson("ADDED", NodeJson("extra2", "64")),
      EventJson("ADDED", PodJson("p4", "1", "n1")),
  };
  std::string doc = "[";
  for (size_t i = 0; i < events.size(); ++i) doc += (i ? "," : "") + events[i];
  return doc + "]";
}

// A pod whose spec has `extra_spec`; with labels nothing else uses, so that
// interning them would show in the digest.
std::string PodWith(const std::string& extra_spec, const std::string& labels = "") {
  return R"({"kind":"Pod","metadata":{"name":"x","namespace":"ns","labels":{"fresh-key":"fresh")" +
         labels + R"(}},"spec":{)" + extra_spec +
         R"("containers":[{"name":"c","image":"fresh/image","resources":{"requests":{"cpu":"1"}}}]}})";
}

std::string ZeroIndexes(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "[0]";
  return s;
}

std::string Repeat(const std::string& item, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += (i ? "," : "") + item;
  return s;
}

enum class Call { kApply, kSchedule };

struct BadCall {
  std::string name;
  Call call;
  std::string input;
  uint32_t flags;       // kSchedule
  std::string path;     // the error's path
  std::string message;  // a part of the error's message
};

void PrintTo(const BadCall& c, std::ostream* os) { *os << c.name; }

const std::string kLong = std::string(kMaxStringBytes + 1, 'x');
constexpr uint32_t kAllFlags =
    SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

std::vector<BadCall> BadCalls() {
  const std::string two_labels = R"(,"l":")" + std::string(64, 'v') + "\"";
  return {
      {"SyntaxError", Call::kApply, BatchWithFifth("{\"type\":"), 0, "", "invalid JSON"},
      {"TrailingData", Call::kApply, BatchWithFifth(EventJson("ADDED", NodeJson("a", "1"))) + "x",
       0, "", "data after the end of the document"},
      {"BadQuantityFifth", Call::kApply, BatchWithFifth(EventJson("ADDED", NodeJson("a", "1x"))), 0,
       "[4].object.status.allocatable.cpu", "invalid quantity"},
      {"NegativeQuantityFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", PodJson("a", "-1", "n0"))), 0,
       "[4].object.spec.containers[0].resources.requests.cpu",
       "must be greater than or equal to 0"},
      {"UnknownEventTypeFifth", Call::kApply,
       BatchWithFifth(EventJson("UPDATED", NodeJson("a", "1"))), 0, "[4].type",
       "Unsupported value"},
      {"MissingNameFifth", Call::kApply, BatchWithFifth(EventJson("ADDED", R"({"kind":"Pod"})")), 0,
       "[4].object.metadata.name", "Required value"},
      {"BadListItem", Call::kApply,
       R"({"kind":"NodeList","items":[)" + NodeJson("a", "1") + R"(,{"metadata":{}}]})", 0,
       "items[1].metadata.name", "Required value"},
      {"TooDeep", Call::kApply, BatchWithFifth(std::string(70, '[') + std::string(70, ']')), 0,
       "[4]" + ZeroIndexes(63), "JSON nested deeper than 64 levels"},
      {"TooManyEvents", Call::kApply, "[" + Repeat("{}", kMaxApplyItems + 1) + "]", 0, "",
       "Too many: 200001: must have at most 200000 items"},
      {"TooManyListItems", Call::kApply,
       R"({"kind":"List","items":[)" + Repeat("{}", kMaxApplyItems + 1) + "]}", 0, "items",
       "Too many: 200001: must have at most 200000 items"},
      {"TooManyTolerationsFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED",
           PodJson("a", "1", "n0", R"("tolerations":[)" + Repeat("{}", kMaxItems + 1) + "],"))),
       0, "[4].object.spec.tolerations", "Too many: 10001: must have at most 10000 items"},
      {"TooManyLabelsFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", NodeJson("a", "1",
                                                  [] {
                                                    std::string l;
                                                    for (size_t i = 0; i <= kMaxItems; ++i) {
                                                      l += (i ? ",\"k" : "\"k") +
                                                           std::to_string(i) + "\":\"v\"";
                                                    }
                                                    return l;
                                                  }()))),
       0, "[4].object.metadata.labels", "Too many: 10001: must have at most 10000 items"},
      {"LongStringFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", R"({"kind":"Pod","metadata":{"name":"a","uid":")" + kLong + R"("}})")),
       0, "[4].object.metadata.uid", "Too long: may not be more than 4096 bytes"},
      {"LongNodeNameFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", NodeJson(std::string(254, 'a'), "1"))), 0,
       "[4].object.metadata.name", "must be no more than 253 characters"},
      {"LongNamespaceFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", R"({"kind":"Pod","metadata":{"name":"a","namespace":")" +
                                             std::string(64, 'a') + R"("}})")),
       0, "[4].object.metadata.namespace", "must be no more than 63 characters"},
      {"LongLabelValueFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", NodeJson("a", "1", two_labels.substr(1)))), 0,
       "[4].object.metadata.labels.l", "must be no more than 63 characters"},
      {"LongLabelKeyNameFifth", Call::kApply,
       BatchWithFifth(
           EventJson("ADDED", NodeJson("a", "1", "\"" + std::string(64, 'k') + "\":\"v\""))),
       0, "[4].object.metadata.labels." + std::string(64, 'k'),
       "key name part must be no more than 63"},
      {"LongLabelKeyPrefixFifth", Call::kApply,
       BatchWithFifth(
           EventJson("ADDED", NodeJson("a", "1", "\"" + std::string(254, 'p') + "/k\":\"v\""))),
       0, "[4].object.metadata.labels." + std::string(254, 'p') + "/k",
       "key prefix part must be no more than 253"},
      {"LongTaintKeyFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", R"({"kind":"Node","metadata":{"name":"a"},"spec":{"taints":[{"key":")" +
                        std::string(64, 'k') + R"(","effect":"NoSchedule"}]}})")),
       0, "[4].object.spec.taints[0].key", "key name part must be no more than 63 characters"},
      {"LongTolerationValueFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", PodJson("a", "1", "n0",
                                                 R"("tolerations":[{"key":"k","value":")" +
                                                     std::string(64, 'v') + R"("}],)"))),
       0, "[4].object.spec.tolerations[0].value", "must be no more than 63 characters"},
      // Schedule calls: each pod carries strings the engine has not seen.
      {"UnknownFlagBits", Call::kSchedule, PodWith(""), SCHED_SCHEDULE_ASSUME | 0x80u, "",
       "unknown flag bits 0x80"},
      {"UnknownSchedulerName", Call::kSchedule, PodWith(R"("schedulerName":"nope",)"), kAllFlags,
       "spec.schedulerName", "no profile for schedulerName \"nope\""},
      {"InvalidPodWithAssume", Call::kSchedule, PodWith(R"("priority":1.5,)"), kAllFlags,
       "spec.priority", "expected an integer"},
      {"LongLabelWithAssume", Call::kSchedule, PodWith("", two_labels), kAllFlags,
       "metadata.labels.l", "must be no more than 63 characters"},
      {"LongNodeSelectorWithAssume", Call::kSchedule,
       PodWith(R"("nodeSelector":{"zone":")" + std::string(64, 'z') + "\"},"), kAllFlags,
       "spec.nodeSelector.zone", "must be no more than 63 characters"},
      {"NotAPod", Call::kSchedule, NodeJson("n9", "1"), kAllFlags, "kind", "Unsupported value"},
      {"PodTooLarge", Call::kSchedule, PodWith("") + std::string(kMaxObjectBytes, ' '), kAllFlags,
       "", "exceeds the limit of 3145728 bytes"},
      {"EmptyPod", Call::kSchedule, "", kAllFlags, "", "empty JSON document"},
  };
}

class AtomicFailureTest : public ::testing::TestWithParam<BadCall> {};

TEST_P(AtomicFailureTest, ChangesNothing) {
  const BadCall& c = GetParam();
  EnginePtr engine = BaseEngine();
  Engine& rep = *engine->rep;
  const uint64_t state_before = rep.StateDigest();
  const uint64_t cluster_before = rep.ClusterDigest();

  const CallResult r = c.call == Call::kApply ? CallApply(engine.get(), c.input)
                                              : CallSchedule(engine.get(), c.input, c.flags);
  EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(r.path, c.path);
  EXPECT_NE(r.message.find(c.message), std::string::npos) << r.message;
  EXPECT_EQ(rep.StateDigest(), state_before);
  EXPECT_EQ(rep.ClusterDigest(), cluster_before);

  // The next calls answer as on an engine that never saw the bad one.
  EnginePtr clean = BaseEngine();
  for (const std::string& pod : {PodWith(""), PodJson("y", "3"), PodJson("z", "3")}) {
    const CallResult got = CallSchedule(engine.get(), pod, kAllFlags);
    const CallResult want = CallSchedule(clean.get(), pod, kAllFlags);
    ASSERT_EQ(got.status, SCHED_OK) << got.message;
    EXPECT_EQ(got.output, want.output);
  }
  EXPECT_EQ(CallApply(engine.get(), BatchWithFifth(EventJson("ADDED", NodeJson("a", "1")))).output,
            CallApply(clean.get(), BatchWithFifth(EventJson("ADDED", NodeJson("a", "1")))).output);
  EXPECT_EQ(rep.StateDigest(), clean->rep->StateDigest());
}

INSTANTIATE_TEST_SUITE_P(Calls, AtomicFailureTest, ::testing::ValuesIn(BadCalls()),
                         [](const auto& info) { return info.param.name; });

// The size limit of apply documents is checked before the text is read:
// the pages of this mapping are never touched.
TEST(AtomicFailureLimitsTest, ApplyDocumentOverTheSizeLimit) {
  const size_t len = kMaxApplyBytes + 1;
  void* p = mmap(nullptr, len, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  EnginePtr engine = BaseEngine();
  const uint64_t before = engine->rep->StateDigest();
  const CallResult r = CallApply(engine.get(), std::string_view(static_cast<const char*>(p), len));
  munmap(p, len);
  EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(r.message, "document of 268435457 bytes exceeds the limit of 268435456 bytes");
  EXPECT_EQ(engine->rep->StateDigest(), before);
}

// The digest sees what a call changes (so the tests above can fail): a
// valid apply, a schedule without assume (the start index and random
// source move) and one with assume (a pod is added).
TEST(AtomicFailureLimitsTest, DigestSeesEveryKindOfChange) {
  EnginePtr engine = BaseEngine();
  Engine& rep = *engine->rep;
  uint64_t state = rep.StateDigest();
  uint64_t cluster = rep.ClusterDigest();

  ASSERT_EQ(CallSchedule(engine.get(), PodJson("s", "1"), 0).status, SCHED_OK);
  EXPECT_NE(rep.StateDigest(), state);
  EXPECT_EQ(rep.ClusterDigest(), cluster);
  state = rep.StateDigest();

  ASSERT_EQ(CallSchedule(engine.get(), PodJson("s", "1"), SCHED_SCHEDULE_ASSUME).status, SCHED_OK);
  EXPECT_NE(rep.ClusterDigest(), cluster);
  cluster = rep.ClusterDigest();

  ASSERT_EQ(
      CallApply(engine.get(), EventJson("MODIFIED", NodeJson("n0", "8", "\"k\":\"v\""))).status,
      SCHED_OK);
  EXPECT_NE(rep.ClusterDigest(), cluster);
  EXPECT_NE(rep.StateDigest(), state);
}

}  // namespace
}  // namespace sched::capi
