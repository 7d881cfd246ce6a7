// DynamicResources, as far as the engine goes: it has no ResourceClaim,
// ResourceClaimTemplate, DeviceClass or ResourceSlice objects and no
// structured-parameters allocator (docs/dra.md), so a pod that references
// claims (spec.resourceClaims) is refused in PreFilter, on every node,
// instead of being placed as if it had none. A pod without claims is
// skipped, as upstream's PreFilter skips it
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go).
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_DYNAMIC_RESOURCES_H_
#define LIBSCHED_PLUGINS_DYNAMIC_RESOURCES_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class DynamicResources final : public PreFilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "DynamicResources";
  // The PreFilter status message (UnschedulableAndUnresolvable).
  static constexpr std::string_view kUnsupported =
      "pod has spec.resourceClaims: DynamicResources (resource claims) is not supported by "
      "libsched";

  std::string_view Name() const override { return kName; }
  // None: no event the engine receives can make such a pod schedulable; it
  // waits for the queue's periodic flush.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_DYNAMIC_RESOURCES_H_
