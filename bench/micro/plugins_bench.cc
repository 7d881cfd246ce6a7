// Per-plugin Filter and Score of the default profile over every node of a
// scheduler_perf cluster: Filter/<plugin>/<workload>/<nodes> and
// Score/<plugin>/<workload>/<nodes>. PreFilter (and PreScore) run once in
// setup, as a cycle runs them once per pod; the timed loop is the per-node
// work (items = nodes). A plugin whose PreFilter/PreScore says Skip for the
// pod is not benchmarked, as the framework would not call it.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench/micro/fixture.h"
#include "libsched/framework/cycle_state.h"
#include "libsched/plugins/registry.h"
#include "libsched/testing/run_score.h"

namespace bench {
namespace {

const char* const kWorkloads[] = {
    "SchedulingBasic",       "SchedulingNodeAffinity",         "SchedulingPodAntiAffinity",
    "SchedulingPodAffinity", "SchedulingPreferredPodAffinity", "TopologySpreading"};
const int kSizes[] = {500, 5000};

// The profile's PreFilter plugins run over the fixture; false when one
// rejected the pod or skipped `plugin`.
bool PreFilter(const sched::Profile& profile, const Fixture& f, const sched::Plugin* plugin,
               sched::CycleState* cs) {
  for (const sched::PreFilterPlugin* p : profile.pre_filter()) {
    sched::PreFilterResult r;
    sched::Status s = p->PreFilter(*cs, *f.pod, f.state, &r);
    if (s.IsSkip()) {
      if (static_cast<const sched::Plugin*>(p) == plugin) return false;
      cs->set_skip_filter(p->slot());
    } else if (!s.IsSuccess()) {
      return false;
    }
  }
  return true;
}

void BM_Filter(benchmark::State& st, std::string workload, int nodes, size_t index) {
  Fixture& f = GetFixture(workload, nodes);
  sched::Profile profile = sched::NewDefaultProfile();
  const sched::FilterPlugin* plugin = profile.filter()[index];
  sched::CycleState cs(profile.num_slots());
  if (!PreFilter(profile, f, plugin, &cs)) {
    st.SkipWithError("not run: PreFilter skipped or rejected");
    return;
  }
  const std::vector<const sched::NodeInfo*>& list = f.state.NodeList();
  for (auto _ : st) {
    for (const sched::NodeInfo* ni : list) {
      sched::Status s = plugin->Filter(cs, *f.pod, *ni);
      benchmark::DoNotOptimize(s);
    }
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(list.size()));
}

void BM_Score(benchmark::State& st, std::string workload, int nodes, size_t index) {
  Fixture& f = GetFixture(workload, nodes);
  sched::Profile profile = sched::NewDefaultProfile();
  const sched::ScorePlugin* plugin = profile.score()[index].plugin;
  sched::CycleState cs(profile.num_slots());
  if (!PreFilter(profile, f, nullptr, &cs)) {
    st.SkipWithError("not run: PreFilter rejected");
    return;
  }
  const std::vector<const sched::NodeInfo*>& list = f.state.NodeList();
  for (const sched::PreScorePlugin* p : profile.pre_score()) {
    sched::Status s = p->PreScore(cs, *f.pod, list, f.state);
    if (s.IsSkip() && static_cast<const sched::Plugin*>(p) == plugin) {
      st.SkipWithError("not run: PreScore skipped");
      return;
    }
  }
  std::vector<int64_t> scores;
  for (auto _ : st) {
    sched::Status s = sched::testing::ScoreAndNormalize(*plugin, cs, *f.pod, list, &scores);
    benchmark::DoNotOptimize(s);
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(list.size()));
}

const bool kRegistered = [] {
  sched::Profile profile = sched::NewDefaultProfile();
  for (int nodes : kSizes) {
    for (const char* w : kWorkloads) {
      std::string suffix = std::string("/") + w + "/" + std::to_string(nodes);
      for (size_t i = 0; i < profile.filter().size(); ++i) {
        std::string name = "Filter/" + std::string(profile.filter()[i]->Name()) + suffix;
        benchmark::RegisterBenchmark(name.c_str(), BM_Filter, w, nodes, i)
            ->Unit(benchmark::kMicrosecond);
      }
      for (size_t i = 0; i < profile.score().size(); ++i) {
        std::string name = "Score/" + std::string(profile.score()[i].plugin->Name()) + suffix;
        benchmark::RegisterBenchmark(name.c_str(), BM_Score, w, nodes, i)
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
  return true;
}();

}  // namespace
}  // namespace bench
