#include "libsched/state/node_info.h"

#include <algorithm>

namespace sched {
namespace {

bool ByAtom(const std::pair<Atom, int64_t>& e, Atom a) { return e.first < a; }

// Swap-removes `pod` from `v` if present, as upstream's removeFromSlice.
void Erase(std::vector<const Pod*>& v, const Pod* pod) {
  auto it = std::find(v.begin(), v.end(), pod);
  if (it == v.end()) return;
  *it = v.back();
  v.pop_back();
}

}  // namespace

std::optional<int64_t> NodeInfo::ImageSize(Atom image) const {
  auto it = std::lower_bound(image_sizes_.begin(), image_sizes_.end(), image, ByAtom);
  if (it == image_sizes_.end() || it->first != image) return std::nullopt;
  return it->second;
}

void NodeInfo::SetNode(std::shared_ptr<const Node> node, uint64_t generation) {
  node_ = std::move(node);
  image_sizes_.clear();
  for (const auto& img : node_->images) {
    for (Atom name : img.names) image_sizes_.push_back({name, img.size_bytes});
  }
  std::sort(image_sizes_.begin(), image_sizes_.end());
  // A name listed twice keeps its first (smallest id order) entry.
  image_sizes_.erase(std::unique(image_sizes_.begin(), image_sizes_.end(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; }),
                     image_sizes_.end());
  generation_ = generation;
}

void NodeInfo::ClearNode(uint64_t generation) {
  node_.reset();
  image_sizes_.clear();
  generation_ = generation;
}

void NodeInfo::AddPod(std::shared_ptr<const Pod> pod, uint64_t generation) {
  requested_.Add(pod->requests);
  non_zero_requested_.milli_cpu =
      SaturatingAdd(non_zero_requested_.milli_cpu, pod->non_zero_requests.milli_cpu);
  non_zero_requested_.memory =
      SaturatingAdd(non_zero_requested_.memory, pod->non_zero_requests.memory);
  used_ports_.insert(used_ports_.end(), pod->host_ports.begin(), pod->host_ports.end());
  if (pod->pod_affinity.has_pod_affinity) pods_with_affinity_.push_back(pod.get());
  if (pod->pod_affinity.has_required_anti_affinity) {
    pods_with_required_anti_affinity_.push_back(pod.get());
  }
  pods_.push_back(std::move(pod));
  generation_ = generation;
}

bool NodeInfo::RemovePod(const Pod* pod, uint64_t generation) {
  auto it = std::find_if(pods_.begin(), pods_.end(),
                         [pod](const auto& p) { return p.get() == pod; });
  if (it == pods_.end()) return false;
  requested_.Sub(pod->requests);
  non_zero_requested_.milli_cpu =
      SaturatingSub(non_zero_requested_.milli_cpu, pod->non_zero_requests.milli_cpu);
  non_zero_requested_.memory =
      SaturatingSub(non_zero_requested_.memory, pod->non_zero_requests.memory);
  for (const auto& hp : pod->host_ports) {
    auto u = std::find(used_ports_.begin(), used_ports_.end(), hp);
    if (u != used_ports_.end()) used_ports_.erase(u);
  }
  Erase(pods_with_affinity_, pod);
  Erase(pods_with_required_anti_affinity_, pod);
  // Swap-remove, as upstream does: pod order on a node is not stable.
  *it = std::move(pods_.back());
  pods_.pop_back();
  generation_ = generation;
  return true;
}

}  // namespace sched
