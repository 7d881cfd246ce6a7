// Shared checks for the libFuzzer targets in tests/fuzz/: the C ABI's
// contract (include/sched/sched.h, conventions 2 and 5) asserted after every
// call, whatever the input.
//
// A violated check calls FUZZ_CHECK's abort path, which libFuzzer reports as
// a crash with the input that caused it. SCHED_INTERNAL ("a broken internal
// invariant; please report it") is treated as a finding too: no input, however
// malformed, may produce it; so is SCHED_OUT_OF_MEMORY (see CheckStatus).
#ifndef TESTS_FUZZ_FUZZ_COMMON_H_
#define TESTS_FUZZ_FUZZ_COMMON_H_

#include <cJSON.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "sched/sched.h"

#define FUZZ_CHECK(cond, ...)                                                  \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: FUZZ_CHECK(%s) failed: ", __FILE__, __LINE__, \
                   #cond);                                                     \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fprintf(stderr, "\n");                                              \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

namespace fuzz {

// A value no library call may write: output pointers are preset to it and
// must still hold it after a failed call ("outputs are written only on
// SCHED_OK").
inline char* Untouched() {
  static char sentinel;
  return &sentinel;
}

inline sched_engine* UntouchedEngine() {
  return reinterpret_cast<sched_engine*>(Untouched());
}

// The status/error-object contract after one call. `what` names the call.
// Frees `err`.
inline void CheckStatus(const char* what, sched_status st, sched_error* err) {
  FUZZ_CHECK(st == SCHED_OK || st == SCHED_INVALID_ARGUMENT || st == SCHED_OUT_OF_MEMORY ||
                 st == SCHED_INTERNAL,
             "%s returned an unknown status %d", what, static_cast<int>(st));
  if (st == SCHED_OK) {
    FUZZ_CHECK(err == nullptr, "%s returned OK but set *err (\"%s\")", what,
               sched_error_message(err));
    return;
  }
  FUZZ_CHECK(err != nullptr || st == SCHED_OUT_OF_MEMORY,
             "%s failed with %s but left *err NULL", what, sched_status_name(st));
  // libFuzzer's malloc limit aborts instead of failing an allocation, so
  // this status can only come from the syntax scan accepting a text cJSON
  // rejects (capi/json_scan.h): a finding.
  FUZZ_CHECK(st != SCHED_OUT_OF_MEMORY, "%s returned SCHED_OUT_OF_MEMORY (\"%s\")", what,
             sched_error_message(err));
  if (err != nullptr) {
    FUZZ_CHECK(sched_error_code(err) == st, "%s: error code %s != returned status %s", what,
               sched_status_name(sched_error_code(err)), sched_status_name(st));
    const char* msg = sched_error_message(err);
    const char* path = sched_error_path(err);
    FUZZ_CHECK(msg != nullptr && msg[0] != '\0', "%s: empty error message", what);
    FUZZ_CHECK(path != nullptr, "%s: NULL error path", what);
    FUZZ_CHECK(st != SCHED_INTERNAL, "%s returned SCHED_INTERNAL: \"%s\" (path \"%s\")", what,
               msg, path);
  }
  sched_error_free(err);
}

// Parses a JSON document the library returned; aborts when it is not one
// object. The caller owns the result (cJSON_Delete).
inline cJSON* ParseOutput(const char* what, const char* json) {
  FUZZ_CHECK(json != nullptr, "%s returned OK with a NULL output", what);
  const size_t len = std::strlen(json);
  const char* end = nullptr;
  cJSON* doc = cJSON_ParseWithLengthOpts(json, len, &end, false);
  FUZZ_CHECK(doc != nullptr, "%s returned invalid JSON: %s", what, json);
  FUZZ_CHECK(end == json + len, "%s returned trailing data after JSON: %s", what, json);
  FUZZ_CHECK(cJSON_IsObject(doc), "%s returned a non-object: %s", what, json);
  return doc;
}

// Checks the documented shape of a sched_engine_schedule result:
// "pod" string, "node" string or null, "reason", counters, "assumed".
// Returns whether the pod was assumed.
inline bool CheckScheduleResult(const char* result, uint32_t flags) {
  cJSON* doc = ParseOutput("sched_engine_schedule", result);
  const cJSON* pod = cJSON_GetObjectItemCaseSensitive(doc, "pod");
  const cJSON* node = cJSON_GetObjectItemCaseSensitive(doc, "node");
  const cJSON* reason = cJSON_GetObjectItemCaseSensitive(doc, "reason");
  const cJSON* assumed = cJSON_GetObjectItemCaseSensitive(doc, "assumed");
  const cJSON* all = cJSON_GetObjectItemCaseSensitive(doc, "numAllNodes");
  const cJSON* evaluated = cJSON_GetObjectItemCaseSensitive(doc, "evaluatedNodes");
  const cJSON* feasible = cJSON_GetObjectItemCaseSensitive(doc, "feasibleNodes");
  FUZZ_CHECK(cJSON_IsString(pod), "result without a \"pod\" string: %s", result);
  FUZZ_CHECK(cJSON_IsString(node) || cJSON_IsNull(node), "bad \"node\": %s", result);
  FUZZ_CHECK(cJSON_IsString(reason), "result without a \"reason\": %s", result);
  const std::string_view r = reason->valuestring;
  FUZZ_CHECK(r == "Scheduled" || r == "Unschedulable" || r == "SchedulerError",
             "unknown reason: %s", result);
  FUZZ_CHECK((r == "Scheduled") == cJSON_IsString(node), "reason/node mismatch: %s", result);
  FUZZ_CHECK(cJSON_IsBool(assumed), "result without \"assumed\": %s", result);
  const bool want_assumed = (flags & SCHED_SCHEDULE_ASSUME) != 0 && cJSON_IsString(node);
  FUZZ_CHECK(cJSON_IsTrue(assumed) == want_assumed, "\"assumed\" is wrong for flags %u: %s",
             static_cast<unsigned>(flags), result);
  FUZZ_CHECK(cJSON_IsNumber(all) && cJSON_IsNumber(evaluated) && cJSON_IsNumber(feasible),
             "missing node counters: %s", result);
  FUZZ_CHECK(0 <= feasible->valuedouble && feasible->valuedouble <= evaluated->valuedouble &&
                 evaluated->valuedouble <= all->valuedouble,
             "inconsistent node counters: %s", result);
  FUZZ_CHECK(!cJSON_IsString(node) || feasible->valuedouble >= 1,
             "scheduled with no feasible node: %s", result);
  // ..._NODE_STATUSES_IF_NO_NODE is not among the fuzzed flags.
  const bool listed = (flags & SCHED_SCHEDULE_NODE_STATUSES) != 0;
  const bool grouped = (flags & SCHED_SCHEDULE_NODE_STATUS_GROUPS) != 0;
  const cJSON* statuses = cJSON_GetObjectItemCaseSensitive(doc, "nodeStatuses");
  if (!listed || grouped) {
    FUZZ_CHECK(statuses == nullptr, "nodeStatuses without the flag or with groups: %s", result);
  }
  const cJSON* groups = cJSON_GetObjectItemCaseSensitive(doc, "nodeStatusGroups");
  if (!listed || !grouped) {
    FUZZ_CHECK(groups == nullptr, "nodeStatusGroups without both flags: %s", result);
  }
  const cJSON* scores = cJSON_GetObjectItemCaseSensitive(doc, "scores");
  if (!(flags & SCHED_SCHEDULE_SCORES)) {
    FUZZ_CHECK(scores == nullptr, "scores without the flag: %s", result);
  }
  const cJSON* totals = cJSON_GetObjectItemCaseSensitive(doc, "scoreTotals");
  FUZZ_CHECK((totals != nullptr) == ((flags & SCHED_SCHEDULE_SCORE_TOTALS) != 0),
             "scoreTotals present without the flag or absent with it: %s", result);
  if (totals != nullptr && scores != nullptr) {
    // The same totals as the per-plugin rows, every scored node once.
    const cJSON* rows = cJSON_GetObjectItemCaseSensitive(scores, "nodes");
    int grouped_nodes = 0;
    const cJSON* group;
    cJSON_ArrayForEach(group, totals) {
      const cJSON* total = cJSON_GetObjectItemCaseSensitive(group, "totalScore");
      const cJSON* name;
      cJSON_ArrayForEach(name, cJSON_GetObjectItemCaseSensitive(group, "nodes")) {
        ++grouped_nodes;
        bool found = false;
        const cJSON* row;
        cJSON_ArrayForEach(row, rows) {
          const cJSON* row_node = cJSON_GetObjectItemCaseSensitive(row, "node");
          if (cJSON_IsString(row_node) && cJSON_IsString(name) &&
              std::string_view(row_node->valuestring) == name->valuestring) {
            found = cJSON_GetObjectItemCaseSensitive(row, "totalScore")->valuedouble ==
                    total->valuedouble;
          }
        }
        FUZZ_CHECK(found, "scoreTotals disagree with scores: %s", result);
      }
    }
    FUZZ_CHECK(grouped_nodes == cJSON_GetArraySize(rows),
               "scoreTotals and scores list different nodes: %s", result);
  }
  cJSON_Delete(doc);
  return want_assumed;
}

// sched_engine_schedule with every check; returns the result JSON ("" when
// the call failed) so callers can compare runs. *assumed is set on success.
inline std::string Schedule(sched_engine* e, std::string_view pod, uint32_t flags,
                            sched_status* status = nullptr, bool* assumed = nullptr) {
  char* result = Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_schedule(e, pod.data(), pod.size(), flags, &result, &err);
  if (status != nullptr) *status = st;
  CheckStatus("sched_engine_schedule", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(result == Untouched(), "sched_engine_schedule failed but wrote *result_json");
    return "";
  }
  const bool was_assumed = CheckScheduleResult(result, flags);
  if (assumed != nullptr) *assumed = was_assumed;
  std::string out(result);
  sched_free(result);
  return out;
}

// sched_engine_apply with every check; returns the status. `summary`
// receives the summary JSON on success.
inline sched_status Apply(sched_engine* e, std::string_view json, std::string* summary = nullptr) {
  char* out = Untouched();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_apply(e, json.data(), json.size(), &out, &err);
  CheckStatus("sched_engine_apply", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(out == Untouched(), "sched_engine_apply failed but wrote *summary_json");
    return st;
  }
  cJSON* doc = ParseOutput("sched_engine_apply", out);
  FUZZ_CHECK(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "applied")) &&
                 cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "ignored")) &&
                 cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(doc, "pendingPods")),
             "summary lacks applied/ignored/pendingPods: %s", out);
  cJSON_Delete(doc);
  if (summary != nullptr) *summary = out;
  sched_free(out);
  return st;
}

