// PriorityQueue: the scheduling queue of pending pods, mirroring
// pkg/scheduler/backend/queue/{scheduling_queue,active_queue}.go
// (kube-scheduler v1.36.3, SchedulerQueueingHints GA, SchedulerPopFromBackoffQ
// on).
//
//   activeQ            pods ready to be tried: priority desc, then the time
//                      they were queued asc (PrioritySort).
//   backoffQ           pods that failed and wait out their backoff.
//   unschedulablePods  pods that failed and wait for an event that can help
//                      them (or at most pod_max_in_unschedulable_pods), and
//                      pods a PreEnqueue plugin (SchedulingGates) gates.
//   in flight          popped pods being scheduled; cluster events that
//                      arrive meanwhile are recorded and replayed against the
//                      pod if it comes back unschedulable.
//
// An event moves an unschedulable pod only when one of the plugins that
// rejected it registered for the event and that plugin's hint says Queue; a
// pod rejected by no plugin (an error) moves on any event. A moved pod goes
// to backoffQ while backing off, else to activeQ.
//
// Time is read from the injected Clock only; nothing runs in the background:
// the caller calls Flush() (upstream's Run goroutines) when time has moved.
// Pop() never blocks: it returns null when there is nothing to schedule.
//
// Out of memory: changes made while a Batch is open are recorded in an
// UndoLog (libsched/state/undo_log.h) and undone, without allocating, when
// it closes without Commit(), so a call that fails half-way leaves the
// queue as it was. QueuedPodInfos are shared so that a record can hold one
// that a change took out while the change hands it on.
//
// Fork (ForkFrom, issue 18): O(1). The two queues share activeQ, the two
// backoffQ orders, unschedulablePods and the nominations, each container
// copied (its pointers, O(pods in it)) by the first change to it on either
// side; a change that finds nothing to change (deleting a pod the queue
// does not hold) copies nothing. QueuedPodInfos are shared too: each
// carries the id of the one queue that may write it in place (`owner`);
// a fork gives both sides new ids, so either clones an older one (O(1))
// before it writes it.
//
// Thread-safety: none; the engine serializes calls (its write lock).
// Queues that share containers (ForkFrom) must all be used under one lock
// (the engine family's): a container's use count decides who copies it.
#ifndef LIBSCHED_QUEUE_SCHEDULING_QUEUE_H_
#define LIBSCHED_QUEUE_SCHEDULING_QUEUE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "libsched/framework/cluster_event.h"
#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/pod_nominator.h"
#include "libsched/framework/status.h"
#include "libsched/model/string_hash.h"
#include "libsched/queue/backoff_queue.h"
#include "libsched/queue/clock.h"
#include "libsched/queue/nominator.h"
#include "libsched/queue/pod_heap.h"
#include "libsched/queue/queued_pod_info.h"
#include "libsched/queue/queueing_hint_map.h"
#include "libsched/state/cow.h"
#include "libsched/state/undo_log.h"

namespace sched {

struct QueueOptions {
  Duration pod_initial_backoff = std::chrono::seconds(1);
  Duration pod_max_backoff = std::chrono::seconds(10);
  Duration pod_max_in_unschedulable_pods = std::chrono::minutes(5);
  // SchedulerPopFromBackoffQ (beta, on in v1.36): Pop takes the head of
  // backoffQ when activeQ is empty, and backoff expiries are whole seconds.
  bool pop_from_backoff_q = true;
};

// Queue names as upstream logs them.
inline constexpr std::string_view kActiveQ = "Active";
inline constexpr std::string_view kBackoffQ = "Backoff";
inline constexpr std::string_view kUnschedulableQ = "Unschedulable";
inline constexpr std::string_view kInFlight = "InFlight";

// Where one pod is and why, for inspection (Snapshot()).
struct QueuedPodView {
  std::shared_ptr<const Pod> pod;
  std::string_view queue;  // kActiveQ, kBackoffQ, kUnschedulableQ, kInFlight
  int attempts = 0;
  std::vector<std::string> unschedulable_plugins;
  std::string gating_plugin;  // "" unless gated
  Time timestamp{};
  std::optional<Time> backoff_expiration;  // set when the pod has failed
  // The node this queue nominated the pod to (preemption), "" when none:
  // upstream's status.nominatedNodeName as the nominator holds it.
  std::string nominated_node_name;
};

// preCheck of MoveAllToActiveOrBackoffQueue: false keeps the pod where it is.
using PreEnqueueCheck = std::function<bool(const Pod&)>;

class PriorityQueue final : public PodNominator {
 public:
  // `clock` must outlive the queue; `hints` holds one entry per profile
  // (scheduler name) whose pods this queue takes.
  PriorityQueue(const Clock& clock, QueueingHintMapPerProfile hints, QueueOptions options = {});
  PriorityQueue(const PriorityQueue&) = delete;
  PriorityQueue& operator=(const PriorityQueue&) = delete;

