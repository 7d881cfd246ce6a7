// The resources NodeResourcesFit and NodeResourcesBalancedAllocation score,
// resolved once per cycle, and their node-side amounts, mirroring the shared
// resourceAllocationScorer in
// pkg/scheduler/framework/plugins/noderesources/resource_allocation.go.
#ifndef LIBSCHED_PLUGINS_HELPER_RESOURCE_ALLOCATION_H_
#define LIBSCHED_PLUGINS_HELPER_RESOURCE_ALLOCATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libsched/model/interner.h"
#include "libsched/model/pod.h"
#include "libsched/state/node_info.h"

namespace sched {

// config.ResourceSpec: a resource to score and its weight.
struct ResourceSpec {
  std::string name;
  int64_t weight = 1;
};

enum class ScoredKind : uint8_t { kCPU, kMemory, kEphemeralStorage, kScalar };

struct ScoredResource {
  ScoredKind kind;
  Atom atom;  // kScalar only
  int64_t weight;
  int64_t pod_request;
};

// Whether cpu and memory are counted with the 100m / 200MiB defaults
// (NonZeroRequested) or as actually requested (Balanced). Fit's scoring
// takes the pod's side without its pod-level requests
// (Pod::non_zero_container_requests) and the node's side as kNonZero.
enum class RequestMode : uint8_t { kNonZero, kActual, kNonZeroContainerLevel };

// Resolves a configured resource for `pod`. nullopt when it is never scored:
// a scalar resource the pod does not request, or a name with no allocatable
// entry ("pods", "storage").
std::optional<ScoredResource> ResolveScoredResource(const ResourceSpec& spec, const Pod& pod,
                                                    const Interner& interner, RequestMode mode);

// calculateResourceAllocatableRequest: the node's allocatable amount of `r`
// and what its pods already request (saturating; never overflows).
struct NodeAllocation {
  int64_t allocatable;
  int64_t requested;
};
NodeAllocation AllocationOnNode(const ScoredResource& r, const NodeInfo& node, RequestMode mode);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_RESOURCE_ALLOCATION_H_
