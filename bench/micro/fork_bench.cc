// Engine fork (Session::Fork) at scheduler_perf's scale: a cluster of N
// nodes (4 cpu, 32Gi, 110 pods, a zone and hostname label each) holding
// 10 bound pods per node (100m, 500Mi, one of 100 app labels), built with
// the test builders. Measured side by side:
//   Fork/<nodes>          one fork, freed (the cost of a copy up front)
//   WhatIfFork/<nodes>    fork, schedule one pending pod with assume in the
//                         child, free it: one what-if question
//   WhatIfRevert/<nodes>  the copy-free baseline: begin, schedule with
//                         assume, revert on the engine itself
// and, on the same cluster with a pending queue of P pods (P/10 of them
// failed once and unschedulable, the rest in activeQ):
//   ForkQueued/<nodes>/<P>      one fork, freed
//   WhatIfForkQueued/<nodes>/<P> fork, schedule with assume, free
//   RunForkQueued/<nodes>/<P>   fork, one cycle of Run (pops activeQ's
//                               head: the child's first queue write), free
// items/s is forks or questions per second.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsched/engine/engine.h"
#include "libsched/plugins/registry.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/default_engine.h"

namespace bench {
namespace {

using sched::testing::NodeBuilder;
using sched::testing::PodBuilder;

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int kPodsPerNode = 10;

// The engine with `nodes` nodes, built once per size and kept.
sched::Engine& Cluster(int nodes) {
  static std::map<int, std::unique_ptr<sched::Engine>> built;
  std::unique_ptr<sched::Engine>& e = built[nodes];
  if (e != nullptr) return *e;
  e = sched::testing::NewDefaultEngine(0);
  sched::Engine::Session s = e->Lock();
  sched::Interner& in = s.interner();
  std::vector<sched::Change> changes;
  for (int n = 0; n < nodes; ++n) {
    const std::string name = "node-" + std::to_string(n);
    sched::Change c{};
    c.op = sched::Change::Op::kUpsertNode;
    c.node = NodeBuilder(in, name)
                 .Label("topology.kubernetes.io/zone", "zone-" + std::to_string(n % 10))
                 .Label("kubernetes.io/hostname", name)
                 .Capacity(4000, 32 * 1024 * kMi, 110)
                 .Build();
    changes.push_back(std::move(c));
    for (int p = 0; p < kPodsPerNode; ++p) {
      const int i = n * kPodsPerNode + p;
      sched::Change pc{};
      pc.op = sched::Change::Op::kUpsertPod;
      pc.pod = PodBuilder(in, "pod-" + std::to_string(i), "ns-" + std::to_string(i % 20))
                   .Label("app", "app-" + std::to_string(i % 100))
                   .Container(100, 500 * kMi)
                   .NodeName(name)
                   .Build();
      changes.push_back(std::move(pc));
    }
  }
  s.Apply(changes);
  return *e;
}

// Cluster(nodes) plus `queued` pending pods: a tenth too big for any node
// (popped once and unschedulable), the rest fitting, in activeQ. Built
// once per size and kept.
sched::Engine& QueuedCluster(int nodes, int queued) {
  static std::map<std::pair<int, int>, std::unique_ptr<sched::Engine>> built;
  std::unique_ptr<sched::Engine>& e = built[{nodes, queued}];
  if (e != nullptr) return *e;
  e = Cluster(nodes).Lock().Fork();
  sched::Engine::Session s = e->Lock();
  sched::Interner& in = s.interner();
  const int big = queued / 10;
  std::vector<sched::Change> changes;
  for (int i = 0; i < queued; ++i) {
    sched::Change c{};
    c.op = sched::Change::Op::kQueuePod;
    // The big ones first (higher priority): one Run pops exactly them.
    auto pod = std::make_shared<sched::Pod>(
        *PodBuilder(in, "queued-" + std::to_string(i), "ns-" + std::to_string(i % 20))
             .Label("app", "app-" + std::to_string(i % 100))
             .Priority(i < big ? 10 : 0)
             .Container(i < big ? 8000 : 100, 500 * kMi)
             .Build());
    pod->scheduler_name = sched::kDefaultSchedulerName;
    c.pod = std::move(pod);
    changes.push_back(std::move(c));
  }
  s.Apply(changes);
  s.Run(static_cast<uint32_t>(big), {});
  return *e;
}

std::shared_ptr<sched::Pod> Pending(sched::Engine::Session& s, int i) {
  auto pod =
      std::make_shared<sched::Pod>(*PodBuilder(s.interner(), "what-if-" + std::to_string(i), "ns-0")
                                        .Label("app", "app-0")
                                        .Container(100, 500 * kMi)
                                        .Build());
  pod->scheduler_name = sched::kDefaultSchedulerName;
  return pod;
}

// The engine a case forks: Cluster(nodes), or QueuedCluster(nodes, queued).
sched::Engine& Plain(const benchmark::State& state) {
  return Cluster(static_cast<int>(state.range(0)));
}
sched::Engine& Queued(const benchmark::State& state) {
  return QueuedCluster(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
}
using SubjectFn = sched::Engine& (*)(const benchmark::State&);

template <SubjectFn Subject>
void Fork(benchmark::State& state) {
  sched::Engine& e = Subject(state);
  for (auto _ : state) {
    std::unique_ptr<sched::Engine> child = e.Lock().Fork();
    benchmark::DoNotOptimize(child.get());
  }
  state.SetItemsProcessed(state.iterations());
}

template <SubjectFn Subject>
void WhatIfFork(benchmark::State& state) {
  sched::Engine& e = Subject(state);
  sched::ScheduleOptions options;
  options.assume = true;
  int i = 0;
  for (auto _ : state) {
    std::unique_ptr<sched::Engine> child = e.Lock().Fork();
    sched::Engine::Session s = child->Lock();
    benchmark::DoNotOptimize(s.Schedule(Pending(s, i++), options));
  }
  state.SetItemsProcessed(state.iterations());
}

void WhatIfRevert(benchmark::State& state) {
  sched::Engine& e = Cluster(static_cast<int>(state.range(0)));
  sched::ScheduleOptions options;
  options.assume = true;
  int i = 0;
  for (auto _ : state) {
    e.Lock().Begin();
    {
      sched::Engine::Session s = e.Lock();
      benchmark::DoNotOptimize(s.Schedule(Pending(s, i++), options));
    }
    e.Lock().Revert();
  }
  state.SetItemsProcessed(state.iterations());
}

void RunForkQueued(benchmark::State& state) {
  sched::Engine& e = Queued(state);
  for (auto _ : state) {
    std::unique_ptr<sched::Engine> child = e.Lock().Fork();
    benchmark::DoNotOptimize(child->Lock().Run(1, {}));
  }
  state.SetItemsProcessed(state.iterations());
}

BENCHMARK(Fork<Plain>)->Name("Fork")->Arg(500)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(WhatIfFork<Plain>)
    ->Name("WhatIfFork")
    ->Arg(500)
    ->Arg(5000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(WhatIfRevert)->Arg(500)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(Fork<Queued>)
    ->Name("ForkQueued")
    ->Args({5000, 1000})
    ->Args({5000, 10000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(WhatIfFork<Queued>)
    ->Name("WhatIfForkQueued")
    ->Args({5000, 1000})
    ->Args({5000, 10000})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(RunForkQueued)->Args({5000, 1000})->Args({5000, 10000})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace bench
