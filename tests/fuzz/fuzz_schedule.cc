// libFuzzer target: sched_engine_schedule, sched_engine_explain and the
// what-if calls on arbitrary bytes.
//
// Input: one flags byte (masked to the defined SCHED_SCHEDULE_* bits), then
// the pod JSON. A fresh engine with two profiles is preloaded with a small
// cluster (fuzz_common.h, kCluster) for every input and freed afterwards.
// Checks: the status/error contract; *result_json untouched on failure; a
// result of the documented shape ("assumed" iff ASSUME and a node chosen);
// unknown flag bits rejected; and, when the pod was assumed, that the engine
// still schedules it and the probe pod, and that deleting it through an
// event keeps the contract. sched_engine_explain on the same pod first:
// the same contract, a document of the documented shape (a summary of at
// most 1,024 bytes, one entry per node), success exactly when scheduling
// succeeds, and nothing observable changed (nodes, queue, statistics with
// the interner's size). sched_engine_capacity of at most 3 replicas and
// sched_engine_scale_up of the pod and the probe onto at most 3 template
// nodes: the contract, counts that agree, nodes and queue unchanged. The preemption
// what-if (sched_engine_preempt) of the pod: the contract, success exactly
// when explaining succeeds, nodes and queue unchanged. Once the pod is
// assumed, sched_engine_drain of its node's zone and of every node: OK,
// counts that agree, nodes and queue unchanged. sched_engine_score of the
// pod on two nodes: the contract, one total per node unless "error",
// success exactly when explaining succeeds, nodes and queue unchanged.
#include <cJSON.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sched/sched.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

constexpr std::string_view kConfig =
    R"({"seed":7,"profiles":[{"schedulerName":"default-scheduler"},)"
    R"({"schedulerName":"fuzz-scheduler","percentageOfNodesToScore":50}]})";

// What a call that changes nothing must leave as it was.
std::string Observable(sched_engine* e) {
  std::string out;
  for (auto read :
       {+[](sched_engine*e, char**o) { return sched_engine_nodes(e, nullptr, 0, o, nullptr); },
        +[](sched_engine*e, char**o) { return sched_engine_queue(e, o, nullptr); },
        +[](sched_engine*e, char**o) { return sched_engine_stats(e, o, nullptr); }}) {
    char* json = nullptr;
    FUZZ_CHECK(read(e, &json) == SCHED_OK, "a read-only call failed");
    out += json;
    sched_free(json);
  }
  return out;
}

// sched_engine_explain with every check; returns its status.
sched_status Explain(sched_engine* e, std::string_view pod) {
  const std::string before = Observable(e);
  char* out = fuzz::Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_explain(e, pod.data(), pod.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_explain", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == fuzz::Untouched(), "sched_engine_explain failed but wrote *explain_json");
  } else {
    cJSON* doc = fuzz::ParseOutput("sched_engine_explain", out);
    const cJSON* summary = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    const cJSON* all = cJSON_GetObjectItemCaseSensitive(doc, "numAllNodes");
    const cJSON* nodes = cJSON_GetObjectItemCaseSensitive(doc, "nodes");
    const cJSON* error = cJSON_GetObjectItemCaseSensitive(doc, "error");
    FUZZ_CHECK(cJSON_IsString(summary) && std::string_view(summary->valuestring).size() <= 1024,
               "bad \"summary\": %s", out);
    FUZZ_CHECK(cJSON_IsBool(error) && cJSON_IsNumber(all) && cJSON_IsArray(nodes),
               "explanation lacks error/numAllNodes/nodes: %s", out);
    FUZZ_CHECK(cJSON_IsTrue(error) || cJSON_GetArraySize(nodes) == all->valuedouble,
               "not one entry per node: %s", out);
    cJSON_Delete(doc);
    sched_free(out);
  }
  FUZZ_CHECK(Observable(e) == before, "sched_engine_explain changed the engine");
  return st;
}

// The nodes and queue documents: what the what-if calls must leave as they
// were (the statistics may move: their cycles are counted).
std::string NodesAndQueue(sched_engine* e) {
  char* nodes = nullptr;
  char* queue = nullptr;
  FUZZ_CHECK(sched_engine_nodes(e, nullptr, 0, &nodes, nullptr) == SCHED_OK &&
                 sched_engine_queue(e, &queue, nullptr) == SCHED_OK,
             "a read-only call failed");
  std::string out = std::string(nodes) + queue;
  sched_free(nodes);
  sched_free(queue);
  return out;
}

