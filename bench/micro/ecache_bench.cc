// The equivalence-class cache on a SchedulingBasic-shaped workload
// (scheduler_perf's node-default.yaml / pod-default.yaml shapes: nodes of
// 4 cpu, 32Gi, 110 pods; pods asking 100m cpu and 500Mi), through the C
// API: each iteration schedules and assumes one pod of the one template,
// with the cache on (cache:1) and off (cache:0), with the adaptive
// percentageOfNodesToScore (pct:0) and with every node evaluated (pct:100). bench/RESULTS.md has the
// command and the numbers. BM_Unschedulable: pods that fit nowhere (8 cpu
// on 4-cpu nodes), scheduled one after another with nothing changing, as
// replicas of an unschedulable Deployment are: with the failure memo
// (memo:1) every cycle after the first is parked; memo:0 alternates the
// pods' priority (0, 1), which the memo keys on and nothing else reads
// here (the nodes hold no pods to preempt), so every cycle runs in full
// with the cache on.
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

std::string PodJson(int64_t i, const char* cpu = "100m", int priority = 0) {
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":"pod-)" + std::to_string(i) +
         R"(","namespace":"sched-0","uid":"uid-)" + std::to_string(i) +
         R"("},"spec":{"priority":)" + std::to_string(priority) +
         R"(,"containers":[{"name":"pause","image":"registry.k8s.io/pause:3.10",)"
         R"("resources":{"requests":{"cpu":")" + cpu + R"(","memory":"500Mi"}}}]}})";
}

// An engine with `config` and `nodes` nodes, or null (the error reported).
sched_engine* NewEngine(benchmark::State& state, const std::string& config, int nodes) {
  sched_engine* e = nullptr;
  if (sched_engine_new(config.data(), config.size(), &e, nullptr) != SCHED_OK) {
    state.SkipWithError("sched_engine_new failed");
    return nullptr;
  }
  std::string list = "[";
  for (int i = 0; i < nodes; ++i) list += (i ? "," : "") + NodeJson(i);
  list += "]";
  if (sched_engine_apply(e, list.data(), list.size(), nullptr, nullptr) != SCHED_OK) {
    state.SkipWithError("sched_engine_apply failed");
  }
  return e;
}

// Schedules `make_pod(i)` once per iteration with `flags`, then labels the
// run with the cache statistics and frees `e`.
template <class MakePod>
void ScheduleLoop(benchmark::State& state, sched_engine* e, uint32_t flags, MakePod make_pod) {
  int64_t i = 0;
  for (auto _ : state) {
    const std::string pod = make_pod(i++);
    char* result = nullptr;
    if (sched_engine_schedule(e, pod.data(), pod.size(), flags, &result, nullptr) != SCHED_OK) {
      state.SkipWithError("sched_engine_schedule failed");
      break;
    }
    sched_free(result);
  }
  state.SetItemsProcessed(i);  // pods/s as items_per_second
  char* stats = nullptr;
  if (sched_engine_stats(e, &stats, nullptr) == SCHED_OK) state.SetLabel(stats);
  sched_free(stats);
  sched_engine_free(e);
}

void BM_SchedulingBasic(benchmark::State& state) {
  const bool cache = state.range(0) != 0;
  const std::string config = std::string(R"({"seed":1,"equivalenceCache":)") +
                             (cache ? "true" : "false") + R"(,"percentageOfNodesToScore":)" +
                             std::to_string(state.range(2)) + "}";
  sched_engine* e = NewEngine(state, config, static_cast<int>(state.range(1)));
  if (e == nullptr) return;
  ScheduleLoop(state, e, SCHED_SCHEDULE_ASSUME, [](int64_t i) { return PodJson(i); });
}

void BM_Unschedulable(benchmark::State& state) {
  const bool memo = state.range(0) != 0;
  sched_engine* e =
      NewEngine(state, R"({"seed":1,"equivalenceCache":true})", static_cast<int>(state.range(1)));
  if (e == nullptr) return;
  ScheduleLoop(state, e, 0, [memo](int64_t i) {
    return PodJson(i, "8", memo ? 0 : static_cast<int>(i % 2));
  });
}

BENCHMARK(BM_SchedulingBasic)
    ->ArgNames({"cache", "nodes", "pct"})
    ->Args({0, 5000, 0})  // adaptive percentageOfNodesToScore: 500 nodes a cycle
    ->Args({1, 5000, 0})
    ->Args({0, 5000, 100})  // every node a cycle
    ->Args({1, 5000, 100})
    ->Unit(benchmark::kMicrosecond);

BENCHMARK(BM_Unschedulable)
    ->ArgNames({"memo", "nodes"})
    ->Args({0, 5000})
    ->Args({1, 5000})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
