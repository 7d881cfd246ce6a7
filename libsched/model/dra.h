// resource.k8s.io/v1 objects, as far as the DynamicResources plugin and its
// structured-parameters allocator read them (k8s.io/api/resource/v1
// types.go; k8s.io/dynamic-resource-allocation/structured): ResourceSlice,
// DeviceClass, ResourceClaim and ResourceClaimTemplate. Opaque driver
// configuration (config) is not kept: the scheduler only copies it.
// Fields of features the engine refuses are kept as flags, so that the
// plugin can name what it refuses (docs/dra.md).
// Binding conditions (DRADeviceBindingConditions with
// DRAResourceClaimDeviceStatus, beta and on in v1.36.3) are kept whole: the
// allocator copies a device's into its result, Filter reads the claim's
// status.devices[].conditions.
#ifndef LIBSCHED_MODEL_DRA_H_
#define LIBSCHED_MODEL_DRA_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

// resourceapi.AllocationResultsMaxSize: devices per claim.
inline constexpr int kDraAllocationResultsMaxSize = 32;
// resourceapi.FirstAvailableDeviceRequestMaxSize: subrequests per request.
inline constexpr int kDraFirstAvailableMaxSize = 8;
// resourceapi.ResourceClaimReservedForMaxSize.
inline constexpr int kDraReservedForMaxSize = 256;

// DeviceAttribute: exactly one of int, bool, string, version is set.
struct DraAttribute {
  enum class Kind : uint8_t { kInt, kBool, kString, kVersion };
  Kind kind = Kind::kString;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string text;  // string or version
  bool operator==(const DraAttribute&) const = default;
};

// A node selection (ResourceSlice spec or, with perDeviceNodeSelection, a
// device): nodeName, allNodes or nodeSelector; none set selects nothing.
struct DraNodeSelection {
  std::string node_name;
  bool all_nodes = false;
  std::optional<NodeSelector> node_selector;
};

// DeviceTaint (DRADeviceTaints): effect as written; only NoSchedule and
// NoExecute prevent allocation, unknown effects count as None.
struct DraTaint {
  std::string key, value, effect;
};

// DeviceToleration: operator "" (Equal), "Equal" or "Exists"; effect ""
// matches every effect.
struct DraToleration {
  std::string key, op, value, effect;
};

// Counters (DRAPartitionableDevices), by name, with their values exact in
// nano-units (resource.Quantity's Cmp, Add and Sub).
__extension__ typedef __int128 DraCounterValue;
using DraCounters = std::vector<std::pair<std::string, DraCounterValue>>;

// Quantities by name (a request's capacity.requests, a result's
// consumedCapacity), exact in nano-units like counters.
using DraQuantities = std::vector<std::pair<std::string, DraCounterValue>>;

// DeviceCapacity.requestPolicy (DRAConsumableCapacity), values in nano-units.
struct DraCapacityPolicy {
  std::optional<DraCounterValue> default_value;  // default
  std::vector<DraCounterValue> valid_values;     // validValues, ascending
  bool has_range = false;                        // validRange (min required)
  DraCounterValue min = 0;
  std::optional<DraCounterValue> max, step;
};

// One entry of a device's capacity map.
struct DraCapacity {
  std::string name;  // qualified name, as written
  std::string text;  // value as quantity text ("80Gi"), for CEL
  DraCounterValue value = 0;
  std::optional<DraCapacityPolicy> policy;
};

// A CounterSet of spec.sharedCounters, or a device's DeviceCounterConsumption
// (consumesCounters: the set it draws from, and how much).
struct DraCounterSet {
  std::string name;  // name, or counterSet
  DraCounters counters;
};

// Device in a ResourceSlice.
struct DraDevice {
  std::string name;
  // attributes and capacity by qualified name ("domain/id" or "id"), in
  // the order written.
  std::vector<std::pair<std::string, DraAttribute>> attributes;
  std::vector<DraCapacity> capacity;
  // perDeviceNodeSelection: where the device is (else the slice's).
  DraNodeSelection node;
  std::vector<DraTaint> taints;
  std::vector<DraCounterSet> consumes_counters;
  // DRADeviceBindingConditions: bindsToNode (an allocation of the device
  // is limited to the chosen node), bindingConditions and
  // bindingFailureConditions (condition types, at most 4 each). A pool with
  // a device with binding conditions is tried after the others.
  bool binds_to_node = false;
  std::vector<std::string> binding_conditions;
  std::vector<std::string> binding_failure_conditions;
  // allowMultipleAllocations (DRAConsumableCapacity): shared by claims,
  // each consuming part of its capacity.
  bool allow_multiple_allocations = false;

  // The attribute `name` as lookupAttribute resolves a fully qualified name
  // for a device of `driver` ("driver/id" also finds "id"); null if none.
  const DraAttribute* FindAttribute(const std::string& driver, const std::string& name) const;
};

