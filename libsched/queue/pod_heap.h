// PodHeap: QueuedPodInfos owned by key and kept in an order, with lookup and
// removal by key (upstream's pkg/scheduler/backend/heap). The order is an
// item's OrderKey (numbers compared in turn), ties broken by key so that it
// is total and deterministic. The OrderKey is computed once per insertion
// and kept beside the item, so a comparison reads no item and calls nothing.
//
// Items are shared (std::shared_ptr) so that an UndoLog record can hold an
// item a change took out while the change hands it on (undo_log.h); with
// a log, every change is recorded there.
//
// Copy-on-write (a forked queue, issue 18): ShareFrom() makes two heaps
// share one order and index in O(1); the first change to a shared heap
// copies them (O(items): the pointers, not the items). Items themselves
// are not copied: the owning queue clones a shared item before it writes
// one (PriorityQueue::Own).
//
// REQUIRES: the fields `order` reads do not change while an item is inside;
// Update() takes the item out around a change. Not thread-safe.
#ifndef LIBSCHED_QUEUE_POD_HEAP_H_
#define LIBSCHED_QUEUE_POD_HEAP_H_

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libsched/model/string_hash.h"
#include "libsched/queue/queued_pod_info.h"
#include "libsched/state/cow.h"
#include "libsched/state/undo_log.h"

namespace sched {

class PodHeap {
 public:
  // An item's place: smaller sorts first, compared element by element.
  using OrderKey = std::array<int64_t, 3>;
  using OrderFn = std::function<OrderKey(const QueuedPodInfo&)>;
  // `log` (may be null) must outlive the heap.
  explicit PodHeap(OrderFn order, UndoLog* log = nullptr)
      : log_(log), data_(std::make_shared<Data>(std::move(order))) {}

  // Shares `other`'s items and order, O(1); the first change to either
  // copies them. REQUIRES: this heap's log is not recording.
  void ShareFrom(const PodHeap& other) { data_ = other.data_; }
  // Makes the order and index this heap's own and replaces every item by
  // copy(item) (a fork taken inside an open unit: none of it may stay
  // shared). Not recorded. O(items).
  void UnshareAll(const std::function<std::shared_ptr<QueuedPodInfo>(const QueuedPodInfo&)>& copy);

  // Adds `p`, replacing an item with the same key.
  void AddOrUpdate(std::shared_ptr<QueuedPodInfo> p);
  // The item with `key`, or null.
  QueuedPodInfo* Get(const HashedKey& key) const;
  bool Has(const HashedKey& key) const { return Get(key) != nullptr; }
  // Removes and returns the item with `key`, or null.
  std::shared_ptr<QueuedPodInfo> Delete(const HashedKey& key);
  // The first item in order, or null.
  QueuedPodInfo* Peek() const {
    return data_->order.empty() ? nullptr : data_->order.begin()->item;
  }
  // Removes and returns the first item, or null.
  std::shared_ptr<QueuedPodInfo> Pop();
  size_t Len() const { return data_->items.size(); }
  // The items in order.
  std::vector<const QueuedPodInfo*> List() const;

 private:
  struct Entry {
    OrderKey order;
    QueuedPodInfo* item;
    bool operator<(const Entry& o) const {
      // Element by element: std::array's operators call memcmp for ==.
      for (size_t i = 0; i < order.size(); ++i) {
        if (order[i] != o.order[i]) return order[i] < o.order[i];
      }
      return item->key < o.item->key;
    }
  };
  using Items = std::unordered_map<HashedKey, std::shared_ptr<QueuedPodInfo>, StringHash,
                                   std::equal_to<>>;
  struct Data {
    Data() = default;  // for Unshare's null case, which never arises: data_ is set
    explicit Data(OrderFn f) : order_of(std::move(f)) {}
    OrderFn order_of;  // sorted `order`; it travels with it to a heap that shares it
    // Looked up by key several times per queue operation; never iterated
    // in an order that matters (order is). A key views its item's own
    // (which never changes, and lives as long as the entry holds the
    // item) with its hash (QueuedPodInfo::key_hash): no string copied and
    // nothing hashed per insertion.
    Items items;
    std::set<Entry> order;
  };
  // The data, this heap's own (copied first when shared, recorded).
  Data& Mutable() { return Unshare(data_, log_); }
  Entry EntryOf(QueuedPodInfo* p) const { return {data_->order_of(*p), p}; }
  // Removes the item at `it`, whose entry in order is `entry`, and returns it.
  std::shared_ptr<QueuedPodInfo> Take(Data& d, Items::iterator it, std::set<Entry>::iterator entry);

  UndoLog* log_;
  std::shared_ptr<Data> data_;  // never null
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_POD_HEAP_H_
