// Out of memory changes nothing: for a representative call of each kind
// (applies of events touching every object kind and of a List, applied or
// rejected at their last item after everything else was decoded; a
// schedule with and without assume; a run; a fork), the k-th allocation of the
// call is made to fail, for every k until the call makes fewer than k (every
// ALLOC_SWEEP_STRIDE-th k when that is set: the sanitizer builds), each in
// a forked child of an engine built once. The call must return
// SCHED_OUT_OF_MEMORY with the state digest unchanged (or the clean
// answer, when the failure was absorbed), and then the same call and
// the next one (a schedule, or what a case's story does next) must answer
// exactly as on an engine that never failed.
#include <cJSON.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "capi/engine.h"
#include "capi/json_reader.h"
#include "capi/limits.h"
#include "sched/sched.h"
#include "tests/capi/base_engine.h"
#include "tests/capi/engine_test_util.h"
#include "tests/capi/failing_alloc.h"

namespace sched::capi {
namespace alloc_sweep_test {
namespace {

using testing::AllocatedBytes;
using testing::ArmAllocationFailure;
using testing::BaseEngine;
using testing::BatchWithFifth;
using testing::CallAdvanceClock;
using testing::CallApply;
using testing::CallResult;
using testing::CallRun;
using testing::CallSchedule;
using testing::DisarmAllocationFailure;
using testing::EnginePtr;
using testing::EventJson;
using testing::kRichSpec;
using testing::NodeJson;
using testing::PodJson;

// No Filter/Score threads: a forked child has only the forking thread.
const std::string kConfig = R"({"seed":7,"parallelism":1})";
constexpr uint32_t kAllFlags =
    SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

// One C API call, its outputs not yet copied: allocations are counted
// around the call alone.
struct RawResult {
  sched_status status;
  char* output;
  sched_error* err;
};
using CallFn = std::function<RawResult(sched_engine*)>;

CallResult Collect(const RawResult& r) { return testing::Collect(r.status, r.output, r.err); }

CallFn Apply(const std::string& doc) {
  return [&doc](sched_engine* e) {
    RawResult r{SCHED_OK, nullptr, nullptr};
    r.status = sched_engine_apply(e, doc.data(), doc.size(), &r.output, &r.err);
    return r;
  };
}

CallFn Schedule(const std::string& pod, uint32_t flags) {
  return [&pod, flags](sched_engine* e) {
    RawResult r{SCHED_OK, nullptr, nullptr};
    r.status = sched_engine_schedule(e, pod.data(), pod.size(), flags, &r.output, &r.err);
    return r;
  };
}

CallFn RunCycles(uint32_t flags) {
  return [flags](sched_engine* e) {
    RawResult r{SCHED_OK, nullptr, nullptr};
    r.status = sched_engine_run(e, 0, flags, &r.output, &r.err);
    return r;
  };
}

CallFn Nodes(const std::string& query) {
  return [&query](sched_engine* e) {
    RawResult r{SCHED_OK, nullptr, nullptr};
    r.status = sched_engine_nodes(e, query.data(), query.size(), &r.output, &r.err);
    return r;
  };
}

// sched_engine_fork, the child freed at once: a failed fork leaves the
// parent as it was, and nothing of the child behind.
CallFn Fork() {
  return [](sched_engine* e) {
    RawResult r{SCHED_OK, nullptr, nullptr};
    sched_engine* child = nullptr;
    r.status = sched_engine_fork(e, &child, &r.err);
    sched_engine_free(child);
    return r;
  };
}

// What a call and the call after it answer on an engine that never failed.
struct Clean {
  CallResult call;
  uint64_t after_call = 0;
  CallResult next;
  uint64_t after_next = 0;
};

// The call after, unless a case says otherwise: a schedule, assumed.
const std::string kProbePod = PodJson("probe", "1");
const CallFn kProbe = Schedule(kProbePod, kAllFlags);

// The engine a sweep calls, and the one it was forked from (kept, so the
// two share their state copy-on-write), if any.
struct Scene {
  EnginePtr parent;
  EnginePtr engine;
};
using SceneFn = std::function<Scene()>;

Scene Base() { return {nullptr, BaseEngine(kConfig)}; }

Clean Reference(const CallFn& call, const SceneFn& scene, const CallFn& next) {
  const Scene s = scene();
  sched_engine* e = s.engine.get();
  Clean c;
  c.call = Collect(call(e));
  c.after_call = e->rep->StateDigest();
  c.next = Collect(next(e));
  c.after_next = e->rep->StateDigest();
  return c;
}

bool Same(const CallResult& a, const CallResult& b) {
  return a.status == b.status && a.output == b.output && a.message == b.message;
}

enum ChildExit { kPassed = 0, kBroken = 1, kNotReached = 2 };

// In the child: fails allocation k of `call` and checks the outcome.
int FailOne(sched_engine* e, const CallFn& call, const CallFn& next, const Clean& clean, long k) {
  const uint64_t before = e->rep->StateDigest();
  ArmAllocationFailure(k);
  const RawResult raw = call(e);
  const long made = DisarmAllocationFailure();
  const CallResult r = Collect(raw);
  auto broken = [&](const char* what) {
    std::fprintf(stderr, "allocation %ld: %s (status %d: %s)\n", k, what, r.status,
                 r.message.c_str());
    return kBroken;
  };
  if (r.status == SCHED_OUT_OF_MEMORY) {
    if (e->rep->StateDigest() != before) return broken("the state changed");
    if (!Same(Collect(call(e)), clean.call)) {
      return broken("the same call again answered differently");
    }
  } else if (!Same(r, clean.call)) {
    return broken("not SCHED_OUT_OF_MEMORY, and not the clean answer");
  }
  if (e->rep->StateDigest() != clean.after_call) return broken("the state differs after the call");
  if (!Same(Collect(next(e)), clean.next)) return broken("the next call answered differently");
  if (e->rep->StateDigest() != clean.after_next) return broken("the state differs after it");
  return made < k ? kNotReached : kPassed;
}

long Stride() {
  const char* s = std::getenv("ALLOC_SWEEP_STRIDE");
  return s != nullptr && std::atol(s) > 0 ? std::atol(s) : 1;
}

// Sweeps k = 1, 1 + stride, ... until the call makes fewer allocations.
void Sweep(const CallFn& call, const SceneFn& scene = Base, const CallFn& next = kProbe) {
  testing::InstallCJsonAllocationHooks();
  const Clean clean = Reference(call, scene, next);
  ASSERT_NE(clean.call.status, SCHED_OUT_OF_MEMORY) << clean.call.message;
  const Scene s = scene();
  sched_engine* engine = s.engine.get();
  long failures = 0, swept = 0;
  for (long k = 1;; k += Stride()) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      alarm(60);  // a cycle waiting on a thread the fork did not copy
      int code = kBroken;
      try {
        code = FailOne(engine, call, next, clean, k);
      } catch (const std::exception& ex) {
        std::fprintf(stderr, "allocation %ld: %s\n", k, ex.what());
      }
      std::fflush(nullptr);
      _exit(code);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == kNotReached) break;
    ++swept;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != kPassed) {
      ++failures;
      if (WIFSIGNALED(status)) {
        ADD_FAILURE() << "allocation " << k << ": signal " << WTERMSIG(status);
      }
    }
  }
  std::printf("swept %ld allocations (stride %ld), %ld broken\n", swept, Stride(), failures);
  // The call allocated, and the sweep reached it (a run of the base scene
  // makes about 50 allocations, its cycles reusing their results' storage).
  EXPECT_GT(swept * Stride(), 20);
  EXPECT_EQ(failures, 0);
}