// An engine from a config the harness knows is valid; aborts otherwise.
inline sched_engine* NewEngine(std::string_view config) {
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  const sched_status st = sched_engine_new(config.data(), config.size(), &e, &err);
  FUZZ_CHECK(st == SCHED_OK, "fixed config rejected: %s", sched_error_message(err));
  return e;
}

// A small cluster every target preloads: three nodes (one tainted, one
// unschedulable, images, extended resources) and bound pods (host ports,
// requests, a sidecar init container).
inline constexpr std::string_view kCluster = R"json({"apiVersion":"v1","kind":"List","items":[
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n1","labels":{"kubernetes.io/hostname":"n1","topology.kubernetes.io/zone":"z1","disk":"ssd"}},
 "spec":{},"status":{"allocatable":{"cpu":"4","memory":"8Gi","pods":"110","ephemeral-storage":"100Gi","example.com/gpu":"2"},
 "images":[{"names":["registry.k8s.io/pause:3.9"],"sizeBytes":300000000},{"names":["nginx:1.25"],"sizeBytes":70000000}]}},
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n2","labels":{"kubernetes.io/hostname":"n2","topology.kubernetes.io/zone":"z2"}},
 "spec":{"taints":[{"key":"dedicated","value":"infra","effect":"NoSchedule"},{"key":"soft","effect":"PreferNoSchedule"}]},
 "status":{"allocatable":{"cpu":"2500m","memory":"4Gi","pods":"10","hugepages-2Mi":"1Gi"}}},
{"apiVersion":"v1","kind":"Node","metadata":{"name":"n3","labels":{"kubernetes.io/hostname":"n3","topology.kubernetes.io/zone":"z1"}},
 "spec":{"unschedulable":true},"status":{"allocatable":{"cpu":"8","memory":"16Gi","pods":"110"}}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","namespace":"default","uid":"u-web-0","labels":{"app":"web"}},
 "spec":{"nodeName":"n1","containers":[{"name":"c","image":"nginx:1.25","resources":{"requests":{"cpu":"500m","memory":"512Mi"}},
 "ports":[{"containerPort":80,"hostPort":8080,"protocol":"TCP"}]}]},"status":{"phase":"Running"}},
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"db-0","namespace":"prod","uid":"u-db-0"},
 "spec":{"nodeName":"n2","priority":1000,"tolerations":[{"key":"dedicated","operator":"Equal","value":"infra","effect":"NoSchedule"}],
 "initContainers":[{"name":"side","image":"envoy","restartPolicy":"Always","resources":{"requests":{"cpu":"100m"}}}],
 "containers":[{"name":"c","image":"postgres","resources":{"requests":{"cpu":"1","memory":"1Gi","example.com/gpu":"1"}}}]}}
]})json";

