#include "libsched/queue/backoff_queue.h"

#include <chrono>
#include <utility>

namespace sched {
namespace {

// backoffQOrderingWindowDuration.
constexpr Duration kOrderingWindow = std::chrono::seconds(1);

int64_t Expiry(const QueuedPodInfo& p) {
  return p.backoff_expiration.value_or(Time::min()).count();
}

}  // namespace

BackoffQueue::BackoffQueue(const Clock& clock, Duration initial, Duration max,
                           bool pop_from_backoff_q, PodHeap::OrderFn active_order, UndoLog* log)
    : clock_(clock),
      initial_(initial),
      max_(max),
      pop_from_backoff_q_(pop_from_backoff_q),
      backoff_(
          [pop_from_backoff_q, active_order](const QueuedPodInfo& p) -> PodHeap::OrderKey {
            if (!pop_from_backoff_q) return {Expiry(p), 0, 0};
            const PodHeap::OrderKey active = active_order(p);  // its last is 0
            return {Expiry(p), active[0], active[1]};
          },
          log),
      error_backoff_([](const QueuedPodInfo& p) -> PodHeap::OrderKey { return {Expiry(p), 0, 0}; },
                     log) {}

Time BackoffQueue::AlignToWindow(Time t) const {
  if (!pop_from_backoff_q_) return t;
  // Truncate toward the past, as Go's Time.Truncate.
  Time r = t % kOrderingWindow;
  if (r < Time::zero()) r += kOrderingWindow;
  return t - r;
}

Duration BackoffQueue::BackoffDuration(int count) const {
  if (count <= 0) return Duration::zero();
  const int shift = count - 1;
  // A shift of 62 or more overflows any positive initial: it is the max.
  if (shift >= 62 || initial_.count() > (max_.count() >> shift)) return max_;
  return Duration(initial_.count() << shift);
}

Time BackoffQueue::ComputeBackoffTime(const QueuedPodInfo& p) const {
  if (max_ == Duration::zero()) return Time::min();
  const int count =
      p.consecutive_errors_count > 0 ? p.consecutive_errors_count : p.unschedulable_count;
  if (count == 0) return Time::min();
  return AlignToWindow(p.timestamp + BackoffDuration(count));
}

Time BackoffQueue::BackoffTime(QueuedPodInfo& p) const {
  if (!p.backoff_expiration) p.backoff_expiration = ComputeBackoffTime(p);
  return *p.backoff_expiration;
}

bool BackoffQueue::IsPodBackingoff(QueuedPodInfo& p) const {
  return BackoffTime(p) >= AlignToWindow(clock_.Now());
}

void BackoffQueue::Add(std::shared_ptr<QueuedPodInfo> p) {
  BackoffTime(*p);  // fills the cache the order reads
  const bool errored = p->unschedulable_plugins.empty();
  (errored ? backoff_ : error_backoff_).Delete(p->hashed_key());
  (errored ? error_backoff_ : backoff_).AddOrUpdate(std::move(p));
}

QueuedPodInfo* BackoffQueue::Get(const HashedKey& key) const {
  QueuedPodInfo* p = backoff_.Get(key);
  return p != nullptr ? p : error_backoff_.Get(key);
}

std::shared_ptr<QueuedPodInfo> BackoffQueue::Delete(const HashedKey& key) {
  auto p = backoff_.Delete(key);
  return p != nullptr ? std::move(p) : error_backoff_.Delete(key);
}

std::vector<std::shared_ptr<QueuedPodInfo>> BackoffQueue::PopAllBackoffCompleted() {
  std::vector<std::shared_ptr<QueuedPodInfo>> out;
  for (PodHeap* h : {&backoff_, &error_backoff_}) {
    while (QueuedPodInfo* head = h->Peek()) {
      if (IsPodBackingoff(*head)) break;
      out.push_back(h->Pop());
    }
  }
  return out;
}

std::vector<const QueuedPodInfo*> BackoffQueue::List() const {
  std::vector<const QueuedPodInfo*> out = backoff_.List();
  for (const QueuedPodInfo* p : error_backoff_.List()) out.push_back(p);
  return out;
}

}  // namespace sched
