// The sched_engine handle and the JSON side of each sched_engine_* call:
// decode the input into model types, drive the sched::Engine
// (libsched/engine/engine.h) under one Session, render its reports. No
// scheduling logic lives here.
//
// Every call validates its whole input before changing anything, so a call
// that returns an error leaves the engine as it was, down to the strings it
// interned while decoding (rolled back by the Session).
//
// Thread-safety: all functions may be called concurrently on one engine;
// they serialize on its lock. JSON parsing runs outside it, except apply's
// events or List items, each parsed as the decoder reaches it
// (ApplyDocument).
#ifndef CAPI_ENGINE_H_
#define CAPI_ENGINE_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "capi/c_string.h"
#include "capi/error.h"
#include "libsched/engine/engine.h"

namespace sched::capi {

// sched_engine_new: an engine from a config document (decode.h, DecodeConfig).
ApiStatus EngineNew(std::string_view config_json, std::unique_ptr<Engine>* out);
// sched_engine_apply. `summary` may be null (no summary wanted).
ApiStatus EngineApply(Engine& e, std::string_view json, MallocString* summary);
// sched_engine_schedule. Unknown flag bits are rejected, as is a pod
// whose spec.schedulerName names no profile.
ApiStatus EngineSchedule(Engine& e, std::string_view pod_json, uint32_t flags,
                         MallocString* result);
// sched_engine_explain: the pod against every node (Session::Explain).
// Changes nothing, the interner included.
ApiStatus EngineExplain(Engine& e, std::string_view pod_json, MallocString* result);
// sched_engine_capacity: {"pod","maxReplicas"} (Session::Capacity).
ApiStatus EngineCapacity(Engine& e, std::string_view request_json, MallocString* result);
// sched_engine_drain: {"nodes":[...]} (Session::Drain).
ApiStatus EngineDrain(Engine& e, std::string_view request_json, MallocString* result);
// sched_engine_score: {"pod","nodes"} (Session::PrioritizeNodes).
ApiStatus EngineScore(Engine& e, std::string_view request_json, MallocString* result);
// sched_engine_preempt: {"pod"} (Session::Preempt), rendered as a
// schedule result without flags.
ApiStatus EnginePreempt(Engine& e, std::string_view request_json, MallocString* result);
// sched_engine_scale_up: {"pods","nodeTemplates"} (Session::ScaleUp).
ApiStatus EngineScaleUp(Engine& e, std::string_view request_json, MallocString* result);
// sched_engine_run. Unknown flag bits (anything but NODE_STATUSES and
// SCORES) are rejected.
ApiStatus EngineRun(Engine& e, uint32_t max_cycles, uint32_t flags, MallocString* result);
// sched_engine_advance_clock.
ApiStatus EngineAdvanceClock(Engine& e, uint64_t millis);
// sched_engine_queue, sched_engine_stats (docs/api.md, "Statistics").
ApiStatus EngineQueue(Engine& e, MallocString* result);
ApiStatus EngineStatistics(Engine& e, MallocString* result);
// sched_engine_nodes: the nodes `query` selects (empty: all). Changes
// nothing, the interner included.
ApiStatus EngineNodes(Engine& e, std::string_view query, MallocString* result);
// sched_engine_begin / _commit / _revert: transactions (Engine::Session::Begin).
ApiStatus EngineBegin(Engine& e);
ApiStatus EngineCommit(Engine& e);
ApiStatus EngineRevert(Engine& e);
// sched_engine_fork (Engine::Session::Fork).
ApiStatus EngineFork(Engine& e, std::unique_ptr<Engine>* child);

}  // namespace sched::capi

// The C handle: a thin wrapper, as leveldb's c.cc does it.
struct sched_engine {
  std::unique_ptr<sched::Engine> rep;
};

#endif  // CAPI_ENGINE_H_
