// Concurrent calls on one engine: eight threads apply events to their own
// nodes and pods and schedule pods at the same time through the C API. The
// final cluster digest equals that of an engine that ran the same calls one
// thread after another, and every call answers as it did there: no event
// is lost or applied twice. Sized to run in well under a second, also under
// TSan, which flags it when the engine's lock is dropped (TSan cannot see
// cJSON's global error record: the system cJSON is not instrumented).
#include <cJSON.h>
#include <gtest/gtest.h>

#include <latch>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "capi/engine.h"
#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace concurrency_test {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EventJson;
using testing::NodeJson;
using testing::PodJson;

constexpr int kThreads = 8;
constexpr int kNodesPerThread = 3;
constexpr int kRounds = 6;

std::string NodeName(int t, int i) { return "t" + std::to_string(t) + "-n" + std::to_string(i); }

// Thread t's node i, carrying the round it was last modified in.
std::string ThreadNode(int t, int i, int round) {
  return NodeJson(NodeName(t, i), "64",
                  R"("kubernetes.io/hostname":")" + NodeName(t, i) + R"(","round":")" +
                      std::to_string(round) + "\"");
}

std::string Events(const std::vector<std::string>& events) {
  std::string doc = "[";
  for (size_t i = 0; i < events.size(); ++i) doc += (i ? "," : "") + events[i];
  return doc + "]";
}

// A pending pod that only `node` can take (a single feasible node draws
// nothing from the random source, so the answer cannot depend on other
// threads' calls).
std::string PinnedPod(const std::string& name, const std::string& node) {
  return PodJson(name, "500m", "",
                 R"("nodeSelector":{"kubernetes.io/hostname":")" + node + R"("},)");
}

// What a call answered, without the parts that count other threads' nodes
// (numAllNodes, evaluatedNodes): the applied counts, or the chosen node.
std::string Answer(const CallResult& r) {
  if (r.status != SCHED_OK) return "error: " + r.message;
  std::unique_ptr<cJSON, decltype(&cJSON_Delete)> j(cJSON_Parse(r.output.c_str()), cJSON_Delete);
  std::string out;
  for (const char* key : {"applied", "pendingPods", "node", "assumed"}) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(j.get(), key);
    if (v == nullptr) continue;
    char* text = cJSON_PrintUnformatted(v);
    out += std::string(key) + "=" + text + " ";
    cJSON_free(text);
  }
  return out;
}

// Thread t's calls, in order; returns their answers.
std::vector<std::string> RunThread(sched_engine* e, int t) {
  std::vector<std::string> answers;
  std::vector<std::string> nodes;
  for (int i = 0; i < kNodesPerThread; ++i)
    nodes.push_back(EventJson("ADDED", ThreadNode(t, i, 0)));
  answers.push_back(Answer(CallApply(e, Events(nodes))));
  const std::string prefix = "t" + std::to_string(t) + "-";
  for (int r = 0; r < kRounds; ++r) {
    const std::string round = std::to_string(r);
    const std::string node = NodeName(t, r % kNodesPerThread);
    std::vector<std::string> batch;
    for (int k = 0; k < kNodesPerThread; ++k) {
      batch.push_back(EventJson(
          "ADDED", PodJson(prefix + "b" + round + "-" + std::to_string(k), "1", NodeName(t, k))));
    }
    if (r > 0) {
      // The previous round's first pod goes, and its assumed pod is bound.
      const std::string prev = std::to_string(r - 1);
      batch.push_back(
          EventJson("DELETED", PodJson(prefix + "b" + prev + "-0", "1", NodeName(t, 0))));
      batch.push_back(EventJson("MODIFIED", PodJson(prefix + "s" + prev, "500m",
                                                    NodeName(t, (r - 1) % kNodesPerThread))));
    }
    batch.push_back(EventJson("MODIFIED", ThreadNode(t, r % kNodesPerThread, r)));
    answers.push_back(Answer(CallApply(e, Events(batch))));
    answers.push_back(
        Answer(CallSchedule(e, PinnedPod(prefix + "s" + round, node), SCHED_SCHEDULE_ASSUME)));
    answers.push_back(Answer(CallSchedule(e, PinnedPod(prefix + "probe", node), 0)));
  }
  return answers;
}

