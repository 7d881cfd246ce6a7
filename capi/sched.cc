// The C ABI (include/sched/sched.h): argument checks, then the Engine, with
// every body run through Guard() so no exception crosses the boundary.
#include "sched/sched.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include "capi/c_string.h"
#include "capi/engine.h"
#include "capi/error.h"

using sched::Engine;
using sched::capi::ApiStatus;
using sched::capi::Guard;
using sched::capi::MallocString;

namespace {

// The (json, len) input convention: NULL is only valid with len 0.
ApiStatus CheckInput(const char* json, size_t len, const char* what) {
  if (json == nullptr && len != 0) {
    return ApiStatus::InvalidCall(std::string(what) + " is NULL but len is not 0");
  }
  return ApiStatus();
}

std::string_view View(const char* json, size_t len) {
  return json == nullptr ? std::string_view() : std::string_view(json, len);
}

}  // namespace

extern "C" {

const char* sched_version(void) { return SCHED_VERSION_STRING; }

unsigned sched_version_number(void) { return SCHED_VERSION_NUMBER; }

const char* sched_upstream_version(void) { return SCHED_UPSTREAM_VERSION; }

sched_status sched_error_code(const sched_error* err) {
  return err == nullptr ? SCHED_OK : err->code;
}

const char* sched_error_message(const sched_error* err) {
  return err == nullptr ? "" : err->message.c_str();
}

const char* sched_error_path(const sched_error* err) {
  return err == nullptr ? "" : err->path.c_str();
}

void sched_error_free(sched_error* err) { delete err; }

const char* sched_status_name(sched_status status) {
  // A C caller may pass any int. In C++ loading an enum outside its
  // enumerators' range is undefined (UBSan's -fsanitize=enum), so the switch
  // reads the bytes as an int.
  static_assert(sizeof(sched_status) == sizeof(int));
  int code;
  std::memcpy(&code, &status, sizeof code);
  switch (code) {
    case SCHED_OK: return "OK";
    case SCHED_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case SCHED_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    case SCHED_INTERNAL: return "INTERNAL";
  }
  return "UNKNOWN";
}

void sched_free(void* p) { std::free(p); }

sched_status sched_engine_new(const char* config, size_t len, sched_engine** out,
                              sched_error** err) {
  return Guard(err, [&] {
    CAPI_RETURN_IF_ERROR(CheckInput(config, len, "config"));
    if (out == nullptr) return ApiStatus::InvalidCall("out is NULL");
    std::unique_ptr<Engine> engine;
    CAPI_RETURN_IF_ERROR(sched::capi::EngineNew(View(config, len), &engine));
    *out = new sched_engine{std::move(engine)};
    return ApiStatus();
  });
}

void sched_engine_free(sched_engine* engine) { delete engine; }

sched_status sched_engine_apply(sched_engine* engine, const char* json, size_t len,
                                char** summary_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(json, len, "json"));
    MallocString summary;
    CAPI_RETURN_IF_ERROR(sched::capi::EngineApply(*engine->rep, View(json, len),
                                                  summary_json != nullptr ? &summary : nullptr));
    if (summary_json != nullptr) *summary_json = summary.release();
    return ApiStatus();
  });
}

