#include "libsched/queue/pod_heap.h"

namespace sched {

void PodHeap::UnshareAll(
    const std::function<std::shared_ptr<QueuedPodInfo>(const QueuedPodInfo&)>& copy) {
  Data& d = Unshare(data_, nullptr);
  d.order.clear();
  // Each copy keys its entry by its own key: a new map.
  decltype(d.items) items(d.items.bucket_count());
  for (const auto& [key, p] : d.items) {
    std::shared_ptr<QueuedPodInfo> c = copy(*p);
    d.order.insert(EntryOf(c.get()));
    items.emplace(c->hashed_key(), std::move(c));
  }
  d.items = std::move(items);
}

void PodHeap::AddOrUpdate(std::shared_ptr<QueuedPodInfo> p) {
  Delete(p->hashed_key());
  Data& d = Mutable();
  QueuedPodInfo* raw = p.get();
  // items owns p, so it goes in first: undo (newest first) then takes p out
  // of order, whose comparator reads p, while items still keeps p alive.
  undo::TryEmplace(log_, d.items, raw->hashed_key(), std::move(p));
  undo::Insert(log_, d.order, EntryOf(raw));
}

QueuedPodInfo* PodHeap::Get(const HashedKey& key) const {
  if (data_->items.empty()) return nullptr;  // nothing to look up (backoffQ mostly)
  auto it = data_->items.find(key);
  return it == data_->items.end() ? nullptr : it->second.get();
}

std::shared_ptr<QueuedPodInfo> PodHeap::Delete(const HashedKey& key) {
  if (data_->items.empty()) return nullptr;
  auto it = data_->items.find(key);
  if (it == data_->items.end()) return nullptr;  // no write: a shared heap stays shared
  const Data* before = data_.get();
  Data& d = Mutable();
  if (&d != before) it = d.items.find(key);
  return Take(d, it, d.order.find(EntryOf(it->second.get())));
}

std::shared_ptr<QueuedPodInfo> PodHeap::Pop() {
  if (data_->order.empty()) return nullptr;
  // The first entry as it is: no search of `order` for it, and no call of
  // order_of to build its key.
  Data& d = Mutable();
  const auto first = d.order.begin();
  return Take(d, d.items.find(first->item->hashed_key()), first);
}

std::shared_ptr<QueuedPodInfo> PodHeap::Take(Data& d, Items::iterator it,
                                             std::set<Entry>::iterator entry) {
  std::shared_ptr<QueuedPodInfo> p = it->second;
  undo::Erase(log_, d.order, entry);
  undo::Erase(log_, d.items, it);
  return p;
}

std::vector<const QueuedPodInfo*> PodHeap::List() const {
  std::vector<const QueuedPodInfo*> out;
  out.reserve(data_->order.size());
  for (const Entry& e : data_->order) out.push_back(e.item);
  return out;
}

}  // namespace sched
