#include "libsched/state/node_info.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>

namespace sched {
namespace {

bool ByAtom(const std::pair<Atom, int64_t>& e, Atom a) { return e.first < a; }

constexpr size_t kAbsent = SIZE_MAX;

// Where `x` is in `v`, or kAbsent.
template <class T>
size_t IndexOf(const std::vector<T>& v, const T& x) {
  auto it = std::find(v.begin(), v.end(), x);
  return it == v.end() ? kAbsent : static_cast<size_t>(it - v.begin());
}

// Swap-removes v[i], as upstream's removeFromSlice, and returns it.
template <class T>
T SwapRemove(std::vector<T>& v, size_t i) {
  T x = std::move(v[i]);
  if (i + 1 != v.size()) v[i] = std::move(v.back());
  v.pop_back();
  return x;
}

// Undoes the SwapRemove(v, i) that returned x: within the capacity it
// left, so without allocating.
template <class T>
void UndoSwapRemove(std::vector<T>& v, size_t i, T x) noexcept {
  if (i == v.size()) {
    v.push_back(std::move(x));
    return;
  }
  v.push_back(std::move(v[i]));
  v[i] = std::move(x);
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

void NodeInfo::SetNode(std::shared_ptr<const Node> node, uint64_t generation, UndoLog* log) {
  ImageSizes sizes;
  for (const auto& img : node->images) {
    for (Atom name : img.names) sizes.push_back({name, img.size_bytes});
  }
  std::sort(sizes.begin(), sizes.end());
  // A name listed twice keeps its first (smallest id order) entry.
  sizes.erase(std::unique(sizes.begin(), sizes.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              sizes.end());
  ReplaceNode(std::move(node), std::move(sizes), generation, log);
}

void NodeInfo::ClearNode(uint64_t generation, UndoLog* log) {
  ReplaceNode(nullptr, {}, generation, log);
}

void NodeInfo::ReplaceNode(std::shared_ptr<const Node> node, ImageSizes sizes, uint64_t generation,
                           UndoLog* log) {
  const bool recording = log != nullptr && log->recording();
  if (recording) log->Reserve();
  node_.swap(node);
  image_sizes_.swap(sizes);
  const uint64_t old_generation = std::exchange(generation_, generation);
  if (!recording) return;
  log->Record([this, node = std::move(node), sizes = std::move(sizes), old_generation]() mutable
              noexcept {
                node_ = std::move(node);
                image_sizes_ = std::move(sizes);
                generation_ = old_generation;
              });
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

void NodeInfo::AddPod(std::shared_ptr<const Pod> pod, uint64_t generation, UndoLog* log) {
  const bool recording = log != nullptr && log->recording();
  const auto& scalar = pod->requests.scalar;
  const bool new_scalar = std::any_of(scalar.begin(), scalar.end(), [this](const auto& e) {
    auto it = std::lower_bound(exact_.scalar.begin(), exact_.scalar.end(), e.first,
                               [](const auto& x, Atom n) { return x.first < n; });
    return it == exact_.scalar.end() || it->first != e.first;
  });
  if (new_scalar) {
    // A name first counted here inserts entries: saved whole, once per name
    // and node; the sums of names counted already are undone as a change.
    if (recording) {
      undo::Save(log, exact_.scalar);
      undo::Save(log, requested_.scalar);
    }
    MakeRoom(exact_.scalar, scalar.size());
    MakeRoom(requested_.scalar, scalar.size());
  }
  MakeRoom(used_ports_, pod->host_ports.size());
  if (pod->pod_affinity.has_pod_affinity) MakeRoom(pods_with_affinity_, 1);
  if (pod->pod_affinity.has_required_anti_affinity) MakeRoom(pods_with_required_anti_affinity_, 1);
  MakeRoom(pods_, 1);
  if (recording) log->Reserve();
  const uint64_t old_generation = generation_;
  const size_t used_ports = used_ports_.size();
  // At the end, with room: copies all or none (an ip string may throw).
  // Nothing after it throws.
  used_ports_.insert(used_ports_.end(), pod->host_ports.begin(), pod->host_ports.end());
  AccountRequests(*pod, 1);
  if (pod->pod_affinity.has_pod_affinity) pods_with_affinity_.push_back(pod.get());
  if (pod->pod_affinity.has_required_anti_affinity) {
    pods_with_required_anti_affinity_.push_back(pod.get());
  }
  pods_.push_back(std::move(pod));
  generation_ = generation;
  if (recording) {
    log->Record([this, old_generation, used_ports]() noexcept {
      UndoAddPod(old_generation, used_ports);
    });
  }
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

bool NodeInfo::RemovePod(const Pod* pod, uint64_t generation, UndoLog* log) {
  auto it = std::find_if(pods_.begin(), pods_.end(),
                         [pod](const auto& p) { return p.get() == pod; });
  if (it == pods_.end()) return false;
  const size_t at = static_cast<size_t>(it - pods_.begin());
  // Each port taken out whole, into its own record.
  for (const auto& hp : pod->host_ports) {
    if (const size_t u = IndexOf(used_ports_, hp); u != kAbsent) undo::EraseAt(log, used_ports_, u);
  }
  const bool recording = log != nullptr && log->recording();
  if (recording) log->Reserve();
  AccountRequests(*pod, -1);  // the pod's entries exist: no insertion
  const size_t affinity = IndexOf(pods_with_affinity_, pod);
  if (affinity != kAbsent) SwapRemove(pods_with_affinity_, affinity);
  const size_t anti = IndexOf(pods_with_required_anti_affinity_, pod);
  if (anti != kAbsent) SwapRemove(pods_with_required_anti_affinity_, anti);
  std::shared_ptr<const Pod> removed = SwapRemove(pods_, at);
  const uint64_t old_generation = std::exchange(generation_, generation);
  if (!recording) return true;
  log->Record([this, removed = std::move(removed), at, affinity, anti, old_generation]() mutable
              noexcept {
                const Pod* p = removed.get();
                UndoSwapRemove(pods_, at, std::move(removed));
                if (anti != kAbsent) UndoSwapRemove(pods_with_required_anti_affinity_, anti, p);
                if (affinity != kAbsent) UndoSwapRemove(pods_with_affinity_, affinity, p);
                AccountRequests(*p, 1);  // into the entries it left: no insertion
                generation_ = old_generation;
              });
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
}

}  // namespace sched
