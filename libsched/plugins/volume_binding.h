// VolumeBinding: checks that the pod's PersistentVolumeClaims can be
// satisfied on a node. Mirrors
// pkg/scheduler/framework/plugins/volumebinding/{volume_binding,binder}.go
// and component-helpers storage/volume (FindMatchingVolume,
// CheckNodeAffinity):
//  - PreFilter: every claim must exist (not lost, not being deleted; a
//    generic ephemeral volume's claim owned by the pod); unbound claims of
//    an Immediate class reject the pod.
//  - Filter: bound claims' PVs must exist and their node affinity match the
//    node; unbound WaitForFirstConsumer claims must each find an available
//    PV (class, capacity, access modes, volume mode, selector, node
//    affinity; the smallest fitting, each PV used once) or be provisionable
//    (a provisioner, allowedTopologies matching the node, and, when the
//    class's CSIDriver sets storageCapacity, a CSIStorageCapacity of the
//    class whose nodeTopology selects the node with room for the request).
// Score is not implemented: StorageCapacityScoring is off in v1.36, so
// upstream's PreScore always skips. The in-tree-to-CSI translation of bound
// PVs (for node affinity) is not modelled.
//
// Thread-safety: stateless; const methods may be called concurrently.
// AssumePodVolumes mutates the state it is given.
#ifndef LIBSCHED_PLUGINS_VOLUME_BINDING_H_
#define LIBSCHED_PLUGINS_VOLUME_BINDING_H_

#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class VolumeBinding final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeBinding";
  // PreFilter's rejection of unbound Immediate claims.
  static constexpr std::string_view kReasonUnboundImmediate =
      "pod has unbound immediate PersistentVolumeClaims";
  // ErrReasonNodeConflict.
  static constexpr std::string_view kReasonNodeConflict =
      "node(s) didn't match PersistentVolume's node affinity";
  // ErrReasonBindConflict.
  static constexpr std::string_view kReasonBindConflict =
      "node(s) didn't find available persistent volumes to bind";
  // ErrReasonNotEnoughSpace.
  static constexpr std::string_view kReasonNotEnoughSpace =
      "node(s) did not have enough free storage";
  // ErrReasonPVNotExist.
  static constexpr std::string_view kReasonPVNotExist =
      "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)";

  std::string_view Name() const override { return kName; }
  // StorageClass, PersistentVolumeClaim, PersistentVolume, CSINode Add /
  // Update; Node Add / UpdateNodeLabel; CSIDriver Update;
  // CSIStorageCapacity Add / Update; upstream's hints for all but PV and
  // Node (volume_binding_hints.cc).
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // Skip when the pod has no claim; UnschedulableAndUnresolvable with
  // upstream's message when a claim is missing, lost, being deleted or not
  // the pod's, and kReasonUnboundImmediate; Error when a class has no
  // volumeBindingMode.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // UnschedulableAndUnresolvable with one or more of the reasons above, in
  // upstream's order; Error for claims without a class or whose class is
  // missing when they need provisioning.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
};

// What the engine does where upstream's Reserve / PreBind bind volumes: for
// the pod just assumed on `node_name`, each unbound WaitForFirstConsumer
// claim is bound to the PV Filter chose there (the PV gets the claimRef,
// the claim the volume name and the bind-completed annotation), and each
// claim left to provisioning gets the selected-node annotation. Later pods
// then see those PVs taken, as they would once the PV controller has run.
// No-op for a pod without such claims or when nothing fits.
void AssumePodVolumes(const Pod& pod, const std::string& node_name, ClusterState* state);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_VOLUME_BINDING_H_
