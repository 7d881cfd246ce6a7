// DynamicResources (pkg/scheduler/framework/plugins/dynamicresources/
// dynamicresources.go, v1.36.3): a pod's ResourceClaims must exist, belong
// to it (generated from a template) and not be being deleted (PreEnqueue
// and PreFilter); the device classes of claims to allocate must exist
// (PreFilter); on each node, allocated claims must be available there
// (their allocation's node selector; with DRADeviceBindingConditions, a
// claim whose binding failed, or is still pending past the binding timeout
// of 600 s on the engine's clock, is unavailable too) and the claims to
// allocate must fit the node's devices, found by the structured allocator
// (helper/dra_allocator.h) (Filter). Messages are upstream's.
//
// Score ranks the firstAvailable subrequests the node's allocation picked
// (computeScore), normalized by DefaultNormalizeScore.
//
// DRAExtendedResource (beta, on): a pod requesting an extended resource
// that a DeviceClass provides gets a special claim (the one a cycle before
// created, else one in memory) whose requests Filter builds per node from
// the pod's containers (helper/dra_extended_resource.h) for the resources
// the node's allocatable lacks, allocated with the pod's other claims.
//
// What the engine does not implement is refused with
// UnschedulableAndUnresolvable naming it (docs/dra.md), or, for scoring an
// extended resource backed by DRA, an Error in PreScore. The engine has no
// Reserve / PreBind: AssumePodClaims records the allocation where
// upstream's Reserve and PreBind would; PreBind's wait for binding
// conditions is the caller's. PostFilter gives upstream's reason
// but makes no API call: where upstream deallocates a claim, the engine
// names the claim instead (docs/upstream-differences.md).
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_DYNAMIC_RESOURCES_H_
#define LIBSCHED_PLUGINS_DYNAMIC_RESOURCES_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class DynamicResources final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PostFilterPlugin,
                               public ScorePlugin,
                               public PreEnqueuePlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "DynamicResources";
  // Filter's statuses (UnschedulableAndUnresolvable).
  static constexpr std::string_view kCannotAllocate = "cannot allocate all claims";
  static constexpr std::string_view kNotAvailable = "resourceclaim not available on the node";
  // PostFilter's statuses (Unschedulable).
  static constexpr std::string_view kNoClaims = "no new claims to deallocate";
  static constexpr std::string_view kStillNotSchedulable = "still not schedulable";

  std::string_view Name() const override { return kName; }
  // Node add / label / allocatable changes; ResourceClaim add and update
  // (with isSchedulableAfterClaimChange); a pod's generated claim name
  // added to its status (isSchedulableAfterPodChange); DeviceClass and
  // ResourceSlice adds and updates.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // UnschedulableAndUnresolvable when a claim is missing, not created yet,
  // being deleted or not the pod's (foreachPodResourceClaim).
  Status PreEnqueue(const Pod& pod, const ClusterState& cluster) const override;
  // Skip without claims (and without extended resources a class
  // provides); the PreEnqueue checks, the special claim of extended
  // resources, the request checks ("request r: device class c does not
  // exist"), then the allocator for the claims not allocated yet.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // The special claim's requests on the node ("cannot schedule extended
  // resource claim" for one of an earlier cycle, "cannot fit resource"),
  // the allocated claims' node selectors, then the allocator.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
  // Unschedulable (it runs before DefaultPreemption, whose reasons
  // follow): "no new claims to deallocate" when PreFilter did not load
  // claims (any pod without them); an Error "not found" when an earlier
  // PreFilter stopped the cycle before this one ran (upstream's CycleState
  // read fails; the FitError then ends with it and no preemption runs); when an allocated claim
  // that Filter found unavailable on a node is reserved by nobody or by this pod only, upstream
  // deallocates it through the API ("deallocation of ResourceClaim completed"), the engine says
  // "deallocation of ResourceClaim ns/c needed (libsched makes no API calls)"; for a special claim
  // an earlier cycle created, upstream deletes it ("deletion of ResourceClaim completed"), the
  // engine says "deletion of ResourceClaim ns/c needed (libsched makes no API calls)"; else
  // "still not schedulable".
  Status PostFilter(const Framework& fw, const CycleState& state, const Pod& pod,
                    const NodeToStatus& statuses, PostFilterResult* result) const override;
  // Score (DRAPrioritizedList, GA): the sum over the pod's firstAvailable
  // requests of 8 (FirstAvailableDeviceRequestMaxSize) minus the index of
  // the subrequest allocated on the node; 0 for pods without claims or
  // when every claim is allocated already. Reads what Filter found.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  // Cacheable for pods without claims (always 0); pods with claims bypass
  // the cache at Filter.
  bool ScoreCacheKey(const CycleState& state, PodSigner& key) const override;
  bool HasNormalizeScore() const override { return true; }
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;
  // DefaultNormalizeScore's: 0.
  bool NormalizesZeroColumnTo(int64_t* normalized) const override;
  // Upstream does not sign pods with claims (they bypass its cache); the
  // engine's cache is bypassed by Filter not being node-local, and the
  // claims are signed so that such pods never share a class anyway.
  void SignPod(const Pod& pod, PodSigner& sig) const override;
};

// What the engine does where upstream's Reserve and PreBind allocate and
// reserve claims: for the pod just assumed on `node_name`, each claim that
// was not allocated gets the allocation the allocator finds there, and
// every claim of the pod lists the pod in status.reservedFor (with
// allocationTimestamp set to the state's clock when unset, as PreBind), so
// later pods see those devices in use until the claims' own updates
// arrive. No-op for a pod without claims or when nothing fits.
// DRAExtendedResource: the pod's extended resources backed by DRA are
// allocated as one more claim (the special claim); AssumePodClaims keeps it
// as "<pod>-extended-resources-<assumed>" in the pod's namespace, annotated
// and controlled by the pod, until the claim the caller creates (upstream's
// PreBind does, generateName "<pod>-extended-resources-") arrives.
void AssumePodClaims(const Pod& pod, const std::string& node_name, ClusterState* state);

// Removes the special claim AssumePodClaims assumed for pod `ns/pod_name`,
// if any: the engine calls it when the caller's extended-resource claim of
// that pod arrives, and when the pod is deleted.
void DropAssumedExtendedClaim(const std::string& ns, const std::string& pod_name,
                              ClusterState* state);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_DYNAMIC_RESOURCES_H_
