// Helpers for tests that drive an engine through the C API: JSON for nodes,
// pods and watch events, and calls that return what happened as values.
#ifndef TESTS_CAPI_ENGINE_TEST_UTIL_H_
#define TESTS_CAPI_ENGINE_TEST_UTIL_H_

#include <cJSON.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sched/sched.h"

namespace sched::capi::testing {

// Sanitizer builds run fewer of a property test's seeds: a seed costs 10 to
// 30 times its plain-build time there, and the plain build runs them all.
// ASan runs the first third (a memory error shows on any seed). TSan runs
// the first seed only: it is there for races between the cycle's threads,
// which every seed's parallel cycles exercise alike.
enum class SanitizerBuild { kNone, kAddress, kThread };
#if defined(__SANITIZE_THREAD__)
inline constexpr SanitizerBuild kSanitizer = SanitizerBuild::kThread;
#elif defined(__SANITIZE_ADDRESS__)
inline constexpr SanitizerBuild kSanitizer = SanitizerBuild::kAddress;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
inline constexpr SanitizerBuild kSanitizer = SanitizerBuild::kThread;
#elif __has_feature(address_sanitizer)
inline constexpr SanitizerBuild kSanitizer = SanitizerBuild::kAddress;
#else
inline constexpr SanitizerBuild kSanitizer = SanitizerBuild::kNone;
#endif
#else
inline constexpr SanitizerBuild kSanitizer = SanitizerBuild::kNone;
#endif

// How many of a property test's `seeds` this build runs (kSanitizer).
inline constexpr uint32_t SeedsToRun(uint32_t seeds) {
  switch (kSanitizer) {
    case SanitizerBuild::kThread:
      return 1;
    case SanitizerBuild::kAddress:
      return (seeds + 2) / 3;
    case SanitizerBuild::kNone:
      break;
  }
  return seeds;
}

// A v1 Node with `cpu` allocatable (64Gi memory, 110 pods); `labels` is the
// inside of metadata.labels ("" for none).
inline std::string NodeJson(const std::string& name, const std::string& cpu,
                            const std::string& labels = "") {
  return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name + R"(","labels":{)" +
         labels + R"(}},"status":{"allocatable":{"cpu":")" + cpu +
         R"(","memory":"64Gi","pods":"110"}}})";
}

// A pod in namespace "ns" asking for `cpu`; bound when `node` is set.
// `extra_spec` is spliced into spec before "containers" and must end in ','.
inline std::string PodJson(const std::string& name, const std::string& cpu,
                           const std::string& node = "", const std::string& extra_spec = "") {
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns"},"spec":{)" + node_name + extra_spec +
         R"("containers":[{"name":"c","resources":{"requests":{"cpu":")" + cpu + R"("}}}]}})";
}

// PodJson's extra_spec for spec.priority.
inline std::string PriorityJson(int priority) {
  return R"("priority":)" + std::to_string(priority) + ",";
}

// `pod` (a PodJson) with metadata.labels {`labels`}.
inline std::string WithLabels(std::string pod, const std::string& labels) {
  const std::string ns = R"("namespace":"ns")";
  return pod.insert(pod.find(ns) + ns.size(), R"(,"labels":{)" + labels + "}");
}

// `pod` (a PodJson) with status.nominatedNodeName, as the API server holds
// it once the scheduler wrote it back.
inline std::string WithNominatedNode(std::string pod, const std::string& node) {
  return pod.insert(pod.size() - 1, R"(,"status":{"nominatedNodeName":")" + node + "\"}");
}

// The member `key` of a result document object, or null.
inline const cJSON* Get(const cJSON* o, const char* key) {
  return cJSON_GetObjectItemCaseSensitive(o, key);
}

inline std::string EventJson(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}";
}

// The outcome of one C API call.
struct CallResult {
  sched_status status = SCHED_OK;
  std::string output;   // the summary or result JSON on success
  std::string message;  // the error's message and path on failure
  std::string path;
};

inline CallResult Collect(sched_status st, char* output, sched_error* err) {
  CallResult r{st, output != nullptr ? output : "", sched_error_message(err),
               sched_error_path(err)};
  sched_free(output);
  sched_error_free(err);
  return r;
}

// A call of the shape (engine, input, length, &output, &err): apply,
// nodes, explain, capacity.
using InputCall = sched_status (*)(sched_engine*, const char*, size_t, char**, sched_error**);

inline CallResult CallWithInput(InputCall call, sched_engine* e, std::string_view input) {
  char* output = nullptr;
  sched_error* err = nullptr;
  const sched_status st = call(e, input.data(), input.size(), &output, &err);
  return Collect(st, output, err);
}

inline CallResult CallApply(sched_engine* e, std::string_view json) {
  return CallWithInput(sched_engine_apply, e, json);
}

inline CallResult CallSchedule(sched_engine* e, std::string_view pod, uint32_t flags) {
  char* result = nullptr;
  sched_error* err = nullptr;
  const sched_status st = sched_engine_schedule(e, pod.data(), pod.size(), flags, &result, &err);
  return Collect(st, result, err);
}

inline CallResult CallRun(sched_engine* e, uint32_t max_cycles, uint32_t flags) {
  char* result = nullptr;
  sched_error* err = nullptr;
  const sched_status st = sched_engine_run(e, max_cycles, flags, &result, &err);
  return Collect(st, result, err);
}

inline CallResult CallAdvanceClock(sched_engine* e, uint64_t millis) {
  sched_error* err = nullptr;
  const sched_status st = sched_engine_advance_clock(e, millis, &err);
  return Collect(st, nullptr, err);
}

inline CallResult CallQueue(sched_engine* e) {
  char* result = nullptr;
  sched_error* err = nullptr;
  const sched_status st = sched_engine_queue(e, &result, &err);
  return Collect(st, result, err);
}

}  // namespace sched::capi::testing

#endif  // TESTS_CAPI_ENGINE_TEST_UTIL_H_
