// PodRequests as kube-scheduler v1.36 calls it
// (component-helpers/resource/helpers.go PodRequests with the options of
// framework.PodInfo.CalculateResource: UseStatusResources, pod-level
// resources on, overhead included).
//
// Conventions the decoder must follow (the struct cannot say them):
//  - has_cpu / has_memory tell whether the container's *effective* request
//    list has the key: the spec's list, or, when status_requests is set, the
//    union of spec, status.resources.requests and status.allocatedResources.
//  - status_requests is set only when the container status has `resources`
//    (cs.Resources != nil) and is max(status.resources.requests,
//    status.allocatedResources). Upstream reads it for containers and
//    restartable init containers only; a plain init container's is ignored.
//  - When the pod's PodResizePending condition has reason Infeasible,
//    upstream ignores the spec: the decoder stores the status values as
//    `requests` and leaves status_requests empty.
//  - pod_level holds only pod-level-supported names (cpu, memory,
//    hugepages-*), and is set only when spec.resources.requests has one.
//    Its cpu / memory count as set when non-zero (see PodLevelReplaces).
#include "libsched/model/pod_requests.h"

namespace sched {
namespace {

// The request list one container contributes, with `default_cpu` /
// `default_memory` standing in for a missing cpu / memory entry
// (applyNonMissing); 0 means no default.
Resource Effective(const ContainerResources& c, bool use_status, int64_t default_cpu,
                   int64_t default_memory) {
  Resource r = c.requests;
  if (use_status && c.status_requests) r.Max(*c.status_requests);
  if (default_cpu != 0 && !c.has_cpu) r.milli_cpu = default_cpu;
  if (default_memory != 0 && !c.has_memory) r.memory = default_memory;
  return r;
}

// AggregateContainerRequests: containers and sidecars run together; each
// plain init container runs alongside the sidecars started before it.
Resource AggregateContainers(const PodResourceSpec& spec, int64_t default_cpu,
                             int64_t default_memory) {
  Resource reqs;
  for (const ContainerResources& c : spec.containers) {
    reqs.Add(Effective(c, /*use_status=*/true, default_cpu, default_memory));
  }
  Resource sidecars;  // restartable init containers started so far
  Resource init_peak;
  for (const ContainerResources& c : spec.init_containers) {
    Resource r = Effective(c, /*use_status=*/c.restartable, default_cpu, default_memory);
    if (c.restartable) {
      reqs.Add(r);
      sidecars.Add(r);
      init_peak.Max(sidecars);
    } else {
      r.Add(sidecars);
      init_peak.Max(r);
    }
  }
  reqs.Max(init_peak);
  return reqs;
}

// Pod-level requests replace the container aggregate for each resource they
// set. Resource cannot tell an explicit 0 from an absent cpu / memory; an
// explicit pod-level 0 is only valid when the containers' aggregate is 0 too
// (validatePodResourceConsistency), so reading 0 as "unset" changes nothing
// here. Hugepages entries are present only when set.
void PodLevelReplaces(const Resource& pod_level, Resource& reqs) {
  if (pod_level.milli_cpu != 0) reqs.milli_cpu = pod_level.milli_cpu;
  if (pod_level.memory != 0) reqs.memory = pod_level.memory;
  for (const auto& [name, v] : pod_level.scalar) reqs.SetScalar(name, v);
}

Resource Compute(const PodResourceSpec& spec, int64_t default_cpu, int64_t default_memory) {
  Resource reqs = AggregateContainers(spec, default_cpu, default_memory);
  if (spec.pod_level) PodLevelReplaces(*spec.pod_level, reqs);
  if (spec.overhead) reqs.Add(*spec.overhead);
  return reqs;
}

bool AnyContainerHas(const PodResourceSpec& spec, bool ContainerResources::*field) {
  for (const auto& c : spec.containers) {
    if (c.*field) return true;
  }
  for (const auto& c : spec.init_containers) {
    if (c.*field) return true;
  }
  return false;
}

}  // namespace

Resource PodRequests(const PodResourceSpec& spec) { return Compute(spec, 0, 0); }

Resource PodNonZeroRequests(const PodResourceSpec& spec) {
  if (!spec.pod_level) {
    return Compute(spec, kDefaultMilliCPURequest, kDefaultMemoryRequest);
  }
  // getNonMissingContainerRequests: with pod-level requests, a default is
  // used only for a resource that the actual requests lack altogether: no
  // container entry, no pod-level value, no overhead.
  const bool cpu_set = AnyContainerHas(spec, &ContainerResources::has_cpu) ||
                       spec.pod_level->milli_cpu != 0 ||
                       (spec.overhead && spec.overhead->milli_cpu != 0);
  const bool memory_set = AnyContainerHas(spec, &ContainerResources::has_memory) ||
                          spec.pod_level->memory != 0 ||
                          (spec.overhead && spec.overhead->memory != 0);
  return Compute(spec, cpu_set ? 0 : kDefaultMilliCPURequest,
                 memory_set ? 0 : kDefaultMemoryRequest);
}

Resource PodNonZeroContainerRequests(const PodResourceSpec& spec) {
  Resource reqs = AggregateContainers(spec, kDefaultMilliCPURequest, kDefaultMemoryRequest);
  if (spec.overhead) reqs.Add(*spec.overhead);
  return reqs;
}

}  // namespace sched
