// Determinism across `parallelism` (DESIGN.md): engines that differ only in
// parallelism, given the same random cluster and pending pods, return the
// same results (node statuses and scores included) and end in the same
// state digest (cluster, start indexes, random sources, queue).
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "capi/engine.h"
#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace parallelism_test {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallRun;
using testing::CallSchedule;
using testing::NodeJson;
using testing::SeedsToRun;

struct EngineDeleter {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
using EnginePtr = std::unique_ptr<sched_engine, EngineDeleter>;

// A pod in namespace "ns" labelled app=<app>; `extra_spec` is spliced into
// spec and must end in ','.
std::string AppPod(const std::string& name, const std::string& app, const std::string& cpu,
                   const std::string& node, const std::string& extra_spec) {
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns","labels":{"app":")" + app + R"("}},"spec":{)" + node_name +
         extra_spec + R"("containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu +
         R"("}}}]}})";
}

// A List of nodes in four zones, pods bound to them and pending pods with
// node selectors, spread constraints and (anti-)affinity.
std::string RandomCluster(uint64_t seed, int num_nodes, int num_pending) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::string items;
  auto add = [&](const std::string& item) { items += (items.empty() ? "" : ",") + item; };
  for (int i = 0; i < num_nodes; ++i) {
    const std::string name = "node-" + std::to_string(i);
    add(NodeJson(name, std::to_string(uniform(2, 8)),
                 R"("kubernetes.io/hostname":")" + name + R"(","zone":"z)" +
                     std::to_string(uniform(0, 3)) + "\""));
  }
  const std::string apps[] = {"a", "b", "c"};
  for (int i = 0; i < num_nodes * 2; ++i) {
    add(AppPod("bound-" + std::to_string(i), apps[uniform(0, 2)],
               std::to_string(100 * uniform(1, 10)) + "m",
               "node-" + std::to_string(uniform(0, num_nodes - 1)), ""));
  }
  for (int i = 0; i < num_pending; ++i) {
    const std::string app = apps[uniform(0, 2)];
    const std::string selector = R"({"matchLabels":{"app":")" + app + R"("}})";
    const std::string specs[] = {
        "",
        R"("nodeSelector":{"zone":"z1"},)",
        R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":"zone",)"
        R"("whenUnsatisfiable":"DoNotSchedule","labelSelector":)" +
            selector + "}],",
        R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
        R"({"topologyKey":"kubernetes.io/hostname","labelSelector":)" +
            selector + "}]}},",
        R"("affinity":{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)"
        R"({"weight":50,"podAffinityTerm":{"topologyKey":"zone","labelSelector":)" +
            selector + "}}]}},",
    };
    add(AppPod("pending-" + std::to_string(i), app, std::to_string(100 * uniform(1, 30)) + "m", "",
               specs[uniform(0, 4)]));
  }
  return R"({"kind":"List","apiVersion":"v1","items":[)" + items + "]}";
}

TEST(ParallelismTest, SameResultsAndDigestAtEveryParallelism) {
  constexpr uint32_t kFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;
  for (uint64_t seed = 1; seed <= SeedsToRun(3); ++seed) {
    const std::string cluster = RandomCluster(seed, 300, 80);
    const std::string probe = AppPod("probe", "a", "500m", "", "");
    std::string want_run, want_probe;
    uint64_t want_digest = 0;
    for (int parallelism : {1, 2, 8}) {
      const std::string config = R"({"seed":)" + std::to_string(seed) + R"(,"parallelism":)" +
                                 std::to_string(parallelism) + "}";
      sched_engine* raw = nullptr;
      ASSERT_EQ(sched_engine_new(config.data(), config.size(), &raw, nullptr), SCHED_OK);
      EnginePtr engine(raw);
      const CallResult applied = CallApply(engine.get(), cluster);
      ASSERT_EQ(applied.status, SCHED_OK) << applied.message;
      const CallResult run = CallRun(engine.get(), 0, kFlags);
      ASSERT_EQ(run.status, SCHED_OK) << run.message;
      const CallResult probed = CallSchedule(engine.get(), probe, kFlags);
      ASSERT_EQ(probed.status, SCHED_OK) << probed.message;
      const uint64_t digest = engine->rep->StateDigest();
      if (parallelism == 1) {
        want_run = run.output;
        want_probe = probed.output;
        want_digest = digest;
        EXPECT_NE(want_run.find("\"node\":\"node-"), std::string::npos) << "nothing placed";
        continue;
      }
      EXPECT_EQ(run.output, want_run) << "seed " << seed << ", parallelism " << parallelism;
      EXPECT_EQ(probed.output, want_probe) << "seed " << seed << ", parallelism " << parallelism;
      EXPECT_EQ(digest, want_digest) << "seed " << seed << ", parallelism " << parallelism;
    }
  }
}

}  // namespace
}  // namespace parallelism_test
}  // namespace sched::capi