struct EngineDeleter {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
using EnginePtr = std::unique_ptr<sched_engine, EngineDeleter>;

EnginePtr NewEngine() {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new("{}", 2, &e, nullptr), SCHED_OK);
  return EnginePtr(e);
}

TEST(ConcurrencyTest, ConcurrentCallsEqualSerialOnes) {
  EnginePtr serial = NewEngine();
  std::vector<std::vector<std::string>> serial_answers;
  for (int t = 0; t < kThreads; ++t) serial_answers.push_back(RunThread(serial.get(), t));

  EnginePtr concurrent = NewEngine();
  std::vector<std::vector<std::string>> answers(kThreads);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      answers[t] = RunThread(concurrent.get(), t);
    });
  }
  for (std::thread& th : threads) th.join();

  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(answers[t], serial_answers[t]) << "thread " << t;
  EXPECT_EQ(concurrent->rep->ClusterDigest(), serial->rep->ClusterDigest());
  // The answers are the ones expected, not merely equal.
  EXPECT_EQ(serial_answers[0][0], "applied=3 pendingPods=0 ");
  EXPECT_EQ(serial_answers[0][2], "node=\"t0-n0\" assumed=true ");
  EXPECT_EQ(serial_answers[0][3], "node=\"t0-n0\" assumed=false ");
  EXPECT_EQ(serial_answers[0][4], "applied=6 pendingPods=0 ");
}

EnginePtr Fork(sched_engine* e) {
  sched_engine* child = nullptr;
  EXPECT_EQ(sched_engine_fork(e, &child, nullptr), SCHED_OK);
  return EnginePtr(child);
}

// Forks of one engine, each driven by its own thread while the others run
// and while the root is freed (one family, one lock, the root's
// Filter/Score threads shared): each answers as, and ends equal to, a fork
// that ran its calls alone.
TEST(ConcurrencyTest, ForksOnThreadsEqualSerialOnes) {
  std::vector<std::vector<std::string>> serial_answers;
  std::vector<uint64_t> serial_digests;
  {
    EnginePtr root = NewEngine();
    for (int t = 0; t < kThreads; ++t) {
      EnginePtr f = Fork(root.get());
      serial_answers.push_back(RunThread(f.get(), t));
      serial_digests.push_back(f->rep->ClusterDigest());
    }
  }
  EnginePtr root = NewEngine();
  std::vector<EnginePtr> forks;
  for (int t = 0; t < kThreads; ++t) forks.push_back(Fork(root.get()));
  std::vector<std::vector<std::string>> answers(kThreads);
  std::latch start(kThreads + 1);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      answers[t] = RunThread(forks[t].get(), t);
      Fork(forks[t].get());  // forked and freed on this thread
    });
  }
  start.arrive_and_wait();
  root.reset();
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(answers[t], serial_answers[t]) << "thread " << t;
    EXPECT_EQ(forks[t]->rep->ClusterDigest(), serial_digests[t]) << "thread " << t;
  }
}

// A lost or repeated event shows in the digest (so the test above can fail).
TEST(ConcurrencyTest, DigestSeesALostEvent) {
  EnginePtr all = NewEngine();
  EnginePtr lossy = NewEngine();
  RunThread(all.get(), 0);
  RunThread(lossy.get(), 0);
  EXPECT_EQ(all->rep->ClusterDigest(), lossy->rep->ClusterDigest());
  ASSERT_EQ(CallApply(all.get(), EventJson("ADDED", PodJson("late", "1", NodeName(0, 1)))).status,
            SCHED_OK);
  EXPECT_NE(all->rep->ClusterDigest(), lossy->rep->ClusterDigest());
}

}  // namespace
}  // namespace concurrency_test
}  // namespace sched::capi
