// InterPodAffinity's counts of a hostname key (DomainCounts, one node per
// domain) read at every node, as Filter and Score read them when the
// equivalence cache is off: DomainCounts/<groups>/<nodes>/<dense>, one
// iteration a cycle's worth (the counts made from `groups` PodLabelIndex
// groups, then Get at each of `nodes` nodes; items = nodes). Kept groups
// (dense 0) cost a hash lookup per group per node; dense counts (1) an
// array of the nodes' domains up front and one read per node.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "libsched/plugins/internal/domain_counts.h"
#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace bench {
namespace {

using sched::interpodaffinity::DomainCounts;
using sched::testing::NodeBuilder;
using sched::testing::PodBuilder;

constexpr int kPodsPerGroup = 4;

// `nodes` nodes with a hostname each; `groups` label sets of
// kPodsPerGroup bound pods each, spread over the nodes.
const sched::ClusterState& Cluster(int nodes, int groups) {
  static std::map<std::pair<int, int>, std::unique_ptr<sched::ClusterState>> kept;
  auto& s = kept[{nodes, groups}];
  if (s != nullptr) return *s;
  s = std::make_unique<sched::ClusterState>();
  sched::Interner& in = s->interner();
  for (int i = 0; i < nodes; ++i) {
    const std::string name = "n" + std::to_string(i);
    s->UpsertNode(NodeBuilder(in, name).Label("kubernetes.io/hostname", name).Build());
  }
  for (int g = 0; g < groups; ++g) {
    for (int p = 0; p < kPodsPerGroup; ++p) {
      const std::string node = "n" + std::to_string((g * kPodsPerGroup + p) * 7919 % nodes);
      s->UpsertPod(PodBuilder(in, "g" + std::to_string(g) + "-" + std::to_string(p))
                       .Label("app", "g" + std::to_string(g))
                       .NodeName(node)
                       .Build());
    }
  }
  return *s;
}

void BM_DomainCounts(benchmark::State& st) {
  const int groups = static_cast<int>(st.range(0));
  const int nodes = static_cast<int>(st.range(1));
  const bool dense = st.range(2) != 0;
  const sched::ClusterState& s = Cluster(nodes, groups);
  const sched::Atom host = s.interner().Find("kubernetes.io/hostname");
  for (auto _ : st) {
    DomainCounts counts(&s.topology_domains());
    const size_t k = counts.For(host);
    for (const auto& [key, group] : s.pod_label_index().groups()) counts.AddGroup(k, *group, 1);
    if (dense) counts.Add(k, 0, 0);  // adds nothing, makes the counts dense
    int64_t sum = 0;
    for (uint32_t i = 0; i < static_cast<uint32_t>(nodes); ++i) sum += counts.at(k).Get(i);
    benchmark::DoNotOptimize(sum);
  }
  st.SetItemsProcessed(st.iterations() * nodes);
}

BENCHMARK(BM_DomainCounts)
    ->Name("DomainCounts")
    ->ArgsProduct({{1, 2, 8, 32, 128}, {500, 5000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace bench
