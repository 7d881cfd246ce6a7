#include "libsched/queue/pod_heap.h"

namespace sched {

void PodHeap::AddOrUpdate(std::shared_ptr<QueuedPodInfo> p) {
  Delete(p->key);
  QueuedPodInfo* raw = p.get();
  std::string key = p->key;
  // items_ owns p, so it goes in first: undo (newest first) then takes p out
  // of order_, whose comparator reads p, while items_ still keeps p alive.
  undo::TryEmplace(log_, items_, std::move(key), std::move(p));
  undo::Insert(log_, order_, raw);
}

QueuedPodInfo* PodHeap::Get(std::string_view key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second.get();
}

std::shared_ptr<QueuedPodInfo> PodHeap::Delete(std::string_view key) {
  auto it = items_.find(key);
  if (it == items_.end()) return nullptr;
  std::shared_ptr<QueuedPodInfo> p = it->second;
  undo::Erase(log_, order_, order_.find(p.get()));
  undo::Erase(log_, items_, it);
  return p;
}

std::shared_ptr<QueuedPodInfo> PodHeap::Pop() {
  if (order_.empty()) return nullptr;
  return Delete((*order_.begin())->key);
}

}  // namespace sched
