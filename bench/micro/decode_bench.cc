// The boundary: DecodePod/<workload> parses and decodes one measured pod of
// a scheduler_perf workload (capi/decode_pod.cc); ApplyNode/<nodes> applies
// one MODIFIED node event to an engine holding that many nodes through the
// C API (parse, decode, NodeInfo update), alternating a label so every call
// changes the node.
#include <benchmark/benchmark.h>
#include <sched/sched.h>

#include <string>

#include "bench/micro/fixture.h"

namespace bench {
namespace {

void BM_DecodePod(benchmark::State& st, std::string workload) {
  Fixture& f = GetFixture(workload, 500);
  const std::string& json = f.plan.measured.pods.front();
  for (auto _ : st) {
    benchmark::DoNotOptimize(DecodePodOrDie(json, f.state));
  }
  st.SetBytesProcessed(st.iterations() * static_cast<int64_t>(json.size()));
}

void BM_ApplyNode(benchmark::State& st, int nodes) {
  Fixture& f = GetFixture("SchedulingBasic", nodes);
  sched_engine* engine = nullptr;
  if (sched_engine_new("{}", 2, &engine, nullptr) != SCHED_OK) {
    st.SkipWithError("sched_engine_new failed");
    return;
  }
  std::string list = R"({"kind":"List","items":[)";
  for (size_t i = 0; i < f.plan.nodes.size(); ++i) list += (i ? "," : "") + f.plan.nodes[i];
  list += "]}";
  if (sched_engine_apply(engine, list.data(), list.size(), nullptr, nullptr) != SCHED_OK) {
    st.SkipWithError("applying the nodes failed");
    sched_engine_free(engine);
    return;
  }
  // The first node with one more label; the key alternates per call.
  const std::string& node = f.plan.nodes.front();
  const std::string labels = "\"labels\":{";
  size_t at = node.find(labels) + labels.size();
  std::string events[2];
  for (int k = 0; k < 2; ++k) {
    events[k] = R"({"type":"MODIFIED","object":)" + node.substr(0, at) + "\"bench\":\"" +
                std::to_string(k) + "\"," + node.substr(at) + "}";
  }
  int k = 0;
  for (auto _ : st) {
    const std::string& e = events[k ^= 1];
    if (sched_engine_apply(engine, e.data(), e.size(), nullptr, nullptr) != SCHED_OK) {
      st.SkipWithError("apply failed");
      break;
    }
  }
  sched_engine_free(engine);
}

const bool kRegistered = [] {
  for (const char* w : {"SchedulingBasic", "SchedulingPodAntiAffinity", "TopologySpreading"}) {
    benchmark::RegisterBenchmark(("DecodePod/" + std::string(w)).c_str(), BM_DecodePod, w);
  }
  for (int nodes : {500, 5000}) {
    benchmark::RegisterBenchmark(("ApplyNode/" + std::to_string(nodes)).c_str(), BM_ApplyNode,
                                 nodes);
  }
  return true;
}();

}  // namespace
}  // namespace bench