// Every kind of object and event (BatchWithFifth with a valid fifth).
std::string Events() { return BatchWithFifth(EventJson("ADDED", PodJson("p0", "1", "n2"))); }

// Nodes, pods bound with affinity and spread constraints, pending pods.
std::string List() {
  std::string doc = R"({"kind":"List","apiVersion":"v1","items":[)";
  for (int i = 0; i < 4; ++i) {
    const std::string n = "m" + std::to_string(i);
    doc += (i ? "," : "") + NodeJson(n, "4", R"("zone":"z1")") + "," +
           PodJson("on-" + n, "1", n, kRichSpec) + "," + PodJson("pending-" + n, "1");
  }
  return doc + "]}";
}

// `doc`, an array, with an invalid pod appended: the call parses and
// decodes everything, then fails.
std::string WithBadLast(const std::string& doc, const std::string& bad) {
  const size_t close = doc.rfind(']');
  return doc.substr(0, close) + "," + bad + doc.substr(close);
}

const std::string kBadPod = PodJson("bad", "lots");

// Parsing and decoding, the phases where all of a call's input is read.
TEST(AllocSweepTest, ApplyEventsRejectedAtTheLast) {
  const std::string doc = WithBadLast(Events(), EventJson("ADDED", kBadPod));
  Sweep(Apply(doc));
}