  // Changes while it is open are one unit: destroyed without Commit(), it
  // puts the queue back as it was (cannot fail). Batches nest, as
  // ClusterState's.
  class Batch {
   public:
    explicit Batch(PriorityQueue& q) : q_(q) { q_.undo_.Begin(); }
    ~Batch() {
      if (open_) q_.undo_.Rollback();
    }
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    void Commit() noexcept {
      q_.undo_.Commit();
      open_ = false;
    }

   private:
    PriorityQueue& q_;
    bool open_ = true;
  };

  // Makes this queue hold `other`'s pods, in the same queues and order
  // with the same attempts, timestamps and nominations, and its scheduling
  // cycle (Engine::Fork): O(1), shared copy-on-write (see the top). None
  // of `other`'s open Batches is copied; when `other` is in one (its
  // records name what it shares), this queue copies everything at once
  // instead, O(pods queued). `other` is unchanged but for its owner id.
  // REQUIRES: this queue is new and not in a Batch, no pod of `other` in
  // flight.
  void ForkFrom(const PriorityQueue& other);

  // A new pending pod: to activeQ, or to unschedulablePods if gated. A pod
  // the queue already holds is updated instead. `key` is PodKey(*pod), for
  // a caller that built it already.
  void Add(std::shared_ptr<const Pod> pod, std::string key);
  void Add(std::shared_ptr<const Pod> pod) {
    std::string key = PodKey(*pod);
    Add(std::move(pod), std::move(key));
  }
  // An update of a pending pod. In activeQ / backoffQ it is updated in place;
  // in unschedulablePods the update's events (PodSchedulingPropertiesChange)
  // are checked against its rejecting plugins' hints; in flight the events
  // are recorded for its return; unknown, it is added.
  void Update(const Pod& old_pod, std::shared_ptr<const Pod> new_pod);
  // The pod is gone (deleted or bound by someone else): removed everywhere,
  // nomination included. An in-flight pod is dropped when it comes back.
  void Delete(const Pod& pod);

  // The next pod to schedule (activeQ head, else the head of backoffQ), now
  // in flight; null when there is none. Increments the scheduling cycle and
  // the pod's attempts. The caller must hand it back through
  // AddUnschedulableIfNotPresent or call Done.
  std::shared_ptr<QueuedPodInfo> Pop();
  // The cycle of `p` (popped) is over (bound, or assumed): stop recording
  // events for it. No-op for a pod not in flight.
  void Done(const QueuedPodInfo& p);
  // A popped pod failed: p->unschedulable_plugins holds the plugins that
  // rejected it (empty for an Error). Events received while it was in
  // flight decide: one that its plugins' hints accept sends it to backoffQ
  // (or activeQ once backoff is over); otherwise unschedulablePods, except
  // that a pod that failed with an error always backs off. Calls Done.
  // Error (and the pod is dropped) when the pod is already queued; a pod
  // deleted while in flight is dropped silently.
  Status AddUnschedulableIfNotPresent(std::shared_ptr<QueuedPodInfo> p);

  // A cluster event: moves the unschedulable pods it may help (and that
  // pass `pre_check`, when set); recorded for in-flight pods.
  void MoveAllToActiveOrBackoffQueue(const ClusterEvent& event, const EventObject& old_obj,
                                     const EventObject& new_obj,
                                     const PreEnqueueCheck& pre_check = nullptr);
  // Bound pods changed (eventhandlers.go with queueing hints on):
  // AssignedPodAdd, one event per kind of update, AssignedPodDelete.
  void AssignedPodAdded(std::shared_ptr<const Pod> pod);
  void AssignedPodUpdated(std::shared_ptr<const Pod> old_pod, std::shared_ptr<const Pod> new_pod);
  void AssignedPodDeleted(std::shared_ptr<const Pod> pod);

  // What upstream's Run goroutines do, at the clock's current time: moves
  // pods whose backoff ended to activeQ (flushBackoffQCompleted), then pods
  // unschedulable for longer than pod_max_in_unschedulable_pods to
  // backoffQ / activeQ (flushUnschedulablePodsLeftover).
  void Flush();
  void FlushBackoffQCompleted();
  void FlushUnschedulablePodsLeftover();

