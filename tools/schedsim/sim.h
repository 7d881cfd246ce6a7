// The simulation: load the cluster and its pending pods into an engine
// through the C API, then let the engine's scheduling queue place them,
// evicting the victims of each preemption and moving the clock, until
// nothing more can be placed.
#ifndef TOOLS_SCHEDSIM_SIM_H_
#define TOOLS_SCHEDSIM_SIM_H_

#include <chrono>
#include <csignal>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster.h"
#include "engine.h"
#include "json.h"
#include "utilization.h"

namespace schedsim {

// Loading sends the input in Lists of at most this many bytes and items:
// well under the engine's per-document limits (kMaxApplyBytes 256 MiB,
// kMaxApplyItems 200,000 in capi/limits.h), so a dump of any size loads.
inline constexpr size_t kDefaultBatchBytes = size_t{64} << 20;
inline constexpr size_t kBatchItems = 50000;

struct SimOptions {
  std::optional<uint64_t> seed;      // engine default when unset
  std::vector<std::string> explain;  // "ns/name" of each pod to explain
  const cJSON* config = nullptr;     // --config's object; null: the default profile
  std::string config_file;           // its file, for error messages
  // Upper bound of one sched_engine_apply document, in bytes (an object
  // larger than it goes alone); the engine's own limit is 256 MiB.
  size_t batch_bytes = kDefaultBatchBytes;
  bool progress = false;  // --progress: the progress line even off a terminal
  // --pool-label: the node label whose values are the pools of the
  // utilization report; "" picks the first of kPoolLabels a node carries.
  std::string pool_label = {};
  // `schedsim explain|capacity`: this pending pod ("ns/name") is left out
  // of the run, then explained (or its capacity asked, up to
  // max_replicas) against the cluster the run leaves.
  std::string explain_after = {};
  bool capacity = false;
  uint64_t max_replicas = 100000;
  // `schedsim drain`: these nodes are drained (sched_engine_drain) in the
  // cluster the run leaves.
  std::vector<std::string> drain_nodes = {};
  // `schedsim scale-up`: after the run, sched_engine_scale_up of the pods
  // it left pending with these template Nodes (JSON text), each with at
  // most max_nodes new nodes.
  std::vector<std::string> scale_up_templates = {};
  uint64_t max_nodes = 1000;
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
  // Each explained pod's last schedule result, with node statuses and
  // scores, in --explain order (null for a pod that never had a cycle).
  std::vector<JsonPtr> explain;
  int64_t nodes = 0;         // Nodes in the input
  int64_t bound_pods = 0;    // pods with spec.nodeName, from the input
  bool interrupted = false;  // stopped by SIGINT: the outcomes so far
  // Per pool, requests against allocatable before the run (bound pods)
  // and after it (placed pods too, evicted ones gone).
  Utilization utilization;
  double seconds = 0;  // wall time of the scheduling loop
  // The sched_engine_explain (or, with SimOptions::capacity,
  // sched_engine_capacity) document of SimOptions::explain_after; the
  // sched_engine_drain document of SimOptions::drain_nodes.
  JsonPtr explanation;
};

// At most this many scheduling cycles per pending pod (plus a constant);
// beyond it the simulation stops with a warning. A run ends long before:
// every extra pass needs a placement or an eviction, and each pod is
// placed or evicted a bounded number of times.
inline constexpr uint64_t kMaxCyclesPerPod = 100;
inline constexpr uint64_t kMinCycleBudget = 10000;

// Scheduling cycles per sched_engine_run call: the progress line and
// Ctrl-C are looked at between calls. The first slice has kFirstSlice
// cycles; a slice shorter than kSliceSeconds doubles the next, up to
// kMaxSlice.
inline constexpr uint32_t kFirstSlice = 100;
inline constexpr uint32_t kMaxSlice = 1u << 20;
inline constexpr std::chrono::milliseconds kSliceSeconds{250};

// Throws InputError (the engine rejected an object; the message names the
// file and field) or EngineError. When *stop turns true (a signal handler
// sets it), the run ends after the current slice of cycles with what it has,
// marked interrupted.
SimResult Simulate(const Cluster& cluster, const SimOptions& options,
                   const volatile std::sig_atomic_t* stop = nullptr);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_SIM_H_
