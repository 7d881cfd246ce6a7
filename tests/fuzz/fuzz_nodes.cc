// libFuzzer target: sched_engine_nodes with arbitrary bytes as its query.
//
// A fresh engine preloaded with fuzz_common.h's cluster (its bound pods and
// one assumed pod) for every input. Checks: the status/error contract;
// *nodes_json untouched on failure; on success one object {"nodes":[...]}
// whose nodes are a subset of every node's, in name order, each with a
// name, labels, allocatable/requested objects and a podCount; and the
// engine unchanged by the call, its interner included (the unfiltered
// list and sched_engine_stats read the same before and after).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sched/sched.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

// sched_engine_nodes with the contract checks; "" when the call failed.
std::string Nodes(sched_engine* e, std::string_view query) {
  char* out = fuzz::Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_nodes(e, query.data(), query.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_nodes", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == fuzz::Untouched(), "sched_engine_nodes failed but wrote *nodes_json");
    return "";
  }
  std::string text(out);
  sched_free(out);
  return text;
}

std::string Stats(sched_engine* e) {
  char* out = nullptr;
  FUZZ_CHECK(sched_engine_stats(e, &out, nullptr) == SCHED_OK, "sched_engine_stats failed");
  std::string text(out);
  sched_free(out);
  return text;
}

// The shape of a nodes document; every name must be in `all` (the
// unfiltered document), names ascending.
void CheckNodes(const std::string& text, const std::string& all) {
  cJSON* doc = fuzz::ParseOutput("sched_engine_nodes", text.c_str());
  const cJSON* nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes");
  FUZZ_CHECK(cJSON_IsArray(nodes), "no \"nodes\" array: %s", text.c_str());
  std::string last;
  const cJSON* n;
  cJSON_ArrayForEach(n, nodes) {
    const cJSON* name = cJSON_GetObjectItemCaseSensitive(n, "name");
    FUZZ_CHECK(cJSON_IsString(name), "node without a name: %s", text.c_str());
    FUZZ_CHECK(last.empty() || last < name->valuestring, "nodes out of order: %s", text.c_str());
    last = name->valuestring;
    FUZZ_CHECK(all.find("\"name\":\"" + last + "\"") != std::string::npos,
               "node %s is not in the unfiltered list", last.c_str());
    FUZZ_CHECK(cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(n, "labels")) &&
                   cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(n, "allocatable")) &&
                   cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(n, "requested")) &&
                   cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(n, "podCount")),
               "node fields missing: %s", text.c_str());
  }
  cJSON_Delete(doc);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view query(reinterpret_cast<const char*>(data), size);
  sched_engine* e = fuzz::NewEngine(R"({"seed":7})");
  FUZZ_CHECK(fuzz::Apply(e, fuzz::kCluster) == SCHED_OK, "preload rejected");
  fuzz::Schedule(e, fuzz::kAssumedPod, SCHED_SCHEDULE_ASSUME);

  const std::string all = Nodes(e, "");
  FUZZ_CHECK(!all.empty(), "the unfiltered query failed");
  CheckNodes(all, all);
  const std::string stats = Stats(e);

  const std::string selected = Nodes(e, query);
  if (!selected.empty()) CheckNodes(selected, all);
  FUZZ_CHECK(Nodes(e, "") == all, "the query changed the nodes");
  FUZZ_CHECK(Stats(e) == stats, "the query changed the engine's statistics");
  sched_engine_free(e);
  return 0;
}