// sched_engine_capacity of the pod, at most 3 replicas, with every check:
// the error contract, a result whose counts agree, and nodes and queue
// unchanged.
void Capacity(sched_engine* e, std::string_view pod) {
  const std::string request = R"({"maxReplicas":3,"pod":)" + std::string(pod) + "}";
  const std::string before = NodesAndQueue(e);
  char* out = fuzz::Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_capacity(e, request.data(), request.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_capacity", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == fuzz::Untouched(), "sched_engine_capacity failed but wrote its output");
  } else {
    cJSON* doc = fuzz::ParseOutput("sched_engine_capacity", out);
    const cJSON* replicas = cJSON_GetObjectItemCaseSensitive(doc, "replicas");
    const cJSON* placements = cJSON_GetObjectItemCaseSensitive(doc, "placements");
    FUZZ_CHECK(cJSON_IsNumber(replicas) && cJSON_IsArray(placements) &&
                   replicas->valuedouble == cJSON_GetArraySize(placements) &&
                   replicas->valuedouble <= 3,
               "replicas and placements disagree: %s", out);
    cJSON_Delete(doc);
    sched_free(out);
  }
  FUZZ_CHECK(NodesAndQueue(e) == before, "sched_engine_capacity changed the engine");
}

// sched_engine_scale_up of the pod and the probe pod onto at most 3 nodes
// of a template: the error contract, new nodes' pod counts that add up to
// the placements, and nodes and queue unchanged.
void ScaleUp(sched_engine* e, std::string_view pod) {
  const std::string request =
      R"({"pods":[)" + std::string(pod) + "," + std::string(fuzz::kProbePod) +
      R"(],"nodeTemplates":[{"maxNodes":3,"node":{"kind":"Node","metadata":)"
      R"({"name":"fuzz-template","labels":{"topology.kubernetes.io/zone":"z1"}},)"
      R"("status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110"}}}}]})";
  const std::string before = NodesAndQueue(e);
  char* out = fuzz::Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_scale_up(e, request.data(), request.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_scale_up", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == fuzz::Untouched(), "sched_engine_scale_up failed but wrote its output");
  } else {
    cJSON* doc = fuzz::ParseOutput("sched_engine_scale_up", out);
    const cJSON* t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(doc, "templates"), 0);
    const cJSON* nodes = cJSON_GetObjectItemCaseSensitive(t, "nodes");
    double placed = 0;
    const cJSON* n;
    cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(t, "newNodes")) {
      placed += cJSON_GetObjectItemCaseSensitive(n, "pods")->valuedouble;
    }
    FUZZ_CHECK(cJSON_IsNumber(nodes) && nodes->valuedouble <= 3 &&
                   placed == cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "placements")),
               "new nodes and placements disagree: %s", out);
    cJSON_Delete(doc);
    sched_free(out);
  }
  FUZZ_CHECK(NodesAndQueue(e) == before, "sched_engine_scale_up changed the engine");
}

// sched_engine_preempt of the pod with every check; returns its status.
sched_status Preempt(sched_engine* e, std::string_view pod) {
  const std::string request = R"({"pod":)" + std::string(pod) + "}";
  const std::string before = NodesAndQueue(e);
  char* out = fuzz::Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_preempt(e, request.data(), request.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_preempt", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == fuzz::Untouched(), "sched_engine_preempt failed but wrote its output");
  } else {
    cJSON* doc = fuzz::ParseOutput("sched_engine_preempt", out);
    FUZZ_CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(doc, "assumed")),
               "the what-if assumed the pod: %s", out);
    cJSON_Delete(doc);
    sched_free(out);
  }
  FUZZ_CHECK(NodesAndQueue(e) == before, "sched_engine_preempt changed the engine");
  return st;
}

