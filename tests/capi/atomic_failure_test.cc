// A call that fails changes nothing: for each kind of rejected call (bad
// JSON, a bad item in the middle of a batch of every kind of object, every
// limit of capi/limits.h, bad flags, an unknown schedulerName, an invalid
// pod with ASSUME, a bad run or clock advance...), the engine's state digest
// is the same before and after, and the next valid call answers as on an
// engine that never saw the bad one.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capi/engine.h"
#include "capi/limits.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace atomic_failure_test {
namespace {

using testing::BaseEngine;
using testing::BatchWithFifth;
using testing::ClaimJson;
using testing::CSINodeJson;
using testing::DeviceClassJson;
using testing::EnginePtr;
using testing::kAntiAffinity;
using testing::kNever;
using testing::kRichSpec;
using testing::kSpread;
using testing::NamespaceJson;
using testing::PdbJson;
using testing::ReplicaSetJson;
using testing::SliceJson;
using testing::ServiceJson;
using testing::StorageClassJson;
using testing::CallAdvanceClock;
using testing::CallApply;
using testing::CallQueue;
using testing::CallResult;
using testing::CallRun;
using testing::CallSchedule;
using testing::EventJson;
using testing::NodeJson;
using testing::PodJson;

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

enum class Call { kApply, kSchedule, kRun, kAdvanceClock };

struct BadCall {
  std::string name;
  Call call;
  std::string input;    // kApply, kSchedule
  uint64_t arg;         // kSchedule, kRun: flags; kAdvanceClock: milliseconds
  std::string path;     // the error's path
  std::string message;  // a part of the error's message
};

void PrintTo(const BadCall& c, std::ostream* os) { *os << c.name; }

const std::string kLong = std::string(kMaxStringBytes + 1, 'x');
constexpr uint32_t kAllFlags =
    SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;
constexpr uint32_t kRunFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

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
      {"BadPdbFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":)"
                    R"({"name":"b","namespace":"ns"},"status":{"disruptionsAllowed":"1"}})")),
       0, "[4].object.status.disruptionsAllowed", "expected an integer, got a string"},
      {"BadNamespaceFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", NamespaceJson("fresh", R"("fresh-key":1)"))), 0,
       "[4].object.metadata.labels.fresh-key", "expected a string, got a number"},
      {"BadPersistentVolumeFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", R"({"kind":"PersistentVolume","metadata":{"name":"fresh"},)"
                    R"("spec":{"capacity":{"storage":"-1Gi"}}})")),
       0, "[4].object.spec.capacity.storage", "must be greater than or equal to 0"},
      {"BadPersistentVolumeClaimFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", R"({"kind":"PersistentVolumeClaim","metadata":{"name":"fresh"},)"
                    R"("spec":{"accessModes":["ReadWriteSometimes"]}})")),
       0, "[4].object.spec.accessModes[0]", "Unsupported value: \"ReadWriteSometimes\""},
      {"BadStorageClassFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", StorageClassJson("fresh", "Later"))), 0,
       "[4].object.volumeBindingMode", "Unsupported value: \"Later\""},
      {"BadCSINodeFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", CSINodeJson("fresh", "-1"))), 0,
       "[4].object.spec.drivers[0].allocatable.count", "must be"},
      {"BadPodVolumeFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", PodJson("fresh", "1", "",
                            R"("volumes":[{"name":"v","rbd":{"image":"i","monitors":[1]}}],)"))),
       0, "[4].object.spec.volumes[0].rbd.monitors[0]", "expected a string, got a number"},
      {"BadServiceFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", ServiceJson("fresh", R"("fresh-key":1)"))), 0,
       "[4].object.spec.selector.fresh-key", "expected a string, got a number"},
      {"BadReplicaSetFifth", Call::kApply,
       BatchWithFifth(EventJson("ADDED", ReplicaSetJson("fresh", R"({"matchExpressions":[1]})"))),
       0, "[4].object.spec.selector.matchExpressions[0]", "expected an object, got a number"},
      {"BadSpreadConstraintFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", PodJson("fresh", "1", "",
                            R"("topologySpreadConstraints":[{"maxSkew":0,"topologyKey":"zone",)"
                            R"("whenUnsatisfiable":"DoNotSchedule"}],)"))),
       0, "[4].object.spec.topologySpreadConstraints[0].maxSkew", "must be greater than zero"},
      {"BadPodAffinityFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", PodJson("fresh", "1", "",
                            R"("affinity":{"podAffinity":{)"
                            R"("requiredDuringSchedulingIgnoredDuringExecution":[)"
                            R"({"topologyKey":"fresh","namespaces":[true]}]}},)"))),
       0,
       "[4].object.spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]."
       "namespaces[0]",
       "expected a string, got a boolean"},
      {"BadSchedulingGatesFifth", Call::kApply,
       BatchWithFifth(EventJson(
           "ADDED", PodJson("fresh", "1", "", R"("schedulingGates":[{"name":"g"},{"name":1}],)"))),
       0, "[4].object.spec.schedulingGates[1].name", "expected a string, got a number"},
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
      {"BadSpreadConstraintWithAssume", Call::kSchedule,
       PodWith(R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"fresh",)"
               R"("whenUnsatisfiable":"Maybe"}],)"),
       kAllFlags, "spec.topologySpreadConstraints[0].whenUnsatisfiable", "Unsupported value"},
      // Run and clock calls. With flags a run would pop the pending pods.
      {"RunUnknownFlagBits", Call::kRun, "", SCHED_SCHEDULE_ASSUME, "",
       "unknown flag bits 0x1 in sched_engine_run flags"},
      {"RunHighFlagBit", Call::kRun, "", SCHED_SCHEDULE_SCORES | 0x80000000u, "",
       "unknown flag bits 0x80000000 in sched_engine_run flags"},
      {"AdvanceClockOverLimit", Call::kAdvanceClock, "", 9'000'000'000'001ULL, "",
       "the clock would pass 9000000000000 ms"},
      {"AdvanceClockMax", Call::kAdvanceClock, "", UINT64_MAX, "",
       "the clock would pass 9000000000000 ms"},
      // Allowed alone, but the clock is already at 1.5 s.
      {"AdvanceClockOverflowFromNow", Call::kAdvanceClock, "", 9'000'000'000'000ULL, "",
       "the clock would pass 9000000000000 ms"},
  };
}

