// ImageLocality: favours nodes that already hold the pod's container images,
// mirroring pkg/scheduler/framework/plugins/imagelocality/image_locality.go
// (kube-scheduler v1.36.3).
//
// For each pod image (Pod::images: init containers, containers and image
// volumes, already normalized with ":latest") present on the node under
// exactly that name:
//   sum += int64(float64(size) * float64(numNodesWithImage) / float64(totalNumNodes))
// where totalNumNodes counts every node in the snapshot, not only the
// feasible ones. With minThreshold = 23 MiB and
// maxThreshold = 1000 MiB * Pod::num_containers (init containers and
// containers, not image volumes), the score is
//   100 * (clamp(sum, min, max) - min) / (max - min).
// No NormalizeScore.
//
// Upstream reads the snapshot in Score; here PreScore copies the node counts
// into the CycleState because Score gets no snapshot.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_IMAGE_LOCALITY_H_
#define LIBSCHED_PLUGINS_IMAGE_LOCALITY_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "libsched/framework/plugin.h"

namespace sched {

class ImageLocality final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "ImageLocality";

  std::string_view Name() const override { return kName; }

  // Never skips. Records the snapshot's node count and, per pod image, how
  // many nodes have it.
  Status PreScore(CycleState& state, const Pod& pod,
                  std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // REQUIRES: PreScore ran on `state` for `pod`.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the raw score reads the node, the pod and the
  // node counts PreScore took from the snapshot (fed to `key`).
  bool ScoreCacheKey(const CycleState& state, PodSigner& key) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_IMAGE_LOCALITY_H_
