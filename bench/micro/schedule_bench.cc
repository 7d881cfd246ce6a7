// One whole scheduling cycle (Scheduler::Schedule: PreFilter, Filter over
// the adaptive share of nodes, PostFilter when nothing fits, PreScore,
// Score, selectHost) for the first measured pod of a scheduler_perf
// workload: Schedule/<workload>/<nodes>. The pod is not assumed, so every
// iteration sees the same cluster.
#include <benchmark/benchmark.h>

#include <string>

#include "bench/micro/fixture.h"
#include "libsched/plugins/registry.h"
#include "libsched/scheduler/scheduler.h"

namespace bench {
namespace {

void BM_Schedule(benchmark::State& st, std::string workload, int nodes) {
  Fixture& f = GetFixture(workload, nodes);
  sched::Scheduler scheduler(sched::NewDefaultProfile(), 1);
  for (auto _ : st) {
    sched::ScheduleResult r = scheduler.Schedule(*f.pod, f.state);
    benchmark::DoNotOptimize(r);
  }
}

const bool kRegistered = [] {
  for (int nodes : {500, 5000}) {
    for (const char* w : {"SchedulingBasic", "SchedulingNodeAffinity", "SchedulingPodAntiAffinity",
                          "SchedulingPodAffinity", "SchedulingPreferredPodAffinity",
                          "TopologySpreading", "Preemption"}) {
      benchmark::RegisterBenchmark(
          ("Schedule/" + std::string(w) + "/" + std::to_string(nodes)).c_str(), BM_Schedule, w,
          nodes)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  return true;
}();

}  // namespace
}  // namespace bench