// The fixed pod the targets schedule to observe the state.
inline constexpr std::string_view kProbePod = R"json({"apiVersion":"v1","kind":"Pod",
 "metadata":{"name":"probe","namespace":"fuzz","labels":{"app":"probe"}},
 "spec":{"tolerations":[{"key":"dedicated","operator":"Exists"}],
  "affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[
   {"weight":10,"preference":{"matchExpressions":[{"key":"disk","operator":"In","values":["ssd"]}]}}]}},
  "containers":[{"name":"c","image":"nginx:1.25","resources":{"requests":{"cpu":"250m","memory":"256Mi"}},
   "ports":[{"containerPort":80,"hostPort":9090}]}]}})json";

// A pod the apply target assumes at the start, so inputs can replace or
// delete an assumed pod ("fuzz/assumed"); no host port, so it never blocks
// the probe.
inline constexpr std::string_view kAssumedPod = R"json({"apiVersion":"v1","kind":"Pod",
 "metadata":{"name":"assumed","namespace":"fuzz"},
 "spec":{"containers":[{"name":"c","image":"registry.k8s.io/pause:3.9","resources":{"requests":{"cpu":"100m"}}}]}})json";

inline constexpr uint32_t kAllFlags = SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES |
                                      SCHED_SCHEDULE_NODE_STATUS_GROUPS | SCHED_SCHEDULE_SCORES |
                                      SCHED_SCHEDULE_SCORE_TOTALS;

}  // namespace fuzz

#endif  // TESTS_FUZZ_FUZZ_COMMON_H_
