// The cost of a transaction around one scheduling cycle, through the C API
// at 5,000 nodes of scheduler_perf's node-default.yaml shape (4 cpu, 32Gi,
// 110 pods, three zones), pods of pod-default.yaml's (100m, 500Mi), side
// by side in one process (bench/RESULTS.md, "Transactions"):
//   mode:0  sched_engine_schedule without ASSUME: the cycle alone, the
//           cluster the same every iteration;
//   mode:1  sched_engine_begin, sched_engine_schedule with ASSUME,
//           sched_engine_revert: the same cycle, the pod assumed and then
//           everything put back (the cluster the same every iteration);
//   mode:2  sched_engine_schedule with ASSUME, no transaction: the pods
//           pile up (one more per iteration), as a real run's do.
// With the equivalence cache off (cache:0) and on (cache:1, the default):
// a revert empties the cache, so mode 1's next cycle recomputes every node.
// parallelism 1, so CPU time (the benchmark thread's) is the whole cycle.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>

#include "sched/sched.h"

namespace {

std::string NodeJson(int i) {
  const std::string name = "node-" + std::to_string(i);
  return R"({"type":"ADDED","object":{"kind":"Node","apiVersion":"v1","metadata":{"name":")" +
         name + R"(","labels":{"kubernetes.io/hostname":")" + name +
         R"(","topology.kubernetes.io/zone":"zone-)" + std::to_string(i % 3) +
         R"("}},"status":{"allocatable":{"cpu":"4","memory":"32Gi","pods":"110"}}}})";
}

std::string PodJson(int64_t i) {
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"pod-)" + std::to_string(i) +
         R"(","namespace":"sched-0","uid":"uid-)" + std::to_string(i) +
         R"("},"spec":{"containers":[{"name":"pause","image":"registry.k8s.io/pause:3.10",)"
         R"("resources":{"requests":{"cpu":"100m","memory":"500Mi"}}}]}})";
}

void BM_Transaction(benchmark::State& state) {
  const int64_t mode = state.range(0);
  const int nodes = static_cast<int>(state.range(1));
  const std::string config = state.range(2) != 0
                                 ? R"({"seed":1,"parallelism":1,"equivalenceCache":true})"
                                 : R"({"seed":1,"parallelism":1,"equivalenceCache":false})";
  sched_engine* e = nullptr;
  if (sched_engine_new(config.data(), config.size(), &e, nullptr) != SCHED_OK) {
    state.SkipWithError("sched_engine_new failed");
    return;
  }
  std::string list = "[";
  for (int i = 0; i < nodes; ++i) list += (i ? "," : "") + NodeJson(i);
  list += "]";
  if (sched_engine_apply(e, list.data(), list.size(), nullptr, nullptr) != SCHED_OK) {
    state.SkipWithError("sched_engine_apply failed");
  }
  int64_t i = 0;
  for (auto _ : state) {
    const std::string pod = PodJson(i++);
    char* result = nullptr;
    bool ok = mode != 1 || sched_engine_begin(e, nullptr) == SCHED_OK;
    ok = ok &&
         sched_engine_schedule(e, pod.data(), pod.size(), mode == 0 ? 0 : SCHED_SCHEDULE_ASSUME,
                               &result, nullptr) == SCHED_OK;
    ok = ok && (mode != 1 || sched_engine_revert(e, nullptr) == SCHED_OK);
    sched_free(result);
    if (!ok) {
      state.SkipWithError("a call failed");
      break;
    }
  }
  state.SetItemsProcessed(i);
  sched_engine_free(e);
}

BENCHMARK(BM_Transaction)
    ->ArgNames({"mode", "nodes", "cache"})
    ->ArgsProduct({{0, 1, 2}, {5000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