  // Nominations (PodNominator and upstream's nominator methods).
  void AddNominatedPod(std::shared_ptr<const Pod> pod,
                       const std::optional<std::string>& node_name = std::nullopt) {
    nominator_.AddNominatedPod(std::move(pod), node_name);
  }
  void DeleteNominatedPodIfExists(const Pod& pod) { nominator_.DeleteNominatedPodIfExists(pod); }
  void UpdateNominatedPod(const Pod& old_pod, std::shared_ptr<const Pod> new_pod) {
    nominator_.UpdateNominatedPod(old_pod, std::move(new_pod));
  }
  std::span<const std::shared_ptr<const Pod>> NominatedPodsOn(
      std::string_view node_name) const override {
    return nominator_.NominatedPodsOn(node_name);
  }
  void ForEachNominatedNode(const NominationsFn& fn) const override {
    nominator_.ForEachNominatedNode(fn);
  }
  bool ForEachNominatedNodeSince(Mark* mark, const NominationsFn& fn) const override {
    return nominator_.ForEachNominatedNodeSince(mark, fn);
  }
  bool HasNominatedPods() const override { return nominator_.HasNominatedPods(); }
  const Nominator& nominator() const { return nominator_; }

  // Pods popped so far (upstream's schedulingCycle).
  int64_t SchedulingCycle() const { return scheduling_cycle_; }
  // Every pod the queue knows: activeQ in pop order, backoffQ in order,
  // unschedulablePods by key, then in-flight pods in pop order.
  std::vector<QueuedPodView> Snapshot() const;
  size_t NumActive() const { return active_q_.Len(); }
  size_t NumInFlight() const { return in_flight_pods_.size(); }

 private:
  enum class Strategy { kSkip, kAfterBackoff };

  // One entry of the in-flight log: a popped pod or an event received
  // while some pod was in flight.
  struct InFlightPod {  // in_flight_pods_ holds its key
    std::shared_ptr<const Pod> pod;  // newest version (updates in flight)
    bool deleted = false;
  };
  struct InFlightEvent {
    ClusterEvent event;
    EventObject old_obj;
    EventObject new_obj;
  };
  using InFlightEntry = std::variant<InFlightPod, InFlightEvent>;

  // REQUIRES: key == PodKey(*pod), key_hash its StringHash.
  std::shared_ptr<QueuedPodInfo> NewQueuedPodInfo(std::shared_ptr<const Pod> pod,
                                                  std::string key, size_t key_hash) const;
  // Makes `p` (not in a container) this queue's own to write: a copy when
  // another queue may share it (ForkFrom).
  void Own(std::shared_ptr<QueuedPodInfo>& p) const;
  // The same for a pod in this queue's unschedulablePods (copied first
  // when shared); recorded.
  std::shared_ptr<QueuedPodInfo>& OwnUnschedulable(std::string_view key);
  // The profile's hints for `pod`, or null for an unknown scheduler name.
  const ProfileQueueingHints* HintsFor(const Pod& pod) const;
  void RunPreEnqueuePlugins(std::shared_ptr<QueuedPodInfo>& p);
  // Removes the pod with `key` from unschedulablePods, if there.
  void EraseUnschedulable(std::string_view key);
  bool IsEventOfInterest(const ClusterEvent& event) const;
  Strategy IsPodWorthRequeuing(const QueuedPodInfo& p, const ClusterEvent& event,
                               const EventObject& old_obj, const EventObject& new_obj) const;
  Strategy SchedulingHintForInFlightPod(const QueuedPodInfo& p,
                                        std::list<InFlightEntry>::const_iterator marker) const;
  // Each returns the queue the pod ended up in.
  std::string_view MoveToActiveQ(std::shared_ptr<QueuedPodInfo> p, std::string_view event);
  std::string_view MoveToBackoffQ(std::shared_ptr<QueuedPodInfo> p, std::string_view event);
  std::string_view Requeue(std::shared_ptr<QueuedPodInfo> p, Strategy strategy,
                           std::string_view event);
  void AddToUnschedulable(std::shared_ptr<QueuedPodInfo> p);
  void MovePodsToActiveOrBackoffQueue(const std::vector<std::string>& keys,
                                      const ClusterEvent& event, const EventObject& old_obj,
                                      const EventObject& new_obj);

  UndoLog undo_;  // first: the structures below record into it
  const Clock& clock_;
  QueueingHintMapPerProfile hints_;
  QueueOptions options_;
  // Which QueuedPodInfos this queue may write in place: those whose
  // `owner` is this. New at construction, and again each time another
  // queue is forked from this one (never reused: a counter).
  mutable uint64_t owner_;
  PodHeap active_q_;
  BackoffQueue backoff_q_;
  using UnschedulablePods = std::map<std::string, std::shared_ptr<QueuedPodInfo>, std::less<>>;
  Cow<UnschedulablePods> unschedulable_pods_;
  std::list<InFlightEntry> in_flight_;  // pods and events, in arrival order
  using InFlightPods = std::unordered_map<std::string, std::list<InFlightEntry>::iterator,
                                          StringHash, std::equal_to<>>;
  InFlightPods in_flight_pods_;  // by key; looked up by HashedKey too
  Nominator nominator_;
  int64_t scheduling_cycle_ = 0;
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_SCHEDULING_QUEUE_H_
