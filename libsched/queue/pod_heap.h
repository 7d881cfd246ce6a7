// PodHeap: QueuedPodInfos owned by key and kept in an order, with lookup and
// removal by key (upstream's pkg/scheduler/backend/heap). Ties in `less` are
// broken by key so the order is total and deterministic.
//
// Items are shared (std::shared_ptr) so that an UndoLog record can hold an
// item a change took out while the change hands it on (undo_log.h); with
// a log, every change is recorded there.
//
// REQUIRES: the fields `less` reads do not change while an item is inside;
// Update() takes the item out around a change. Not thread-safe.
#ifndef LIBSCHED_QUEUE_POD_HEAP_H_
#define LIBSCHED_QUEUE_POD_HEAP_H_

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/queue/queued_pod_info.h"
#include "libsched/state/undo_log.h"

namespace sched {

class PodHeap {
 public:
  using LessFn = std::function<bool(const QueuedPodInfo&, const QueuedPodInfo&)>;
  // `log` (may be null) must outlive the heap.
  explicit PodHeap(LessFn less, UndoLog* log = nullptr) : log_(log), order_(Cmp{std::move(less)}) {}

  // Adds `p`, replacing an item with the same key.
  void AddOrUpdate(std::shared_ptr<QueuedPodInfo> p);
  // The item with `key`, or null.
  QueuedPodInfo* Get(std::string_view key) const;
  bool Has(std::string_view key) const { return Get(key) != nullptr; }
  // Removes and returns the item with `key`, or null.
  std::shared_ptr<QueuedPodInfo> Delete(std::string_view key);
  // The first item in order, or null.
  QueuedPodInfo* Peek() const { return order_.empty() ? nullptr : *order_.begin(); }
  // Removes and returns the first item, or null.
  std::shared_ptr<QueuedPodInfo> Pop();
  size_t Len() const { return items_.size(); }
  // The items in order.
  std::vector<const QueuedPodInfo*> List() const { return {order_.begin(), order_.end()}; }

 private:
  struct Cmp {
    LessFn less;
    bool operator()(const QueuedPodInfo* a, const QueuedPodInfo* b) const {
      if (less(*a, *b)) return true;
      if (less(*b, *a)) return false;
      return a->key < b->key;
    }
  };
  UndoLog* log_;
  std::map<std::string, std::shared_ptr<QueuedPodInfo>, std::less<>> items_;
  std::set<QueuedPodInfo*, Cmp> order_;
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_POD_HEAP_H_
