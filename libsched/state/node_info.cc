#include "libsched/state/node_info.h"

#include <algorithm>
#include <limits>

namespace sched {
namespace {

bool ByAtom(const std::pair<Atom, int64_t>& e, Atom a) { return e.first < a; }

constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();

bool IsSaturated(const Resource& r) {
  if (r.milli_cpu == kSaturated || r.memory == kSaturated ||
      r.ephemeral_storage == kSaturated || r.allowed_pods == kSaturated) {
    return true;
  }
  return std::any_of(r.scalar.begin(), r.scalar.end(),
                     [](const auto& e) { return e.second == kSaturated; });
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

void NodeInfo::AddRequests(const Pod& pod) {
  requested_.Add(pod.requests);
  non_zero_requested_.milli_cpu =
      SaturatingAdd(non_zero_requested_.milli_cpu, pod.non_zero_requests.milli_cpu);
  non_zero_requested_.memory =
      SaturatingAdd(non_zero_requested_.memory, pod.non_zero_requests.memory);
}

void NodeInfo::AddPod(std::shared_ptr<const Pod> pod, uint64_t generation) {
  AddRequests(*pod);
  used_ports_.insert(used_ports_.end(), pod->host_ports.begin(), pod->host_ports.end());
  pods_.push_back(std::move(pod));
  generation_ = generation;
}

bool NodeInfo::RemovePod(const Pod* pod, uint64_t generation) {
  auto it = std::find_if(pods_.begin(), pods_.end(),
                         [pod](const auto& p) { return p.get() == pod; });
  if (it == pods_.end()) return false;
  // A saturated sum no longer knows its true value: subtracting from it
  // would leave too little, so re-add the remaining pods instead.
  const bool saturated = IsSaturated(requested_) ||
                         non_zero_requested_.milli_cpu == kSaturated ||
                         non_zero_requested_.memory == kSaturated;
  requested_.Sub(pod->requests);
  non_zero_requested_.milli_cpu =
      SaturatingSub(non_zero_requested_.milli_cpu, pod->non_zero_requests.milli_cpu);
  non_zero_requested_.memory =
      SaturatingSub(non_zero_requested_.memory, pod->non_zero_requests.memory);
  for (const auto& hp : pod->host_ports) {
    auto u = std::find(used_ports_.begin(), used_ports_.end(), hp);
    if (u != used_ports_.end()) used_ports_.erase(u);
  }
  // Swap-remove, as upstream does: pod order on a node is not stable.
  *it = std::move(pods_.back());
  pods_.pop_back();
  if (saturated) {
    requested_ = Resource();
    non_zero_requested_ = Resource();
    for (const auto& p : pods_) AddRequests(*p);
  }
  generation_ = generation;
  return true;
}

}  // namespace sched