TEST(AllocSweepTest, ApplyListRejectedAtTheLast) {
  const std::string doc = WithBadLast(List(), kBadPod);
  Sweep(Apply(doc));
}

// A cycle and its rendering: the random source and start index it moved
// are put back.
TEST(AllocSweepTest, ScheduleWithoutAssume) {
  const std::string pod = PodJson("s", "1", "", kRichSpec);
  Sweep(Schedule(pod, SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES));
}

// A query whose selector interns strings the engine never saw: they are
// forgotten whatever allocation fails.
TEST(AllocSweepTest, NodesWithSelector) {
  const std::string query =
      R"({"names":["n0","n1","n9"],"labelSelector":{"matchExpressions":[)"
      R"({"key":"zone","operator":"In","values":["z0","new-zone"]},)"
      R"({"key":"new-key","operator":"DoesNotExist"}]}})";
  Sweep(Nodes(query));
}

// Applying the decoded changes, assuming, running cycles: every change to
// the cluster state and the queue is undone (ClusterState::Batch,
// PriorityQueue::Batch over libsched/state/undo_log.h), and the random
// sources and start indexes the cycles moved are put back.
TEST(AllocSweepTest, ApplyEvents) {
  const std::string doc = Events();
  Sweep(Apply(doc));
}

TEST(AllocSweepTest, ApplyList) {
  const std::string doc = List();
  Sweep(Apply(doc));
}

TEST(AllocSweepTest, ScheduleWithAssume) {
  const std::string pod = PodJson("s", "1", "", kRichSpec);
  Sweep(Schedule(pod, kAllFlags));
}

// The rejected nodes grouped by verdict while the result is written.
TEST(AllocSweepTest, ScheduleWithNodeStatusGroups) {
  const std::string pod = PodJson("s", "1", "", kRichSpec);
  Sweep(Schedule(pod, SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES |
                          SCHED_SCHEDULE_NODE_STATUS_GROUPS));
}

TEST(AllocSweepTest, Fork) { Sweep(Fork()); }

TEST(AllocSweepTest, Run) {
  Sweep(RunCycles(SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES));
}

// A cluster that scales down: ClusterState's node index bound falls under
// half of the arrays by node index, which are cut
// (libsched/state/node_index_room.h): by_index_ by the apply, the
// equivalence cache's rows, the nominated slots and the spread counts by
// the next cycle. The default config: the cache on, and parallel (a forked
// child has no helper thread, but a cycle over so few nodes runs inline).
const std::string kDefaultConfig = "{}";
constexpr int kScaleNodes = 16;
constexpr int kKeptNodes = 4;  // under half: the arrays are cut

const std::string kHostnameSpread =
    R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"kubernetes.io/hostname",)"
    R"("whenUnsatisfiable":"ScheduleAnyway","labelSelector":{"matchLabels":{"app":"web"}}}],)";

std::string ScaleNode(const std::string& name, int i) {
  return NodeJson(name, "4", R"("kubernetes.io/hostname":")" + name + R"(","zone":"z)" +
                                 std::to_string(i % 3) + "\"");
}
std::string Name(const char* prefix, int i) { return prefix + std::to_string(i); }

