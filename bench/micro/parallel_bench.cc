// One scheduling cycle (Scheduler::Schedule, not assumed, so every
// iteration sees the same cluster) at parallelism 1 and 2, on clusters
// shaped like scheduler_perf's (node-default: 4 cpu, 32Gi, 110 pods;
// pod-default: 100m, 500Mi; the affinity templates' labels and terms),
// built with the test builders: Cycle/<shape>/<nodes>/parallelism:<p>.
// The "DensePods" shapes hold 20 pods per node, where a required-affinity
// pod's PreFilter and a preferred-affinity pod's PreScore are dominated by
// matching the pod's terms against the existing pods. CachedCycle/Basic is
// the Basic cycle with the equivalence cache on and only the score totals
// asked for, as the C API's default config runs it (after the first
// iteration every verdict and score row is reused).
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "libsched/framework/parallelize.h"
#include "libsched/plugins/registry.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"

namespace bench {
namespace {

using sched::testing::NodeBuilder;
using sched::testing::PodBuilder;
using sched::testing::PodTerm;
using sched::testing::Req;

constexpr int64_t kMi = int64_t{1} << 20;
constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHostname = "kubernetes.io/hostname";

enum class Shape {
  kBasic,
  kPodAntiAffinity,
  kPodAffinity,
  kDensePodsAffinity,
  kDensePodsPreferred
};

struct Cluster {
  sched::ClusterState state;
  std::shared_ptr<const sched::Pod> pod;  // the measured pod, pending
};

// The pod of `shape` in namespace `ns`.
PodBuilder ShapePod(sched::Interner& in, Shape shape, const std::string& name,
                    const std::string& ns) {
  PodBuilder b(in, name, ns);
  b.Container(100, 500 * kMi);
  const std::vector<std::string> namespaces = {"sched-0", "sched-1"};
  switch (shape) {
    case Shape::kBasic:
      break;
    case Shape::kPodAntiAffinity:
      b.Label("color", "green")
          .RequiredPodAntiAffinity(PodTerm(
              in, kHostname, {Req(in, "color", sched::SelectorOp::kIn, {"green"})}, namespaces));
      break;
    case Shape::kPodAffinity:
    case Shape::kDensePodsAffinity:
      b.Label("color", "blue")
          .RequiredPodAffinity(
              PodTerm(in, kZone, {Req(in, "color", sched::SelectorOp::kIn, {"blue"})}, namespaces));
      break;
    case Shape::kDensePodsPreferred:
      b.Label("color", "blue")
          .PreferredPodAffinity(
              10,
              PodTerm(in, kZone, {Req(in, "color", sched::SelectorOp::kIn, {"blue"})}, namespaces));
      break;
  }
  return b;
}

Cluster& GetCluster(Shape shape, int nodes) {
  static std::map<std::pair<Shape, int>, std::unique_ptr<Cluster>> clusters;
  auto& c = clusters[{shape, nodes}];
  if (c) return *c;
  c = std::make_unique<Cluster>();
  sched::ClusterState& st = c->state;
  sched::Interner& in = st.interner();
  const bool dense = shape == Shape::kDensePodsAffinity || shape == Shape::kDensePodsPreferred;
  {
    sched::ClusterState::Batch batch(st);
    for (int i = 0; i < nodes; ++i) {
      const std::string name = "node-" + std::to_string(i);
      NodeBuilder b(in, name);
      b.Capacity(4000, 32 * 1024 * kMi, dense ? 200 : 110).Label(kHostname, name);
      b.Label(kZone, dense ? "zone" + std::to_string(i % 10) : "zone1");
      st.UpsertNode(b.Build());
    }
    batch.Commit();
  }
  // scheduler_perf's init pods, bound round-robin; the dense shapes bind
  // plain pods of two colours, 20 per node.
  const int init_pods = dense ? nodes * 20 : shape == Shape::kPodAffinity ? nodes : nodes / 5;
  for (int i = 0; i < init_pods; ++i) {
    PodBuilder b = dense ? PodBuilder(in, "init-" + std::to_string(i), "sched-0")
                         : ShapePod(in, shape, "init-" + std::to_string(i), "sched-0");
    if (dense) b.Container(10, 10 * kMi).Label("color", i % 2 == 0 ? "blue" : "red");
    st.UpsertPod(b.NodeName("node-" + std::to_string(i % nodes)).Build());
  }
  c->pod = ShapePod(in, shape, "measured", "sched-1").Build();
  return *c;
}

void BM_Cycle(benchmark::State& st, Shape shape, int nodes, int parallelism, bool cached) {
  Cluster& c = GetCluster(shape, nodes);
  sched::Parallelizer pool(parallelism);
  sched::Scheduler scheduler(sched::NewDefaultProfile(), 1, &pool);
  scheduler.set_equivalence_cache(cached);
  const sched::ScoreDetail detail =
      cached ? sched::ScoreDetail::kTotals : sched::ScoreDetail::kPerPlugin;
  for (auto _ : st) {
    sched::ScheduleResult r = scheduler.Schedule(*c.pod, c.state, nullptr, detail);
    if (r.node.empty()) st.SkipWithError(r.message.c_str());
    benchmark::DoNotOptimize(r);
  }
}

const bool kRegistered = [] {
  const std::pair<const char*, Shape> shapes[] = {
      {"Basic", Shape::kBasic},
      {"PodAntiAffinity", Shape::kPodAntiAffinity},
      {"PodAffinity", Shape::kPodAffinity},
      {"DensePodsAffinity", Shape::kDensePodsAffinity},
      {"DensePodsPreferred", Shape::kDensePodsPreferred},
  };
  for (const auto& [name, shape] : shapes) {
    for (int parallelism : {1, 2}) {
      const std::string label =
          std::string("Cycle/") + name + "/5000/parallelism:" + std::to_string(parallelism);
      benchmark::RegisterBenchmark(label.c_str(), BM_Cycle, shape, 5000, parallelism, false)
          ->Unit(benchmark::kMicrosecond)
          ->UseRealTime();
    }
  }
  for (int parallelism : {1, 2}) {
    const std::string label = "CachedCycle/Basic/5000/parallelism:" + std::to_string(parallelism);
    benchmark::RegisterBenchmark(label.c_str(), BM_Cycle, Shape::kBasic, 5000, parallelism, true)
        ->Unit(benchmark::kMicrosecond)
        ->UseRealTime();
  }
  return true;
}();

}  // namespace
}  // namespace bench
