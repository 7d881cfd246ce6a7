// SimEngine: the few calls of libsched's C API the simulation makes, with
// C++ ownership and errors turned into exceptions.
#ifndef TOOLS_SCHEDSIM_ENGINE_H_
#define TOOLS_SCHEDSIM_ENGINE_H_

#include <sched/sched.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "json.h"
#include "loc.h"

namespace schedsim {

// A failure inside the engine that is not about the input: exit status 1.
class EngineError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Maps the JSON path of an engine error to its place in the input.
using Locate = std::function<Loc(const std::string& path)>;

// Not thread-safe (the simulation is single-threaded); every call throws
// EngineError on an engine failure, or InputError (at the place `locate`
// finds) when the engine rejects the input.
class SimEngine {
 public:
  // An engine made from `config` (the --config object, or null for the
  // default profile) with "seed" set to `seed` when given; engine errors
  // about the config are placed in `config_file`.
  SimEngine(const cJSON* config, const std::string& config_file, std::optional<uint64_t> seed);

  // sched_engine_apply; returns the summary object.
  JsonPtr Apply(const std::string& json, const Locate& locate);
  // sched_engine_run of at most max_cycles cycles (0: until activeQ is
  // empty); returns the "results" array.
  JsonPtr Run(uint32_t max_cycles, uint32_t flags);
  // sched_engine_schedule of `pod` (not assumed); returns the result.
  JsonPtr Schedule(const std::string& pod, uint32_t flags);
  // sched_engine_explain of `pod`: the explanation document.
  JsonPtr Explain(const std::string& pod);
  // sched_engine_capacity of {"pod":pod,"maxReplicas":max_replicas}.
  JsonPtr Capacity(const std::string& pod, uint64_t max_replicas);
  // sched_engine_drain of {"nodes":nodes}.
  JsonPtr Drain(const std::vector<std::string>& nodes);
  // sched_engine_scale_up of the request document.
  JsonPtr ScaleUp(const std::string& request);
  // sched_engine_advance_clock.
  void AdvanceClock(uint64_t millis);
  // sched_engine_queue: {"nowMillis","schedulingCycle","pods":[...]}.
  JsonPtr Queue();
  // sched_engine_nodes of every node: the "nodes" array.
  JsonPtr Nodes();

 private:
  struct Free {
    void operator()(sched_engine* e) const { sched_engine_free(e); }
  };
  std::unique_ptr<sched_engine, Free> engine_;
};

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_ENGINE_H_
