// Engine: the scheduler a caller drives. It holds the resident cluster
// state, one Scheduler per profile (sharing one Parallelizer sized by
// `parallelism`), the scheduling queue of pending pods with its clock, and
// the lock that serializes every call on it. Everything is in model types:
// capi decodes JSON into them and renders the reports; C++ callers (and
// tests) drive the engine directly.
//
// No snapshot is copied per cycle: Schedulers read state_ directly, which
// is safe because every call holds mu_, so nothing mutates the state while
// a cycle (and the Filter/Score threads it fans out to) reads it. That is
// what upstream's per-cycle snapshot (UpdateSnapshot, which copies only
// NodeInfos whose generation changed) buys it against its concurrent
// informers; here it would only cost a copy.
//
// Calls go through a Session (Lock()), which holds the lock for its life:
// a caller decodes objects with session.interner() and then applies or
// schedules them in the same session. Strings interned in a session are
// dropped when it ends unless a call that keeps objects (Apply, Schedule)
// succeeded, so rejected input cannot grow the interner; objects decoded in
// a session that keeps nothing must be gone before it ends. A call that
// throws (out of memory; SCHED_INTERNAL for a broken invariant) leaves the
// engine as it was: changes run inside the state's and the queue's Batches
// (libsched/state/undo_log.h), and the schedulers' random sources and start
// indexes are put back.
//
// Transactions (the shape of cluster-autoscaler's ClusterSnapshot
// Fork/Revert/Commit, without a copy): Begin() opens one; every call after
// it changes the engine as usual, whoever makes it; Revert() puts back
// everything since Begin() (state, queue, clock, random sources, start
// indexes and interned strings; the equivalence cache is emptied), Commit()
// keeps it. They nest: Commit() of an inner transaction hands its changes
// to the one around it, which may still revert them. An open transaction
// keeps its undo records (libsched/state/undo_log.h, O(changes made)) until
// it ends; an engine freed with transactions open reverts them.
//
// Fork (the shape of cluster-autoscaler's ClusterSnapshot.Fork, as a
// second engine): Session::Fork() returns an independent engine with the
// same state, config, queue, clock, random sources and start indexes; a
// change to either never shows in the other. It shares what never changes
// (model objects, the built config, the Parallelizer's threads) and the
// cluster state and the queue copy-on-write (ClusterState::Clone,
// PriorityQueue::ForkFrom): O(1) in the cluster's size and the number of
// pending pods; each side then clones what it first changes (docs/api.md,
// "Fork", has the cost model and the figures). A parent and its forks (and theirs) form a
// family: they share one interner, so they share one lock too, and their
// sessions serialize with each other. The child starts with no
// transaction open and an empty equivalence cache (which changes no
// decision, only what a cycle recomputes).
//
// Thread-safety: Lock() may be called from any thread; sessions serialize
// (with those of every engine of the family). A Session is used by the
// thread that holds it, which must not Lock() another engine of the family
// meanwhile (one lock: it would wait for itself). Engines of a family may
// be used and freed from different threads at once.
#ifndef LIBSCHED_ENGINE_ENGINE_H_
#define LIBSCHED_ENGINE_ENGINE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/engine/capacity.h"
#include "libsched/engine/change.h"
#include "libsched/engine/drain.h"
#include "libsched/engine/engine_config.h"
#include "libsched/engine/reports.h"
#include "libsched/engine/scale_up.h"
#include "libsched/engine/state_digest.h"
#include "libsched/framework/parallelize.h"
#include "libsched/model/interner.h"
#include "libsched/queue/clock.h"
#include "libsched/queue/scheduling_queue.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_query.h"

namespace sched {

class Engine {
 public:
  // Building takes two steps because a config's plugin args hold ids of
  // the engine's own interner: construct, decode the config with
  // config_interner(), then Configure() once before anything else.
  Engine() = default;
  // Reverts the open transactions, innermost first. Takes the family's
  // lock: what it frees may release strings of the shared interner.
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // REQUIRES: Configure() not called yet.
  Interner& config_interner() { return state_->interner(); }
  // Builds the profiles and the queue. REQUIRES: called once.
  void Configure(const EngineConfig& config);

  // Beyond this the queue's clock (nanoseconds) could overflow.
  static constexpr uint64_t kMaxClockMillis = 9'000'000'000'000ULL;

  // Called with a call's results before it commits: an exception thrown
  // there undoes the call, so a caller can render (allocate) the results
  // and still change nothing if that fails.
  using ResultsHook = std::function<void(std::span<const PodResult>)>;

