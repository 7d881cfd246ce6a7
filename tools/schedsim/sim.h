// The simulation: load the cluster and its pending pods into an engine
// through the C API, then let the engine's scheduling queue place them,
// evicting the victims of each preemption and moving the clock, until
// nothing more can be placed.
#ifndef TOOLS_SCHEDSIM_SIM_H_
#define TOOLS_SCHEDSIM_SIM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster.h"
#include "engine.h"
#include "json.h"

namespace schedsim {

struct SimOptions {
  std::optional<uint64_t> seed;  // engine default when unset
  std::string explain;           // "ns/name" of the pod to explain, or ""
  const cJSON* config = nullptr;  // --config's object; null: the default profile
  std::string config_file;        // its file, for error messages
};

// Where a pending pod ended up.
struct Outcome {
  std::string pod;      // "ns/name"
  std::string node;     // "" when the pod fits nowhere
  std::string message;  // why not (its last cycle's message), when node is ""
};

// One preemption: the preemptor was nominated to `node` and the simulation
// evicted the victims (DELETED events), as kube-scheduler deletes them.
struct Preemption {
  std::string pod;                   // "ns/name" of the preemptor
  std::string node;                  // its nominatedNodeName
  std::vector<std::string> victims;  // "ns/name", most important first
};

struct SimResult {
  // Every pending pod not evicted, in the order of its first scheduling
  // cycle (the queue's order: priority, then namespace/name); pods that
  // never had a cycle (gated) last, in input order.
  std::vector<Outcome> outcomes;
  std::vector<Preemption> preemptions;  // in cycle order
  JsonPtr ignored;                      // {"Kind":N,...} as the engine counted them
  // Pending pods not scheduled because they name another scheduler.
  std::map<std::string, int64_t> other_schedulers;
  // The explained pod's last schedule result, with node statuses and scores.
  JsonPtr explain;
  double seconds = 0;  // wall time of the scheduling loop
};

// At most this many scheduling cycles per pending pod (plus a constant);
// beyond it the simulation stops with a warning. A run ends long before:
// every extra pass needs a placement or an eviction, and each pod is
// placed or evicted a bounded number of times.
inline constexpr uint64_t kMaxCyclesPerPod = 100;
inline constexpr uint64_t kMinCycleBudget = 10000;

// Throws InputError (the engine rejected an object; the message names the
// file and field) or EngineError.
SimResult Simulate(const Cluster& cluster, const SimOptions& options);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_SIM_H_