// sched_engine_score of the pod on two of kCluster's nodes with every
// check: the error contract, one total per node asked about unless
// "error", and nodes and queue unchanged; returns its status.
sched_status Score(sched_engine* e, std::string_view pod) {
  const std::string request = R"({"pod":)" + std::string(pod) + R"(,"nodes":["n3","n1"]})";
  const std::string before = NodesAndQueue(e);
  char* out = fuzz::Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_score(e, request.data(), request.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_score", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == fuzz::Untouched(), "sched_engine_score failed but wrote its output");
  } else {
    cJSON* doc = fuzz::ParseOutput("sched_engine_score", out);
    const cJSON* error = cJSON_GetObjectItemCaseSensitive(doc, "error");
    const cJSON* totals = cJSON_GetObjectItemCaseSensitive(doc, "totalScores");
    FUZZ_CHECK(cJSON_IsBool(error) && cJSON_IsArray(totals), "scores lack error/totalScores: %s",
               out);
    FUZZ_CHECK(cJSON_GetArraySize(totals) == (cJSON_IsTrue(error) ? 0 : 2),
               "not one total per node asked about: %s", out);
    cJSON_Delete(doc);
    sched_free(out);
  }
  FUZZ_CHECK(NodesAndQueue(e) == before, "sched_engine_score changed the engine");
  return st;
}

// sched_engine_drain of `request` (nodes of kCluster) with every check;
// it must succeed.
void Drain(sched_engine* e, std::string_view request) {
  const std::string before = NodesAndQueue(e);
  char* out = nullptr;
  sched_error* err = nullptr;
  const sched_status st = sched_engine_drain(e, request.data(), request.size(), &out, &err);
  fuzz::CheckStatus("sched_engine_drain", st, err);
  FUZZ_CHECK(st == SCHED_OK, "sched_engine_drain of %.*s failed", static_cast<int>(request.size()),
             request.data());
  cJSON* doc = fuzz::ParseOutput("sched_engine_drain", out);
  int moved = 0;
  const cJSON* n;
  cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(doc, "nodes")) {
    moved += static_cast<int>(cJSON_GetObjectItemCaseSensitive(n, "moved")->valuedouble);
  }
  FUZZ_CHECK(moved == cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(doc, "pods")),
             "moved pods and their entries disagree: %s", out);
  cJSON_Delete(doc);
  sched_free(out);
  FUZZ_CHECK(NodesAndQueue(e) == before, "sched_engine_drain changed the engine");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t flags = data[0] & fuzz::kAllFlags;
  const std::string_view pod(reinterpret_cast<const char*>(data) + 1, size - 1);

  sched_engine* e = fuzz::NewEngine(kConfig);
  FUZZ_CHECK(fuzz::Apply(e, fuzz::kCluster) == SCHED_OK, "preload rejected");

  const sched_status explained = Explain(e, pod);
  Capacity(e, pod);
  const sched_status preempted = Preempt(e, pod);
  FUZZ_CHECK((preempted == SCHED_OK) == (explained == SCHED_OK), "explain %s but preempt %s",
             sched_status_name(explained), sched_status_name(preempted));
  ScaleUp(e, pod);
  const sched_status scored = Score(e, pod);
  FUZZ_CHECK((scored == SCHED_OK) == (explained == SCHED_OK), "explain %s but score %s",
             sched_status_name(explained), sched_status_name(scored));

  // An undefined flag bit is rejected whatever the pod.
  sched_status bad_flags;
  fuzz::Schedule(e, pod, flags | 0x80000000u, &bad_flags);
  FUZZ_CHECK(bad_flags == SCHED_INVALID_ARGUMENT, "unknown flag bit accepted: %s",
             sched_status_name(bad_flags));

  sched_status st;
  bool assumed = false;
  fuzz::Schedule(e, pod, flags, &st, &assumed);
  FUZZ_CHECK((st == SCHED_OK) == (explained == SCHED_OK), "explain %s but schedule %s",
             sched_status_name(explained), sched_status_name(st));
  if (st == SCHED_OK && assumed) {
    // The pod now sits on a node: schedule it again, the probe too, then
    // delete it with a watch event wrapping the same object.
    fuzz::Schedule(e, pod, fuzz::kAllFlags);
    fuzz::Schedule(e, fuzz::kProbePod, fuzz::kAllFlags);
    // Its node, and every node, drained: the pod moves (or stays pending).
    Drain(e, R"({"nodes":["n1"]})");
    Drain(e, R"({"nodes":["n2","n3","n1"]})");
    std::string event = R"({"type":"DELETED","object":)";
    event.append(pod);
    event.append("}");
    fuzz::Apply(e, event);
    fuzz::Schedule(e, fuzz::kProbePod, SCHED_SCHEDULE_NODE_STATUSES);
  }
  sched_engine_free(e);
  return 0;
}