  class Session {
   public:
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // The engine's interner, for decoding objects to apply or schedule.
    // The first call opens the session's checkpoint (Interner::Checkpoint).
    Interner& interner();
    // Whether a profile has this schedulerName.
    bool HasProfile(std::string_view scheduler_name) const {
      return e_.schedulers_.contains(scheduler_name);
    }

    // Applies the changes in order, as the scheduler's informer handlers
    // (pkg/scheduler/eventhandlers.go) would: state first, then the
    // cluster events the queue expects. All or nothing.
    void Apply(std::span<const Change> changes);
    // One scheduling cycle for `pod` (its profile by spec.schedulerName),
    // assuming it on the chosen node when options.assume. REQUIRES:
    // HasProfile(pod->scheduler_name).
    PodResult Schedule(std::shared_ptr<Pod> pod, const ScheduleOptions& options,
                       const ResultsHook& before_commit = {});
    // Flushes the queue at the current time, then runs up to `max_cycles`
    // cycles (0: until activeQ is empty), assuming each pod that fits and
    // handing the others back to the queue (nominated when preemption
    // made room). options.assume is ignored (always on). All or nothing.
    std::vector<PodResult> Run(uint32_t max_cycles, const ScheduleOptions& options,
                               const ResultsHook& before_commit = {});
    // Moves the queue's clock and flushes. False (nothing changed) when
    // the clock would pass kMaxClockMillis.
    bool AdvanceClock(uint64_t millis);

    // Scheduler::Explain of `pod` with its profile, nominated pods
    // counted. Changes nothing. REQUIRES: HasProfile(pod.scheduler_name).
    Explanation Explain(const Pod& pod) const;
    // Capacity (libsched/engine/capacity.h) of `tmpl` with its profile:
    // replicas assumed one by one, then all undone. Changes nothing but
    // the equivalence cache's entries. REQUIRES:
    // HasProfile(tmpl.scheduler_name), tmpl.node_name empty,
    // 1 <= max_replicas <= kMaxCapacityReplicas.
    CapacityResult Capacity(const Pod& tmpl, int64_t max_replicas);
    // Scheduler::PrioritizeNodes of `pod` with its profile over the named
    // nodes, in that order. Changes no state, queue, random source or
    // start index; the equivalence cache and the interned strings as
    // Schedule without assume does. REQUIRES:
    // HasProfile(pod.scheduler_name), each name HasNode.
    ScheduleResult PrioritizeNodes(const Pod& pod, std::span<const std::string> nodes);
    // Whether a node of that name has a Node object.
    bool HasNode(std::string_view name) const;
    // Drain (libsched/engine/drain.h) of `nodes`: their pods scheduled
    // again on the other nodes, then all undone. Changes nothing but the
    // equivalence cache's entries. REQUIRES: `nodes` distinct, each
    // HasNode.
    DrainResult Drain(std::span<const std::string> nodes);
    // The preemption what-if: one scheduling cycle for `pod` (as Schedule
    // without assume: PostFilter's nominated node and victims when nothing
    // fits), then everything it moved put back. Changes nothing but the
    // equivalence cache's entries. REQUIRES: HasProfile(pod.scheduler_name).
    PodResult Preempt(const Pod& pod);
    // ScaleUp (libsched/engine/scale_up.h) of `pods` with their profiles:
    // everything undone, random sources and start indexes rewound. Changes
    // nothing but the equivalence caches' entries. REQUIRES: each pod's
    // HasProfile, node_name empty, keys distinct and not HasPod; no new
    // node name ("<template>-scaleup-<i>", i < max_nodes) NodeNameTaken.
    ScaleUpResult ScaleUp(std::span<const std::shared_ptr<const Pod>> pods,
                          std::span<const NodeTemplate> templates);
    bool HasPod(std::string_view key) const { return e_.state_->HasPod(key); }
    // Whether the state knows the node name at all: a Node, or pods bound
    // to a node not (yet) seen.
    bool NodeNameTaken(std::string_view name) const { return e_.state_->FindNode(name) != nullptr; }

    QueueReport Queue() const;
    EngineStats Stats() const;
    // The nodes `q` selects, sorted by name (QueryNodes).
    std::vector<NodeReport> Nodes(const NodeQuery& q) const;
    uint64_t Digest(DigestScope scope) const;

    // Transactions. Begin may throw bad_alloc (nothing opened); Commit and
    // Revert return false when none is open. REQUIRES (all three):
    // interner() not called in this session, and for Revert, that nothing
    // outside the engine still holds objects made inside the transaction.
    void Begin();
    bool Commit();
    bool Revert();
    // A new engine equal to this one (see Fork above); this one does not
    // change. May throw bad_alloc (nothing changed). REQUIRES: interner()
    // not called in this session.
    std::unique_ptr<Engine> Fork() const;

