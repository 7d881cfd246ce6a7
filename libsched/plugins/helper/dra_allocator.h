// DraAllocator: the structured-parameters allocator of DRA, as
// k8s.io/dynamic-resource-allocation/structured v0.36.3 picks it for
// v1.36.3's default feature gates (the "incubating" variant: AdminAccess,
// PrioritizedList, PartitionableDevices, DeviceTaints, DeviceBindingAndStatus
// and ConsumableCapacity on). For one node it gathers the pools of the
// ResourceSlices that reach the node (generations, completeness, duplicate
// device names), then searches depth-first, in pool/slice/device order, for
// devices for every request of every claim to allocate, honouring the
// classes' and requests' CEL selectors (through DeviceSelector), ExactCount
// and All modes, firstAvailable subrequests in order (results named
// "request/subrequest"), matchAttribute and distinctAttribute constraints,
// admin access, device taints (a NoSchedule or NoExecute taint the request
// does not tolerate hides the device), partitionable devices (devices draw
// on their pool's shared counters), consumable capacity (requests'
// capacity.requests under each capacity's requestPolicy; devices that
// allow multiple allocations are shared, each share with its shareID and
// consumedCapacity), binding conditions (pools with devices that have
// bindingConditions are tried last; a result copies the device's
// bindingConditions and bindingFailureConditions; a device with bindsToNode
// limits the allocation to the node), and devices already allocated to
// other claims; the messages are upstream's.
//
// Thread-safety: built once per cycle; Allocate is const and may be called
// concurrently for different nodes.
#ifndef LIBSCHED_PLUGINS_HELPER_DRA_ALLOCATOR_H_
#define LIBSCHED_PLUGINS_HELPER_DRA_ALLOCATOR_H_

#include <map>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "libsched/model/dra.h"
#include "libsched/model/node.h"
#include "libsched/plugins/helper/device_selector.h"
#include "libsched/plugins/helper/dra_capacity.h"
#include "libsched/state/cluster_state.h"

namespace sched {

class DraAllocator {
 public:
  struct Outcome {
    enum class Kind {
      kAllocated,      // one allocation per claim, in order
      kUnschedulable,  // no allocation on this node; message says why
      kError,          // bad input (upstream's Allocate error)
    };
    Kind kind = Kind::kUnschedulable;
    std::string message;
    std::vector<DraAllocation> allocations;
  };

  // `claims` are the claims to allocate (not allocated yet), in the pod's
  // order; every claim in `state` that is allocated holds its devices
  // (except those it got with admin access). Compiles every selector of
  // the claims, of their classes and of `more_classes` once. `state` and
  // the claims must outlive the allocator.
  DraAllocator(const ClusterState& state, std::vector<const ResourceClaim*> claims,
               const std::vector<std::string>& more_classes = {});
  ~DraAllocator();

  Outcome Allocate(const Node& node) const;
  // The same for `claims` in place of the constructor's: per node variants
  // of them (the special claim of DRAExtendedResource, whose requests
  // depend on the node) whose requests name only classes the constructor
  // compiled, and whose selectors it compiled.
  Outcome Allocate(const Node& node, const std::vector<const ResourceClaim*>& claims) const;

  // "driver/pool/device" (DeviceID.String()).
  static std::string DeviceId(const std::string& driver, const std::string& pool,
                              const std::string& device);

 private:
  struct Compiled {
    std::unique_ptr<DeviceSelector> selector;
    std::string error;  // when selector is null
  };
  class Search;

  const ClusterState& state_;
  const Interner& interner_;
  std::vector<const ResourceClaim*> claims_;
  // DeviceId of every device allocated whole (GatherAllocatedState's
  // AllocatedDevices), of every device with shares (AllocatedSharedDeviceIDs),
  // and what the shares consume per device (AggregatedCapacity).
  std::unordered_set<std::string> allocated_;
  std::unordered_set<std::string> shared_;
  std::map<std::string, DraCapacityUse, std::less<>> aggregated_;
  std::map<std::string, std::vector<const ResourceSlice*>, std::less<>> slices_on_node_;
  std::vector<const ResourceSlice*> slices_shared_;        // no nodeName, or shared counters
  std::map<std::string, Compiled, std::less<>> compiled_;  // by expression
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_DRA_ALLOCATOR_H_
