// Extended resources backed by DRA (DRAExtendedResource, beta and on in
// kube-scheduler v1.36.3): a DeviceClass provides the extended resource its
// spec.extendedResourceName names, and "deviceclass.resource.kubernetes.io/
// <class>"; a pod requesting one gets the devices from a special claim on a
// node whose allocatable does not list it. What NodeResourcesFit and
// DynamicResources share of it:
//
// - DeviceClassForResource: ExtendedResourceCache.GetDeviceClass
//   (k8s.io/dynamic-resource-allocation/deviceclass/extendedresourcecache),
//   computed from the classes the cluster holds now;
// - ExtendedResourceRequests: the special claim's device requests
//   (createRequestsAndMappings in dynamicresources/extendeddynamicresources.go).
//
// Thread-safety: pure functions of their arguments.
#ifndef LIBSCHED_PLUGINS_HELPER_DRA_EXTENDED_RESOURCE_H_
#define LIBSCHED_PLUGINS_HELPER_DRA_EXTENDED_RESOURCE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/model/dra.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"

namespace sched {

// The class providing `resource`, or null: for "deviceclass.resource.
// kubernetes.io/<c>" the class c; else, among the classes whose
// extendedResourceName is `resource`, the newest (creationTimestamp), of
// equal ones the first by name, as the cache keeps it when the classes
// arrive in any order. (The cache itself depends on the order of events:
// a class that arrives after a newer one naming the same resource gets no
// implicit name either, and deleting the newer one leaves the resource
// unmapped until the other changes; libsched does not copy that.)
const DeviceClass* DeviceClassForResource(const ClusterState& cluster, std::string_view resource);

// The pod's non-zero requests (Pod::requests, PodRequests) of names
// IsDraExtendedResourceName accepts, each with the class providing it or
// null, in interned-id order; empty when no class provides any of them
// (hasDeviceClassMappedExtendedResource is false).
std::vector<std::pair<Atom, const DeviceClass*>> DraExtendedResources(const Pod& pod,
                                                                     const ClusterState& cluster);

// createRequestsAndMappings' requests for `resources` (those DRA allocates
// on a node, with their classes): per resource, each long-lived container
// (a container or sidecar) requesting n > 0 gets "container-<i>-request-<j>"
// (i the container's index in initContainers + containers, j the
// resource's index among its sorted request names) for n devices, ExactCount
// of the class; each plain init container asks only what the long-lived
// containers from its index on do not already cover, and of those init
// requests only the largest (the first of equal ones) is kept. Sorted by
// name. The mappings (pod.status.extendedResourceClaimStatus) are the
// caller's: PreBind writes them.
std::vector<DraDeviceRequest> ExtendedResourceRequests(
    const Pod& pod, const std::vector<std::pair<Atom, const DeviceClass*>>& resources);

// NodeResourcesFit and NodeResourcesBalancedAllocation score a resource
// their args name that a class provides, on a node whose allocatable lacks
// it, by the node's devices of the class and how many are allocated
// (calculateDRAResourceTotals in noderesources/resource_allocation.go).
// libsched does not: the message of that refusal when a class provides
// `resource`, else "".
std::string DraScoringRefusal(const ClusterState& cluster, const std::string& resource);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_DRA_EXTENDED_RESOURCE_H_