    // How many transactions are open (0: none).
    size_t transactions() const { return e_.transactions_.size(); }

   private:
    friend class Engine;
    explicit Session(Engine& e);
    Engine& e_;
    std::unique_lock<std::mutex> lock_;
    std::optional<size_t> intern_mark_;  // set once interner() was called
    bool keep_interned_ = false;
  };

  // Holds the engine's lock until the Session ends.
  Session Lock() { return Session(*this); }

  // For tests: XXH3-64 digests of the state (state_digest.h). ClusterDigest
  // covers nodes, pods, aggregates, PDBs, Namespaces and workloads;
  // StateDigest adds the node order, each scheduler's random source and
  // start index, the queue and its clock. Equal before and after a call
  // that failed.
  uint64_t ClusterDigest() { return Lock().Digest(DigestScope::kCluster); }
  uint64_t StateDigest() { return Lock().Digest(DigestScope::kAll); }

 private:
  // A member of `family`'s lock (Fork).
  explicit Engine(std::shared_ptr<std::mutex> family) : mu_(std::move(family)) {}
  // The schedulers and the queue for config_, over state_ and
  // parallelizer_.
  void Build();

  // Applies one change to the state and tells the queue. REQUIRES: mu_ held.
  void CommitOne(const Change& c);
  // Raises the Add (or, with an old object, Update) event of a volume
  // object kind, carrying both objects.
  void VolumeEvent(EventResource resource, EventObject old_obj, EventObject new_obj);
  // Run's cycles. REQUIRES: mu_ held.
  std::vector<PodResult> RunCycles(uint32_t max_cycles, const ScheduleOptions& options);
  // Records a preemption's nomination of `p` to `node`. REQUIRES: mu_ held.
  void Nominate(QueuedPodInfo& p, const std::string& node);

  // What a call or transaction that is undone puts back in the schedulers.
  struct SchedulerMark {
    Scheduler* scheduler;
    Mt19937_64::Mark rng;
    size_t next_start_node_index;
  };
  // Fills `marks` with every scheduler's (its storage reused).
  void MarkSchedulers(std::vector<SchedulerMark>* marks) const;
  static void Rewind(const std::vector<SchedulerMark>& marks);
  // A call's marks, in mark_buffer_'s storage while it runs (a cycle per
  // call would otherwise allocate them each time); a call nested in it
  // finds the buffer taken and uses its own.
  class CallMarks {
   public:
    explicit CallMarks(Engine& e) : e_(e), marks_(std::move(e.mark_buffer_)) {
      e.MarkSchedulers(&marks_);
    }
    ~CallMarks() { e_.mark_buffer_ = std::move(marks_); }
    CallMarks(const CallMarks&) = delete;
    CallMarks& operator=(const CallMarks&) = delete;
    void Rewind() const { Engine::Rewind(marks_); }

   private:
    Engine& e_;
    std::vector<SchedulerMark> marks_;
  };

  struct Transaction {
    std::unique_ptr<ClusterState::Batch> state;
    std::unique_ptr<PriorityQueue::Batch> queue;
    std::vector<SchedulerMark> schedulers;
    Time clock{};
    size_t intern_mark = 0;
  };

  // The family's lock (Fork): one per engine built by Configure, shared
  // by its forks.
  std::shared_ptr<std::mutex> mu_ = std::make_shared<std::mutex>();
  // Held by the destructor while the members go (before them: released
  // after them), unless building_fork_.
  std::unique_lock<std::mutex> dying_lock_;
  // Set while Fork() builds this engine: its caller holds mu_.
  bool building_fork_ = false;
  // The threads of every Scheduler's cycles (set by Configure, shared with
  // forks: their sessions serialize); outlives them (declared first).
  std::shared_ptr<Parallelizer> parallelizer_;
  std::shared_ptr<const EngineConfig> config_;  // set by Configure, shared with forks
  std::unique_ptr<ClusterState> state_ = std::make_unique<ClusterState>();     // guarded by mu_
  std::map<std::string, std::unique_ptr<Scheduler>, std::less<>> schedulers_;  // by schedulerName
  FakeClock clock_;                       // guarded by mu_; starts at 0
  std::unique_ptr<PriorityQueue> queue_;  // guarded by mu_; pods of every profile
  std::vector<SchedulerMark> mark_buffer_;  // guarded by mu_; CallMarks' storage
  // Open transactions, innermost last; declared last, so an engine freed
  // with some open reverts them before the state and queue go.
  std::vector<Transaction> transactions_;  // guarded by mu_
};

}  // namespace sched

#endif  // LIBSCHED_ENGINE_ENGINE_H_
