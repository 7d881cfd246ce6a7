// Engine: what a sched_engine handle holds: the resident cluster state, one
// Scheduler per profile (sharing one Parallelizer sized by `parallelism`),
// the scheduling queue of pending pods with its clock, and the lock that
// serializes every call on it.
//
// No snapshot is copied per cycle: Schedulers read state_ directly, which
// is safe because every call holds mu_, so nothing mutates the state while
// a cycle (and the Filter/Score threads it fans out to) reads it. That is
// what upstream's per-cycle snapshot (UpdateSnapshot, which copies only
// NodeInfos whose generation changed) buys it against its concurrent
// informers; here it would only cost a copy.
//
// Every public method validates its whole input before changing anything,
// so a call that returns an error leaves the engine as it was, down to the
// strings it interned while decoding (rolled back).
//
// Thread-safety: all methods may be called concurrently; they serialize on
// an internal mutex. JSON parsing runs outside it, except apply's events or
// List items, each parsed as the decoder reaches it (ApplyDocument).
#ifndef CAPI_ENGINE_H_
#define CAPI_ENGINE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "capi/c_string.h"
#include "capi/decode.h"
#include "capi/error.h"
#include "libsched/framework/parallelize.h"
#include "libsched/queue/clock.h"
#include "libsched/queue/scheduling_queue.h"
#include "capi/state_digest.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"

namespace sched::capi {

class Engine {
 public:
  // Builds an engine from a config document (decode.h, DecodeConfig).
  static ApiStatus Create(std::string_view config_json, std::unique_ptr<Engine>* out);

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // sched_engine_apply. `summary` may be null (no summary wanted).
  ApiStatus Apply(std::string_view json, MallocString* summary);

  // sched_engine_schedule. Unknown flag bits are rejected, as is a pod
  // whose spec.schedulerName names no profile.
  ApiStatus Schedule(std::string_view pod_json, uint32_t flags, MallocString* result);

  // sched_engine_explain: the pod against every node (Scheduler::Explain).
  // Changes nothing, the interner included.
  ApiStatus Explain(std::string_view pod_json, MallocString* result);

  // sched_engine_capacity: replicas of a template scheduled and assumed
  // one by one, then undone (libsched/whatif/capacity.h). Changes nothing
  // but the equivalence cache's entries.
  ApiStatus Capacity(std::string_view request_json, MallocString* result);

  // sched_engine_run: flushes the queue at the current time, then runs up
  // to `max_cycles` cycles (0: until activeQ is empty), assuming each pod
  // that fits and handing the others back to the queue. Unknown flag bits
  // (anything but NODE_STATUSES and SCORES) are rejected.
  ApiStatus Run(uint32_t max_cycles, uint32_t flags, MallocString* result);
  // sched_engine_advance_clock: moves the queue's clock and flushes.
  ApiStatus AdvanceClock(uint64_t millis);
  // sched_engine_queue: where every pending pod is and why.
  ApiStatus QueueJson(MallocString* result);
  // sched_engine_stats: the equivalence cache's counters, summed over the
  // profiles (docs/api.md, "Statistics").
  ApiStatus StatsJson(MallocString* result);
  // sched_engine_nodes: per-node allocatable and requested resources of
  // the nodes `query` selects (empty: all). Changes nothing, the interner
  // included.
  ApiStatus NodesJson(std::string_view query, MallocString* result);
  // For tests (not in the C API): XXH3-64 digests of the state
  // (capi/state_digest.h). ClusterDigest covers nodes, pods, aggregates,
  // PDBs, Namespaces and workloads; StateDigest adds the node order, each
  // scheduler's random source and start index, the queue and its clock.
  // Equal before and after a call that failed.
  uint64_t ClusterDigest();
  uint64_t StateDigest();

 private:
  Engine() = default;
  // Builds the profiles and the queue. Called once, by Create.
  void Configure(const EngineConfig& config);
  // Decodes a pending pod and finds its profile's Scheduler; a
  // schedulerName no profile has is an error at spec.schedulerName.
  // REQUIRES: mu_ held.
  ApiStatus DecodePodFor(const cJSON* v, const JsonPath& at, DecodedPod* decoded,
                         Scheduler** scheduler);
  void Commit(const ChangeSet& changes);  // REQUIRES: mu_ held
  // Run's cycles and their JSON. REQUIRES: mu_ held.
  MallocString RunCycles(uint32_t max_cycles, uint32_t flags);
  // Applies one change to the state and tells the queue. REQUIRES: mu_ held.
  void CommitOne(const Change& c);
  // Raises the Add (or, when `known`, Update) event of a volume object kind.
  void VolumeEvent(EventResource resource, bool known);
  // Records a preemption's nomination of `p` to `node`. REQUIRES: mu_ held.
  void Nominate(QueuedPodInfo& p, const std::string& node);
  uint64_t Digest(DigestScope scope);

  std::mutex mu_;
  // The threads of every Scheduler's cycles (set by Configure); outlives
  // them (declared first).
  std::unique_ptr<Parallelizer> parallelizer_;
  ClusterState state_;                                             // guarded by mu_
  std::map<std::string, std::unique_ptr<Scheduler>, std::less<>> schedulers_;  // by schedulerName
  FakeClock clock_;                       // guarded by mu_; starts at 0
  std::unique_ptr<PriorityQueue> queue_;  // guarded by mu_; pods of every profile
};

}  // namespace sched::capi

// The C handle: a thin wrapper, as leveldb's c.cc does it.
struct sched_engine {
  std::unique_ptr<sched::capi::Engine> rep;
};

#endif  // CAPI_ENGINE_H_
