// Fixture: a ClusterState holding one scheduler_perf workload's cluster,
// built from the same plan as bench/workload (plan.h) and decoded with the
// engine's own decoders, for micro-benchmarks of the core. Init pods are
// bound round-robin (pod i on node i mod N) instead of being scheduled, so
// building a 5,000-node fixture takes seconds, not a benchmark run.
#ifndef BENCH_MICRO_FIXTURE_H_
#define BENCH_MICRO_FIXTURE_H_

#include <memory>
#include <string>

#include "bench/workload/plan.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"

namespace bench {

struct Fixture {
  Plan plan;
  sched::ClusterState state;
  std::shared_ptr<const sched::Pod> pod;  // the first measured pod, pending
};

// The fixture of `workload` at `nodes` nodes, built once per process and
// kept (benchmarks share it). Aborts on a corpus or decode error: a broken
// benchmark setup has no result to report. Not thread-safe.
Fixture& GetFixture(const std::string& workload, int nodes);

// Decodes one pod JSON object with the engine's decoder into `state`'s
// interner. Aborts on error.
std::shared_ptr<sched::Pod> DecodePodOrDie(const std::string& json, sched::ClusterState& state);

}  // namespace bench

#endif  // BENCH_MICRO_FIXTURE_H_
