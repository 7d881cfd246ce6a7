// Resource: a bundle of resource amounts in the units the scheduler uses,
// mirroring framework.Resource (pkg/scheduler/framework/types.go).
//   milli_cpu          milli-CPU (Quantity.MilliValue)
//   memory             bytes
//   ephemeral_storage  bytes
//   allowed_pods       count (only meaningful for node allocatable)
//   scalar             extended, hugepages-*, attachable-volumes-* and
//                      prefixed native resources (Quantity.Value), keyed by
//                      interned resource name, sorted by id.
// Sums saturate at INT64_MAX instead of overflowing.
#ifndef LIBSCHED_MODEL_RESOURCE_H_
#define LIBSCHED_MODEL_RESOURCE_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/model/interner.h"

namespace sched {

// Resource names the scheduler treats specially.
inline constexpr std::string_view kResourceCPU = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";

// Non-zero defaults used for scoring only (pkg/scheduler/util/pod_resources.go).
inline constexpr int64_t kDefaultMilliCPURequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;

// Which scalar names count, as schedutil.IsScalarResourceName: extended
// resources (domain-qualified, not *kubernetes.io/), hugepages-*,
// attachable-volumes-* and kubernetes.io/-prefixed native resources.
bool IsScalarResourceName(std::string_view name);
// v1helper.IsExtendedResourceName: a name with a domain that is not
// kubernetes.io, and not requests.* quota names.
bool IsExtendedResourceName(std::string_view name);
bool IsHugePageResourceName(std::string_view name);
// resourceapi.ResourceDeviceClassPrefix: "<prefix><class>" is the extended
// resource every DeviceClass provides implicitly (DRAExtendedResource).
inline constexpr std::string_view kDeviceClassResourcePrefix =
    "deviceclass.resource.kubernetes.io/";
// schedutil.IsDRAExtendedResourceName: an extended resource name, or one
// with kDeviceClassResourcePrefix.
bool IsDraExtendedResourceName(std::string_view name);

int64_t SaturatingAdd(int64_t a, int64_t b);

struct Resource {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pods = 0;
  std::vector<std::pair<Atom, int64_t>> scalar;

  int64_t Scalar(Atom name) const;
  void SetScalar(Atom name, int64_t v);
  void AddScalar(Atom name, int64_t v);
  // this += o (saturating), field by field.
  void Add(const Resource& o);
  // this = max(this, o), field by field.
  void Max(const Resource& o);
  bool IsZero() const;
  bool operator==(const Resource& o) const = default;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_RESOURCE_H_
