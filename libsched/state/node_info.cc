#include "libsched/state/node_info.h"

#include <algorithm>
#include <limits>

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

// Room for `n` more elements, grown as push_back grows it.
template <class T>
void MakeRoom(std::vector<T>& v, size_t n) {
  if (v.capacity() - v.size() < n) v.reserve(std::max(v.size() + n, 2 * v.size()));
}

// A sum as the aggregates expose it: requests are never negative, so only
// the upper bound can be crossed.
template <class W>
int64_t Clamp(W v) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  return v > kMax ? kMax : static_cast<int64_t>(v);
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

void NodeInfo::AccountRequests(const Pod& pod, int sign) {
  auto account = [sign](Wide& sum, int64_t v, int64_t& exposed) {
    sum += static_cast<Wide>(v) * sign;
    exposed = Clamp(sum);
  };
  const Resource& r = pod.requests;
  account(exact_.milli_cpu, r.milli_cpu, requested_.milli_cpu);
  account(exact_.memory, r.memory, requested_.memory);
  account(exact_.ephemeral_storage, r.ephemeral_storage, requested_.ephemeral_storage);
  account(exact_.allowed_pods, r.allowed_pods, requested_.allowed_pods);
  for (const auto& [name, v] : r.scalar) {
    auto it = std::lower_bound(exact_.scalar.begin(), exact_.scalar.end(), name,
                               [](const auto& e, Atom n) { return e.first < n; });
    if (it == exact_.scalar.end() || it->first != name) it = exact_.scalar.insert(it, {name, 0});
    it->second += static_cast<Wide>(v) * sign;
    requested_.SetScalar(name, Clamp(it->second));
  }
  account(exact_.non_zero_milli_cpu, pod.non_zero_requests.milli_cpu,
          non_zero_requested_.milli_cpu);
  account(exact_.non_zero_memory, pod.non_zero_requests.memory, non_zero_requested_.memory);
}

void NodeInfo::AddPod(std::shared_ptr<const Pod> pod, uint64_t generation) {
  MakeRoom(used_ports_, pod->host_ports.size());
  if (pod->pod_affinity.has_pod_affinity) MakeRoom(pods_with_affinity_, 1);
  if (pod->pod_affinity.has_required_anti_affinity) MakeRoom(pods_with_required_anti_affinity_, 1);
  MakeRoom(pods_, 1);
  // At the end, with room: copies all or none (an ip string may throw).
  used_ports_.insert(used_ports_.end(), pod->host_ports.begin(), pod->host_ports.end());
  AccountRequests(*pod, 1);  // throws only inserting a scalar entry
  if (pod->pod_affinity.has_pod_affinity) pods_with_affinity_.push_back(pod.get());
  if (pod->pod_affinity.has_required_anti_affinity) {
    pods_with_required_anti_affinity_.push_back(pod.get());
  }
  pods_.push_back(std::move(pod));
  generation_ = generation;
}

void NodeInfo::UndoAddPod(uint64_t generation, size_t used_ports) noexcept {
  const Pod& pod = *pods_.back();
  AccountRequests(pod, -1);
  used_ports_.resize(used_ports);  // shrinks: no allocation
  if (pod.pod_affinity.has_pod_affinity) pods_with_affinity_.pop_back();
  if (pod.pod_affinity.has_required_anti_affinity) pods_with_required_anti_affinity_.pop_back();
  pods_.pop_back();
  generation_ = generation;
}

bool NodeInfo::RemovePod(const Pod* pod, uint64_t generation) {
  auto it = std::find_if(pods_.begin(), pods_.end(),
                         [pod](const auto& p) { return p.get() == pod; });
  if (it == pods_.end()) return false;
  AccountRequests(*pod, -1);
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

void NodeInfo::Reset() {
  node_.reset();
  pods_.clear();
  pods_with_affinity_.clear();
  pods_with_required_anti_affinity_.clear();
  std::vector<std::pair<Atom, Wide>> scalar = std::move(exact_.scalar);
  scalar.clear();
  exact_ = ExactRequests{};
  exact_.scalar = std::move(scalar);
  requested_ = Resource{};
  non_zero_requested_ = Resource{};
  used_ports_.clear();
  image_sizes_.clear();
  generation_ = 0;
  index_ = kNoIndex;
  batch_ = 0;
}

}  // namespace sched
