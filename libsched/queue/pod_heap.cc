#include "libsched/queue/pod_heap.h"

namespace sched {

void PodHeap::AddOrUpdate(std::unique_ptr<QueuedPodInfo> p) {
  Delete(p->key);
  order_.insert(p.get());
  std::string key = p->key;
  items_.emplace(std::move(key), std::move(p));
}

QueuedPodInfo* PodHeap::Get(std::string_view key) const {
  auto it = items_.find(key);
  return it == items_.end() ? nullptr : it->second.get();
}

std::unique_ptr<QueuedPodInfo> PodHeap::Delete(std::string_view key) {
  auto it = items_.find(key);
  if (it == items_.end()) return nullptr;
  std::unique_ptr<QueuedPodInfo> p = std::move(it->second);
  items_.erase(it);
  order_.erase(p.get());
  return p;
}

std::unique_ptr<QueuedPodInfo> PodHeap::Pop() {
  if (order_.empty()) return nullptr;
  return Delete((*order_.begin())->key);
}

}  // namespace sched
