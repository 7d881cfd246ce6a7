#include "libsched/plugins/image_locality.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

#include "libsched/model/resource.h"

namespace sched {
namespace {

constexpr int64_t kMB = 1024 * 1024;
constexpr int64_t kMinThreshold = 23 * kMB;
constexpr int64_t kMaxContainerThreshold = 1000 * kMB;

// PreScore data: the snapshot's node count and, parallel to Pod::images,
// how many nodes hold each image.
struct PreScoreState final : StateData {
  int64_t total_num_nodes = 0;
  std::vector<int> num_nodes;
};

// calculatePriority.
int64_t CalculatePriority(int64_t sum, int64_t num_containers) {
  const int64_t max_threshold = kMaxContainerThreshold * num_containers;
  if (sum < kMinThreshold) {
    sum = kMinThreshold;
  } else if (sum > max_threshold) {
    sum = max_threshold;
  }
  return kMaxNodeScore * (sum - kMinThreshold) / (max_threshold - kMinThreshold);
}

}  // namespace

Status ImageLocality::PreScore(CycleState& state, const Pod& pod,
                               std::span<const NodeInfo* const> /*feasible*/,
                               const ClusterState& snapshot) const {
  auto data = std::make_shared<PreScoreState>();
  data->total_num_nodes = static_cast<int64_t>(snapshot.NumNodes());
  data->num_nodes.reserve(pod.images.size());
  for (Atom image : pod.images) data->num_nodes.push_back(snapshot.ImageNumNodes(image));
  state.Write(slot(), std::move(data));
  return Status();
}

Status ImageLocality::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                            int64_t* score) const {
  *score = 0;
  const auto* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) {
    return Status::Error("reading \"PreScoreImageLocality\" from cycleState: not found");
  }
  int64_t sum = 0;
  for (size_t i = 0; i < pod.images.size(); ++i) {
    const std::optional<int64_t> size = node.ImageSize(pod.images[i]);
    // total_num_nodes is 0 only if `node` is not in the snapshot (a caller
    // error): skip rather than divide by zero.
    if (!size || s->total_num_nodes == 0) continue;
    // scaledImageScore: the spread first, then the product, as upstream.
    const double spread =
        static_cast<double>(s->num_nodes[i]) / static_cast<double>(s->total_num_nodes);
    // Capped below 2^63 so the conversion is defined; saturating because the
    // score clamps the sum to maxThreshold anyway.
    const double scaled = std::min(static_cast<double>(*size) * spread, 9.0e18);
    sum = SaturatingAdd(sum, static_cast<int64_t>(scaled));
  }
  *score = CalculatePriority(sum, pod.num_containers);
  return Status();
}

void ImageLocality::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.Add(static_cast<int64_t>(pod.images.size()));
  for (Atom image : pod.images) sig.Add(static_cast<int64_t>(image));
  sig.Add(static_cast<int64_t>(pod.num_containers));
}

bool ImageLocality::ScoreCacheKey(const CycleState& state, PodSigner& key) const {
  const auto* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return false;
  key.Add(s->total_num_nodes);
  for (int n : s->num_nodes) key.Add(static_cast<int64_t>(n));
  return true;
}

}  // namespace sched