// Pods of the probe's class and of a hostname-spread class through a cycle
// each, not assumed: the cache has rows for every node, the spread counts
// are sized to the bound.
void Warm(sched_engine* e) {
  for (const std::string& pod : {PodJson("warm", "1"), PodJson("spread", "1", "", kHostnameSpread)}) {
    EXPECT_EQ(CallSchedule(e, pod, 0).status, SCHED_OK);
  }
}

// kScaleNodes nodes s<i>, a pod bound to each, warmed.
// `count` nodes <prefix><i>, each with a pod <pod_prefix><node> of `cpu`
// bound to it: events, without the array's brackets.
std::string NodesWithPods(const char* prefix, int count, const std::string& pod_prefix,
                          const std::string& cpu) {
  std::string events;
  for (int i = 0; i < count; ++i) {
    const std::string n = Name(prefix, i);
    events += (i ? "," : "") + EventJson("ADDED", ScaleNode(n, i)) + "," +
              EventJson("ADDED", PodJson(pod_prefix + n, cpu, n));
  }
  return events;
}

EnginePtr ScaleEngine() {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new(kDefaultConfig.data(), kDefaultConfig.size(), &e, nullptr), SCHED_OK);
  EnginePtr engine(e);
  EXPECT_EQ(CallApply(e, "[" + NodesWithPods("s", kScaleNodes, "on-", "1") + "]").status,
            SCHED_OK);
  Warm(e);
  return engine;
}

// Deletes the nodes from s<kKeptNodes> up and their pods, then adds
// `added` nodes t<i>, which take freed indexes.
std::string ScaleDown(int added) {
  std::string doc = "[";
  for (int i = kKeptNodes; i < kScaleNodes; ++i) {
    const std::string n = Name("s", i);
    doc += (i > kKeptNodes ? "," : "") + EventJson("DELETED", PodJson("on-" + n, "1", n)) + "," +
           EventJson("DELETED", ScaleNode(n, i));
  }
  for (int i = 0; i < added; ++i) doc += "," + EventJson("ADDED", ScaleNode(Name("t", i), i));
  return doc + "]";
}

std::string ScaleUp(int added) {
  std::string doc = "[";
  for (int i = 0; i < added; ++i) {
    doc += (i ? "," : "") + EventJson("ADDED", ScaleNode(Name("t", i), i));
  }
  return doc + "]";
}

Scene Scaled() { return {nullptr, ScaleEngine()}; }

// A fork of the warmed engine, warmed again (a fork starts with an empty
// cache); the parent still shares the state.
Scene ForkOfScaled() {
  Scene s{ScaleEngine(), nullptr};
  sched_engine* child = nullptr;
  EXPECT_EQ(sched_engine_fork(s.parent.get(), &child, nullptr), SCHED_OK);
  s.engine.reset(child);
  Warm(child);
  return s;
}

// The engine after the scale-down, before the cycle that cuts the cache.
Scene ScaledDown() {
  EnginePtr e = ScaleEngine();
  EXPECT_EQ(CallApply(e.get(), ScaleDown(0)).status, SCHED_OK);
  return {nullptr, std::move(e)};
}

TEST(AllocSweepTest, ApplyScaleDown) {
  const std::string doc = ScaleDown(0);
  Sweep(Apply(doc), Scaled);
}

TEST(AllocSweepTest, ApplyScaleDownInAFork) {
  const std::string doc = ScaleDown(0);
  Sweep(Apply(doc), ForkOfScaled);
}

// The freed indexes go to new nodes in the same batch.
TEST(AllocSweepTest, ApplyScaleDownThenUp) {
  const std::string doc = ScaleDown(kKeptNodes);
  Sweep(Apply(doc), Scaled);
}

// The next apply after the cut grows the arrays again.
TEST(AllocSweepTest, ApplyScaleUpAfterScaleDown) {
  const std::string doc = ScaleUp(kKeptNodes);
  Sweep(Apply(doc), ScaledDown);
}