CallResult Do(sched_engine* e, const BadCall& c) {
  switch (c.call) {
    case Call::kApply:
      return CallApply(e, c.input);
    case Call::kSchedule:
      return CallSchedule(e, c.input, static_cast<uint32_t>(c.arg));
    case Call::kRun:
      return CallRun(e, 0, static_cast<uint32_t>(c.arg));
    case Call::kAdvanceClock:
      return CallAdvanceClock(e, c.arg);
  }
  return {};
}

class AtomicFailureTest : public ::testing::TestWithParam<BadCall> {};

TEST_P(AtomicFailureTest, ChangesNothing) {
  const BadCall& c = GetParam();
  EnginePtr engine = BaseEngine();
  Engine& rep = *engine->rep;
  const uint64_t state_before = rep.StateDigest();
  const uint64_t cluster_before = rep.ClusterDigest();

  const CallResult r = Do(engine.get(), c);
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
  EXPECT_EQ(CallQueue(engine.get()).output, CallQueue(clean.get()).output);
  EXPECT_EQ(CallRun(engine.get(), 0, kRunFlags).output, CallRun(clean.get(), 0, kRunFlags).output);
  EXPECT_EQ(rep.StateDigest(), clean->rep->StateDigest());
}

INSTANTIATE_TEST_SUITE_P(Calls, AtomicFailureTest, ::testing::ValuesIn(BadCalls()),
                         [](const auto& info) { return info.param.name; });

