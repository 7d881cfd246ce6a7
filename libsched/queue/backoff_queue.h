// BackoffQueue: pods waiting out their backoff after a failed attempt,
// mirroring pkg/scheduler/backend/queue/backoff_queue.go (v1.36.3).
//
// Backoff doubles per counted failure from the initial duration up to the
// max: initial << (count-1), capped. The count is consecutive_errors_count
// when the last attempt ended in an error, else unschedulable_count. Pods
// rejected by plugins and pods that failed with an error wait in separate
// orders; only the first kind can be popped early when activeQ is empty.
// With SchedulerPopFromBackoffQ (beta, on by default in v1.36) expiries are
// truncated to whole seconds of the clock and ties are ordered like activeQ.
//
// Thread-safety: none; the owning PriorityQueue serializes calls.
#ifndef LIBSCHED_QUEUE_BACKOFF_QUEUE_H_
#define LIBSCHED_QUEUE_BACKOFF_QUEUE_H_

#include <memory>
#include <string_view>
#include <vector>

#include "libsched/queue/clock.h"
#include "libsched/queue/pod_heap.h"

namespace sched {

class BackoffQueue {
 public:
  // `active_order` orders activeQ (used for ties within one second).
  // Changes are recorded in `log` (may be null), which must outlive it.
  BackoffQueue(const Clock& clock, Duration initial, Duration max, bool pop_from_backoff_q,
               PodHeap::OrderFn active_order, UndoLog* log = nullptr);

  // The instant `p`'s backoff ends (cached in p.backoff_expiration);
  // Time::min() when it has no failure to back off from or max is 0.
  Time BackoffTime(QueuedPodInfo& p) const;
  // The same, without reading or filling the cache.
  Time ComputeBackoffTime(const QueuedPodInfo& p) const;
  // Whether `p` is still backing off now.
  bool IsPodBackingoff(QueuedPodInfo& p) const;
  // calculateBackoffDuration: initial << (count-1), at most max.
  Duration BackoffDuration(int count) const;

  // Shares `other`'s pods, O(1) (PodHeap::ShareFrom).
  void ShareFrom(const BackoffQueue& other) {
    backoff_.ShareFrom(other.backoff_);
    error_backoff_.ShareFrom(other.error_backoff_);
  }
  // PodHeap::UnshareAll of both orders.
  template <typename Fn>
  void UnshareAll(const Fn& copy) {
    backoff_.UnshareAll(copy);
    error_backoff_.UnshareAll(copy);
  }

  // Adds `p` to the order its last failure selects.
  void Add(std::shared_ptr<QueuedPodInfo> p);
  QueuedPodInfo* Get(const HashedKey& key) const;
  bool Has(const HashedKey& key) const { return Get(key) != nullptr; }
  std::shared_ptr<QueuedPodInfo> Delete(const HashedKey& key);
  // popAllBackoffCompleted: removes every pod whose backoff ended, the
  // plugin-rejected ones first, each in expiry order.
  std::vector<std::shared_ptr<QueuedPodInfo>> PopAllBackoffCompleted();
  // popBackoff: the head of the plugin-rejected order, backing off or not
  // (null when empty); for Pop when activeQ is empty.
  std::shared_ptr<QueuedPodInfo> PopBackoff() { return backoff_.Pop(); }
  // Plugin-rejected pods in order, then errored ones in order.
  std::vector<const QueuedPodInfo*> List() const;

 private:
  Time AlignToWindow(Time t) const;

  const Clock& clock_;
  Duration initial_;
  Duration max_;
  bool pop_from_backoff_q_;
  PodHeap backoff_;
  PodHeap error_backoff_;
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_BACKOFF_QUEUE_H_
