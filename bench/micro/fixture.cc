#include "bench/micro/fixture.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <utility>

#include "capi/decode.h"
#include "capi/json_reader.h"

namespace bench {
namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "bench fixture: %s\n", what.c_str());
  std::abort();
}

sched::capi::JsonDoc Parse(const std::string& json) {
  sched::capi::JsonDoc doc;
  if (sched::capi::ApiStatus s = sched::capi::ParseJson(json, &doc); !s.ok()) Die(s.message());
  return doc;
}

}  // namespace

std::shared_ptr<sched::Pod> DecodePodOrDie(const std::string& json, sched::ClusterState& state) {
  sched::capi::JsonDoc doc = Parse(json);
  sched::capi::DecodedPod out;
  sched::capi::ApiStatus s =
      sched::capi::DecodePod(doc.get(), sched::capi::JsonPath(), state.interner(), &out);
  if (!s.ok()) Die(s.message());
  return out.pod;
}

Fixture& GetFixture(const std::string& workload, int nodes) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<Fixture>> cache;
  std::unique_ptr<Fixture>& f = cache[{workload, nodes}];
  if (f) return *f;
  f = std::make_unique<Fixture>();
  try {
    f->plan = LoadPlan(BENCH_CORPUS_DIR, workload, nodes);
  } catch (const PlanError& e) {
    Die(e.what());
  }
  std::vector<std::string> names;
  for (const std::string& json : f->plan.nodes) {
    sched::capi::JsonDoc doc = Parse(json);
    std::shared_ptr<const sched::Node> node;
    sched::capi::ApiStatus s =
        sched::capi::DecodeNode(doc.get(), sched::capi::JsonPath(), f->state.interner(), &node);
    if (!s.ok()) Die(s.message());
    names.push_back(node->name);
    f->state.UpsertNode(std::move(node));
  }
  size_t i = 0;
  for (const PodBatch& batch : f->plan.init) {
    for (const std::string& json : batch.pods) {
      std::shared_ptr<sched::Pod> pod = DecodePodOrDie(json, f->state);
      pod->node_name = names[i++ % names.size()];
      f->state.UpsertPod(std::move(pod));
    }
  }
  f->pod = DecodePodOrDie(f->plan.measured.pods.front(), f->state);
  return *f;
}

}  // namespace bench
