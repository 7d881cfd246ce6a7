// Pod resource requests per upstream's PodRequests
// (staging/src/k8s.io/component-helpers/resource/helpers.go), computed once
// when a pod is decoded.
#ifndef LIBSCHED_MODEL_POD_REQUESTS_H_
#define LIBSCHED_MODEL_POD_REQUESTS_H_

#include <optional>
#include <vector>

#include "libsched/model/resource.h"

namespace sched {

struct ContainerResources {
  Resource requests;  // resources.requests (scalar names already filtered)
  bool has_cpu = false;     // requests has a "cpu" entry (even "0")
  bool has_memory = false;  // requests has a "memory" entry (even "0")
  // status.containerStatuses[].allocatedResources / .resources.requests,
  // when the kubelet reports them (InPlacePodVerticalScaling, GA 1.35):
  // the effective request is max(spec, status) per resource.
  std::optional<Resource> status_requests;
  bool restartable = false;  // init container with restartPolicy: Always
};

struct PodResourceSpec {
  std::vector<ContainerResources> containers;
  std::vector<ContainerResources> init_containers;
  std::optional<Resource> pod_level;  // spec.resources.requests (PodLevelResources)
  std::optional<Resource> overhead;   // spec.overhead
};

// Actual requests: max(sum(containers) + sidecars, init phase) with pod-level
// cpu/memory/hugepages overriding, plus overhead.
Resource PodRequests(const PodResourceSpec& spec);
// The same with 100m CPU / 200 MiB memory for each container that has no
// cpu / memory entry (NonMissingContainerRequests); used by scoring only.
Resource PodNonZeroRequests(const PodResourceSpec& spec);
// The containers' requests with those defaults, plus overhead, ignoring
// pod-level requests: NodeResourcesFit's score (fit.go builds its
// resourceAllocationScorer without enablePodLevelResources, so
// calculatePodResourceRequest skips them).
Resource PodNonZeroContainerRequests(const PodResourceSpec& spec);

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_REQUESTS_H_