// The cycle that cuts the cache's rows, the nominated slots and the
// spread counts.
TEST(AllocSweepTest, ScheduleAfterScaleDown) {
  const std::string pod = PodJson("s", "1", "", kHostnameSpread);
  Sweep(Schedule(pod, kAllFlags), ScaledDown);
}

// What a story does after the swept run: `doc` applied, the clock moved
// past the backoff of the pods it moved, a run (its result is compared,
// and the state digest after it).
CallFn ApplyAndRun(const std::string& doc) {
  return [&doc](sched_engine* e) {
    (void)CallApply(e, doc);
    (void)CallAdvanceClock(e, 11'000);
    return RunCycles(SCHED_SCHEDULE_NODE_STATUSES)(e);
  };
}

constexpr uint32_t kRunFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

// Preemption after a scale-down: nodes s<i>, each full with two 2-cpu pods
// of priority i + 1 (with the PDB, which allows no disruption, s0's are
// app=web: preemption goes elsewhere), and preemptors of priority 1000
// asking for a whole node. Before the scale-down one was nominated (a run)
// and one scheduled (not assumed), so the dry-run memo, the nominated
// slots and the cache's rows are sized to kScaleNodes.
std::string Preemptor(const std::string& name) {
  return PodJson(name, "4", "", testing::PriorityJson(1000));
}

std::string Victim(int node, int k, bool pdb) {
  const std::string pod = PodJson(Name("v", node) + "-" + std::to_string(k), "2",
                                  Name("s", node), testing::PriorityJson(node + 1));
  return pdb && node == 0 ? testing::WithLabels(pod, R"("app":"web")") : pod;
}

// The nodes whose pods the preemptors evict: the lowest priorities, but
// none the PDB covers.
std::vector<int> VictimNodes(bool pdb) { return pdb ? std::vector{1, 2} : std::vector{0, 1}; }

EnginePtr FullEngine(bool pdb) {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new(kDefaultConfig.data(), kDefaultConfig.size(), &e, nullptr), SCHED_OK);
  EnginePtr engine(e);
  std::string events = "[";
  for (int i = 0; i < kScaleNodes; ++i) {
    events += (i ? "," : "") + EventJson("ADDED", ScaleNode(Name("s", i), i));
    for (int k = 0; k < 2; ++k) events += "," + EventJson("ADDED", Victim(i, k, pdb));
  }
  if (pdb) events += "," + EventJson("ADDED", testing::PdbJson("web-pdb", 0));
  events += "," + EventJson("ADDED", Preemptor("pre-0"));
  EXPECT_EQ(CallApply(e, events + "]").status, SCHED_OK);
  EXPECT_EQ(CallRun(e, 0, 0).status, SCHED_OK);  // pre-0 nominated
  EXPECT_EQ(CallSchedule(e, Preemptor("warm"), 0).status, SCHED_OK);
  return engine;
}