// The base engine holds what the digests must cover: a ready pod, a gated
// one, and one that failed a cycle (so the bad calls above meet them).
TEST(AtomicFailureLimitsTest, BaseEngineHasQueuedPods) {
  EnginePtr engine = BaseEngine();
  const std::string queue = CallQueue(engine.get()).output;
  for (const std::string want :
       {R"("nowMillis":1500)", R"("pod":"ns/waiting","queue":"Active")",
        R"("pod":"ns/gated","queue":"Unschedulable")", R"("gatingPlugin":"SchedulingGates")",
        R"("pod":"ns/too-big")", R"("attempts":1,"unschedulablePlugins":["NodeResourcesFit"])"}) {
    EXPECT_NE(queue.find(want), std::string::npos) << want << " not in " << queue;
  }
}

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

// Each new kind of state shows in the digests: two engines make the same
// calls but for one field (so the cluster generation, the interner and the
// call count match) and their digests differ: StateDigest always,
// ClusterDigest unless the field is queue or clock state.
struct StateChange {
  std::string name;
  std::function<CallResult(sched_engine*)> control;  // leaves the field as it was
  std::function<CallResult(sched_engine*)> changed;  // changes it
  bool cluster;                                      // ClusterDigest differs too
};

void PrintTo(const StateChange& c, std::ostream* os) { *os << c.name; }

std::function<CallResult(sched_engine*)> Applying(const std::string& type,
                                                  const std::string& object) {
  return [=](sched_engine* e) { return CallApply(e, EventJson(type, object)); };
}

std::function<CallResult(sched_engine*)> Advancing(uint64_t millis) {
  return [=](sched_engine* e) { return CallAdvanceClock(e, millis); };
}