sched_status sched_engine_schedule(sched_engine* engine, const char* pod, size_t len,
                                   uint32_t flags, char** result_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (result_json == nullptr) return ApiStatus::InvalidCall("result_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(pod, len, "pod"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(
        sched::capi::EngineSchedule(*engine->rep, View(pod, len), flags, &result));
    *result_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_explain(sched_engine* engine, const char* pod, size_t len,
                                  char** explain_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (explain_json == nullptr) return ApiStatus::InvalidCall("explain_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(pod, len, "pod"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(EngineExplain(*engine->rep, View(pod, len), &result));
    *explain_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_capacity(sched_engine* engine, const char* request, size_t len,
                                   char** capacity_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (capacity_json == nullptr) return ApiStatus::InvalidCall("capacity_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(request, len, "request"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(EngineCapacity(*engine->rep, View(request, len), &result));
    *capacity_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_drain(sched_engine* engine, const char* request, size_t len,
                                char** drain_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (drain_json == nullptr) return ApiStatus::InvalidCall("drain_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(request, len, "request"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(EngineDrain(*engine->rep, View(request, len), &result));
    *drain_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_score(sched_engine* engine, const char* request, size_t len,
                                char** scores_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (scores_json == nullptr) return ApiStatus::InvalidCall("scores_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(request, len, "request"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(EngineScore(*engine->rep, View(request, len), &result));
    *scores_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_preempt(sched_engine* engine, const char* request, size_t len,
                                  char** result_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (result_json == nullptr) return ApiStatus::InvalidCall("result_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(request, len, "request"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(EnginePreempt(*engine->rep, View(request, len), &result));
    *result_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_scale_up(sched_engine* engine, const char* request, size_t len,
                                   char** scale_up_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (scale_up_json == nullptr) return ApiStatus::InvalidCall("scale_up_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(request, len, "request"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(EngineScaleUp(*engine->rep, View(request, len), &result));
    *scale_up_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_run(sched_engine* engine, uint32_t max_cycles, uint32_t flags,
                              char** result_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (result_json == nullptr) return ApiStatus::InvalidCall("result_json is NULL");
    MallocString result;
    CAPI_RETURN_IF_ERROR(sched::capi::EngineRun(*engine->rep, max_cycles, flags, &result));
    *result_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_advance_clock(sched_engine* engine, uint64_t millis,
                                        sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    return sched::capi::EngineAdvanceClock(*engine->rep, millis);
  });
}

sched_status sched_engine_queue(sched_engine* engine, char** queue_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (queue_json == nullptr) return ApiStatus::InvalidCall("queue_json is NULL");
    MallocString result;
    CAPI_RETURN_IF_ERROR(sched::capi::EngineQueue(*engine->rep, &result));
    *queue_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_stats(sched_engine* engine, char** stats_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (stats_json == nullptr) return ApiStatus::InvalidCall("stats_json is NULL");
    MallocString result;
    CAPI_RETURN_IF_ERROR(sched::capi::EngineStatistics(*engine->rep, &result));
    *stats_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_nodes(sched_engine* engine, const char* query, size_t len,
                                char** nodes_json, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (nodes_json == nullptr) return ApiStatus::InvalidCall("nodes_json is NULL");
    CAPI_RETURN_IF_ERROR(CheckInput(query, len, "query"));
    MallocString result;
    CAPI_RETURN_IF_ERROR(sched::capi::EngineNodes(*engine->rep, View(query, len), &result));
    *nodes_json = result.release();
    return ApiStatus();
  });
}

sched_status sched_engine_begin(sched_engine* engine, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    return sched::capi::EngineBegin(*engine->rep);
  });
}

sched_status sched_engine_commit(sched_engine* engine, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    return sched::capi::EngineCommit(*engine->rep);
  });
}

sched_status sched_engine_revert(sched_engine* engine, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    return sched::capi::EngineRevert(*engine->rep);
  });
}

sched_status sched_engine_fork(sched_engine* engine, sched_engine** child, sched_error** err) {
  return Guard(err, [&] {
    if (engine == nullptr) return ApiStatus::InvalidCall("engine is NULL");
    if (child == nullptr) return ApiStatus::InvalidCall("child is NULL");
    // The handle first: once the fork is made, nothing may fail (it
    // shares the parent's interner from then on).
    auto handle = std::make_unique<sched_engine>();
    CAPI_RETURN_IF_ERROR(sched::capi::EngineFork(*engine->rep, &handle->rep));
    *child = handle.release();
    return ApiStatus();
  });
}

}  // extern "C"