struct ResourceSlice {
  std::string name;
  std::string driver;                // spec.driver
  std::string pool;                  // spec.pool.name
  int64_t generation = 0;            // spec.pool.generation
  int64_t resource_slice_count = 0;  // spec.pool.resourceSliceCount
  DraNodeSelection node;             // spec.nodeName / allNodes / nodeSelector
  bool per_device_node_selection = false;
  std::vector<DraCounterSet> shared_counters;  // spec.sharedCounters
  std::vector<DraDevice> devices;
  AtomHold atoms;
};

struct DeviceClass {
  std::string name;
  std::vector<std::string> selectors;  // spec.selectors[].cel.expression
  // spec.extendedResourceName ("" when unset): the extended resource this
  // class provides (DRAExtendedResource), besides the implicit
  // "deviceclass.resource.kubernetes.io/<name>".
  std::string extended_resource_name;
  // metadata.creationTimestamp, Unix nanoseconds (0 when unset): of two
  // classes naming the same extendedResourceName the newer one provides it.
  int64_t created = 0;
};

// ExactDeviceRequest or a DeviceSubRequest.
struct DraRequest {
  enum class Mode : uint8_t { kExactCount, kAll };
  std::string name;
  std::string device_class_name;
  std::vector<std::string> selectors;  // cel.expression of each
  Mode mode = Mode::kExactCount;
  int64_t count = 1;
  bool admin_access = false;
  std::vector<DraToleration> tolerations;
  DraQuantities capacity_requests;  // capacity.requests (DRAConsumableCapacity)
};

// DeviceRequest: exactly or firstAvailable.
struct DraDeviceRequest {
  std::string name;
  std::optional<DraRequest> exactly;
  std::vector<DraRequest> first_available;
};

struct DraConstraint {
  std::vector<std::string> requests;
  std::string match_attribute;     // "" when unset
  std::string distinct_attribute;  // "" when unset
};

struct DraClaimSpec {
  std::vector<DraDeviceRequest> requests;
  std::vector<DraConstraint> constraints;
};

// DeviceRequestAllocationResult: the device a request got.
struct DraAllocatedDevice {
  std::string request, driver, pool, device;
  bool admin_access = false;
  // DRAConsumableCapacity: set for a share of a device that allows multiple
  // allocations (shareID), with what it consumes (consumedCapacity, unset
  // when absent).
  std::optional<std::string> share_id = std::nullopt;
  std::optional<DraQuantities> consumed_capacity = std::nullopt;
  // DRADeviceBindingConditions: the device's bindingConditions and
  // bindingFailureConditions at the time of allocation.
  std::vector<std::string> binding_conditions = {};
  std::vector<std::string> binding_failure_conditions = {};
  bool operator==(const DraAllocatedDevice&) const = default;
};

struct DraAllocation {
  std::vector<DraAllocatedDevice> devices;
  std::optional<NodeSelector> node_selector;
  // allocationTimestamp in Unix nanoseconds (DRADeviceBindingConditions;
  // set by the scheduler's PreBind); unset: unknown, never timed out.
  std::optional<int64_t> allocation_timestamp;
};

// A condition of status.devices[].conditions (metav1.Condition): its type
// and status ("True", "False", "Unknown"); reason and message are not kept.
struct DraCondition {
  std::string type, status;
  bool operator==(const DraCondition&) const = default;
};

// status.devices[] (AllocatedDeviceStatus), as far as binding conditions
// read it: the device (shareID not kept: upstream's
// getAllocatedDeviceStatus matches driver, pool and device) and its
// conditions.
struct DraDeviceStatus {
  std::string driver, pool, device;
  std::vector<DraCondition> conditions;
  bool operator==(const DraDeviceStatus&) const = default;
};

struct ResourceClaim {
  std::string ns;  // "default" when empty
  std::string name;
  std::string uid;
  bool deleting = false;  // metadata.deletionTimestamp set
  // The controller ownerReference's uid ("" when none): IsForPod.
  std::string controller_uid;
  // ... and its name: findExtendedResourceClaim matches both to the pod.
  std::string controller_name;
  // metadata.annotations["resource.kubernetes.io/extended-resource-claim"]
  // is "true": the claim the scheduler created for a pod's extended
  // resources backed by DRA (DRAExtendedResource).
  bool extended_resource_claim = false;
  DraClaimSpec spec;
  std::optional<DraAllocation> allocation;  // status.allocation
  std::vector<std::string> reserved_for;    // status.reservedFor[].uid
  std::vector<DraDeviceStatus> device_statuses;  // status.devices
  AtomHold atoms;
};

struct ResourceClaimTemplate {
  std::string ns;
  std::string name;
  DraClaimSpec spec;  // spec.spec
};

// One entry of a pod's spec.resourceClaims.
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> claim_name;     // resourceClaimName
  std::optional<std::string> template_name;  // resourceClaimTemplateName
  // With a template: status.resourceClaimStatuses' entry for `name`, if
  // any (unset: not created yet; set to nullopt inner: none needed).
  bool has_status = false;
  std::optional<std::string> generated_name;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_DRA_H_