std::vector<StateChange> StateChanges() {
  const auto modified = [](const std::string& control, const std::string& changed) {
    return std::pair(Applying("MODIFIED", control), Applying("MODIFIED", changed));
  };
  std::vector<StateChange> v;
  const auto add = [&](std::string name, auto calls, bool cluster) {
    v.push_back({std::move(name), calls.first, calls.second, cluster});
  };
  add("PdbAdded",
      std::pair(Applying("ADDED", PdbJson("pdb", 1)), Applying("ADDED", PdbJson("svc", 1))), true);
  add("PdbDisruptionsAllowed", modified(PdbJson("pdb", 1), PdbJson("pdb", 2)), true);
  add("NamespaceLabels",
      modified(NamespaceJson("ns", R"("team":"a")"), NamespaceJson("ns", R"("team":"web")")), true);
  add("NamespaceAdded",
      std::pair(Applying("ADDED", NamespaceJson("ns", R"("team":"a")")),
                Applying("ADDED", NamespaceJson("zone", R"("team":"a")"))),
      true);
  add("ServiceAdded",
      std::pair(Applying("ADDED", ServiceJson("svc", R"("app":"web")")),
                Applying("ADDED", ServiceJson("pdb", R"("app":"web")"))),
      true);
  add("ServiceSelector",
      modified(ServiceJson("svc", R"("app":"web")"), ServiceJson("svc", R"("app":"db")")), true);
  add("ReplicaSetSelector",
      modified(ReplicaSetJson("rs", R"({"matchLabels":{"app":"web"}})"),
               ReplicaSetJson("rs", R"({"matchLabels":{"app":"db"}})")),
      true);
  const std::string rich = PodJson("rich", "1", "n0", kRichSpec);
  add("BoundPodSpread", modified(rich, PodJson("rich", "1", "n0", kAntiAffinity + kNever)), true);
  add("BoundPodAntiAffinity", modified(rich, PodJson("rich", "1", "n0", kSpread + kNever)), true);
  add("BoundPodPreemptionPolicy",
      modified(rich, PodJson("rich", "1", "n0", kSpread + kAntiAffinity)), true);
  add("PodQueued",
      std::pair(Applying("MODIFIED", PodJson("waiting", "1")),
                Applying("ADDED", PodJson("queued", "1"))),
      false);
  add("PendingPodUngated",
      modified(PodJson("gated", "1", "", R"("schedulingGates":[{"name":"g"}],)"),
               PodJson("gated", "1")),
      false);
  add("PendingPodPriority",
      modified(PodJson("waiting", "1"), PodJson("waiting", "1", "", R"("priority":2,)")), false);
  add("PendingPodSpread",
      modified(PodJson("waiting", "1"), PodJson("waiting", "1", "", kRichSpec)), false);
  const auto added = [](const std::string& control, const std::string& changed) {
    return std::pair(Applying("ADDED", control), Applying("ADDED", changed));
  };
  add("ResourceClaimAdded",
      added(ClaimJson("ResourceClaim", "a", 1), ClaimJson("ResourceClaim", "b", 1)), true);
  add("ResourceClaimCount",
      added(ClaimJson("ResourceClaim", "a", 1), ClaimJson("ResourceClaim", "a", 2)), true);
  add("ResourceClaimTemplateCount",
      added(ClaimJson("ResourceClaimTemplate", "t", 1), ClaimJson("ResourceClaimTemplate", "t", 2)),
      true);
  add("DeviceClassSelector", added(DeviceClassJson("gpu", "true"), DeviceClassJson("gpu", "false")),
      true);
  add("ResourceSliceDevice", added(SliceJson("s", "gpu-0"), SliceJson("s", "gpu-1")), true);
  add("ResourceSliceDeviceTaint",
      added(SliceJson("s", "gpu-0", R"(,"taints":[{"key":"k","effect":"NoSchedule"}])"),
            SliceJson("s", "gpu-0", R"(,"taints":[{"key":"k","effect":"NoExecute"}])")),
      true);
  const auto counters = [](const std::string& value) {
    return SliceJson(
        "s", "gpu-0",
        R"(,"consumesCounters":[{"counterSet":"set","counters":{"mem":{"value":"1"}}}])",
        R"(,"sharedCounters":[{"name":"set","counters":{"mem":{"value":")" + value + R"("}}}])");
  };
  add("ResourceSliceSharedCounter", added(counters("4"), counters("8")), true);
  add("BoundPodResourceClaims",
      modified(PodJson("bound-n1", "1", "n1"),
               PodJson("bound-n1", "1", "n1",
                       R"("resourceClaims":[{"name":"r","resourceClaimName":"a"}],)")),
      true);
  add("ClockAdvanced", std::pair(Advancing(0), Advancing(1)), false);
  add("BackoffEnds", std::pair(Advancing(0), Advancing(60'000)), false);
  return v;
}

class DigestSeesStateTest : public ::testing::TestWithParam<StateChange> {};

TEST_P(DigestSeesStateTest, Differs) {
  const StateChange& c = GetParam();
  EnginePtr control = BaseEngine();
  EnginePtr changed = BaseEngine();
  ASSERT_EQ(control->rep->StateDigest(), changed->rep->StateDigest());
  const CallResult rc = c.control(control.get());
  ASSERT_EQ(rc.status, SCHED_OK) << rc.message;
  const CallResult r = c.changed(changed.get());
  ASSERT_EQ(r.status, SCHED_OK) << r.message;
  EXPECT_NE(changed->rep->StateDigest(), control->rep->StateDigest());
  if (c.cluster) {
    EXPECT_NE(changed->rep->ClusterDigest(), control->rep->ClusterDigest());
  } else {
    EXPECT_EQ(changed->rep->ClusterDigest(), control->rep->ClusterDigest());
  }
}

INSTANTIATE_TEST_SUITE_P(Kinds, DigestSeesStateTest, ::testing::ValuesIn(StateChanges()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace atomic_failure_test
}  // namespace sched::capi