// The nodes from s<kKeptNodes> up deleted with their pods, a second
// preemptor queued, and the clock past the 5 minutes after which the
// nominated one is retried: the run's cycles cut the arrays.
Scene PreemptionAfterScaleDown(bool pdb) {
  EnginePtr e = FullEngine(pdb);
  std::string doc = "[" + EventJson("ADDED", Preemptor("pre-1"));
  for (int i = kKeptNodes; i < kScaleNodes; ++i) {
    for (int k = 0; k < 2; ++k) doc += "," + EventJson("DELETED", Victim(i, k, pdb));
    doc += "," + EventJson("DELETED", ScaleNode(Name("s", i), i));
  }
  EXPECT_EQ(CallApply(e.get(), doc + "]").status, SCHED_OK);
  EXPECT_EQ(CallAdvanceClock(e.get(), 301'000).status, SCHED_OK);
  return {nullptr, std::move(e)};
}

// Acting on the nominations: the victims deleted.
std::string DeleteVictims(bool pdb) {
  std::string doc = "[";
  for (int node : VictimNodes(pdb)) {
    for (int k = 0; k < 2; ++k) {
      doc += (doc.size() > 1 ? "," : "") + EventJson("DELETED", Victim(node, k, pdb));
    }
  }
  return doc + "]";
}

// The run retries the nominated preemptor and nominates the second one
// elsewhere; then both are placed where their victims were.
void SweepPreemptionAfterScaleDown(bool pdb) {
  const std::string deletions = DeleteVictims(pdb);
  Sweep(RunCycles(kRunFlags), [pdb] { return PreemptionAfterScaleDown(pdb); },
        ApplyAndRun(deletions));
}

TEST(AllocSweepTest, RunPreemptionAfterScaleDown) { SweepPreemptionAfterScaleDown(false); }

TEST(AllocSweepTest, RunPreemptionAfterScaleDownWithPdb) { SweepPreemptionAfterScaleDown(true); }

// The queue retrying pods over a long history: nodes r<i>, each half full,
// and pods that fit nowhere: two replicas of "big" (6 cpu) and two of
// "mid" (3 cpu, priority 5, never preempting: nobody is nominated, so the
// failure memo serves each class's second replica). Rounds park them, add
// a node that helps none (the hints leave them parked) and pass the 5
// minutes after which they are retried anyway. Then a node with room for a
// mid comes and a pod on r0 goes (the mids moved back by those events),
// and the clock passes the 5 minutes again (the bigs moved back by it).
const std::string kMidSpec = testing::PriorityJson(5) + testing::kNever;
constexpr int kRetryNodes = 4;

std::string SmallNode(const std::string& name) {
  return NodeJson(name, "1", R"("kubernetes.io/hostname":")" + name + "\"");
}

Scene Retrying() {
  sched_engine* raw = nullptr;
  EXPECT_EQ(sched_engine_new(kDefaultConfig.data(), kDefaultConfig.size(), &raw, nullptr),
            SCHED_OK);
  EnginePtr e(raw);
  std::string events = "[" + NodesWithPods("r", kRetryNodes, "half-", "2");
  for (int k = 0; k < 2; ++k) {
    events += "," + EventJson("ADDED", PodJson(Name("big-", k), "6")) + "," +
              EventJson("ADDED", PodJson(Name("mid-", k), "3", "", kMidSpec));
  }
  EXPECT_EQ(CallApply(raw, events + "]").status, SCHED_OK);
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(CallRun(raw, 0, 0).status, SCHED_OK);
    EXPECT_EQ(CallApply(raw, EventJson("ADDED", SmallNode(Name("small-", round)))).status,
              SCHED_OK);
    EXPECT_EQ(CallAdvanceClock(raw, 301'000).status, SCHED_OK);
  }
  EXPECT_EQ(CallRun(raw, 0, 0).status, SCHED_OK);
  EXPECT_EQ(CallAdvanceClock(raw, 290'000).status, SCHED_OK);
  const std::string room = "[" + EventJson("ADDED", ScaleNode("wide", 0)) + "," +
                           EventJson("DELETED", PodJson("half-r0", "2", "r0")) + "]";
  EXPECT_EQ(CallApply(raw, room).status, SCHED_OK);
  EXPECT_EQ(CallAdvanceClock(raw, 11'000).status, SCHED_OK);
  return {nullptr, std::move(e)};
}

// After the swept run: a node with room for both bigs.
const std::string kHugeNode = EventJson("ADDED", NodeJson("huge", "16"));

// The run places the mids and parks the bigs, the second from the memo.
TEST(AllocSweepTest, RunRetryingParkedPods) {
  Sweep(RunCycles(kRunFlags), Retrying, ApplyAndRun(kHugeNode));
}

// What the stories above rely on, without failures: the run's outcome and
// the one after it.
struct Story {
  std::string name;
  SceneFn scene;
  std::string then;
  std::vector<std::string> run;    // per cycle: "pod node|-> nominated|-"
  int replayed;                    // the run's cycles served by the failure memo
  std::vector<std::string> after;  // the same for the run after
};

// The cycles the failure memo served so far (sched_engine_stats).
int Replayed(sched_engine* e) {
  char* out = nullptr;
  EXPECT_EQ(sched_engine_stats(e, &out, nullptr), SCHED_OK);
  JsonDoc doc(cJSON_Parse(out));
  sched_free(out);
  return static_cast<int>(
      testing::Get(testing::Get(doc.get(), "equivalenceCache"), "parked")->valuedouble);
}

std::vector<std::string> Outcomes(const CallResult& r) {
  std::vector<std::string> out;
  JsonDoc doc(cJSON_Parse(r.output.c_str()));
  const cJSON* result;
  cJSON_ArrayForEach(result, testing::Get(doc.get(), "results")) {
    const cJSON* node = testing::Get(result, "node");
    const cJSON* nominated = testing::Get(result, "nominatedNodeName");
    out.push_back(std::string(testing::Get(result, "pod")->valuestring) + " " +
                  (cJSON_IsString(node) ? node->valuestring
                   : nominated != nullptr ? "-> " + std::string(nominated->valuestring)
                                          : "-"));
  }
  return out;
}

TEST(AllocSweepTest, StoriesWithoutFailures) {
  std::vector<Story> stories = {
      {"preemption", [] { return PreemptionAfterScaleDown(false); }, DeleteVictims(false),
       {"ns/pre-0 -> s0", "ns/pre-1 -> s1"}, 0, {"ns/pre-0 s0", "ns/pre-1 s1"}},
      {"preemption with a PDB", [] { return PreemptionAfterScaleDown(true); },
       DeleteVictims(true), {"ns/pre-0 -> s1", "ns/pre-1 -> s2"}, 0,
       {"ns/pre-0 s1", "ns/pre-1 s2"}},
      {"retrying",
       Retrying,
       kHugeNode,
       {"ns/mid-0 wide", "ns/mid-1 r0", "ns/big-0 -", "ns/big-1 -"},
       1,
       {"ns/big-0 huge", "ns/big-1 huge"}},
  };
  for (const Story& story : stories) {
    const Scene s = story.scene();
    const int replayed = Replayed(s.engine.get());
    EXPECT_EQ(Outcomes(CallRun(s.engine.get(), 0, 0)), story.run) << story.name;
    EXPECT_EQ(Replayed(s.engine.get()) - replayed, story.replayed) << story.name;
    EXPECT_EQ(Outcomes(Collect(ApplyAndRun(story.then)(s.engine.get()))), story.after)
        << story.name;
  }
}

// Limits before the cost: a document over kMaxApplyItems is rejected from
// the scan alone, allocating a few bytes, not a tree of its 200,001 items.
struct OversizedCase {
  std::string name;
  std::string doc;
  std::string message;
};

std::vector<OversizedCase> OversizedCases() {
  const std::string event = EventJson("ADDED", NodeJson("n", "1"));
  std::string events = "[", items = R"({"kind":"NodeList","items":[)";
  for (size_t i = 0; i < kMaxApplyItems + 1; ++i) {
    events += (i ? "," : "") + event;
    items += (i ? "," : "") + NodeJson("n", "1");
  }
  const std::string too_many = "Too many: 200001: must have at most 200000 items";
  return {{"Events", events + "]", too_many}, {"List", items + "]}", "items: " + too_many}};
}

TEST(OversizedApplyTest, RejectedBeforeParsing) {
  testing::InstallCJsonAllocationHooks();
  EnginePtr e = BaseEngine(kConfig);
  const uint64_t before = e->rep->StateDigest();
  for (const OversizedCase& c : OversizedCases()) {
    ArmAllocationFailure(0);
    const RawResult raw = Apply(c.doc)(e.get());
    const long allocations = DisarmAllocationFailure();
    const CallResult r = Collect(raw);
    EXPECT_EQ(r.status, SCHED_INVALID_ARGUMENT) << c.name;
    EXPECT_EQ(r.message, c.message) << c.name;
    // The error, its strings and the List's small remainder.
    EXPECT_LT(allocations, 50) << c.name;
    EXPECT_LT(AllocatedBytes(), 4096) << c.name;
    EXPECT_EQ(e->rep->StateDigest(), before) << c.name;
  }
}

}  // namespace
}  // namespace alloc_sweep_test
}  // namespace sched::capi
