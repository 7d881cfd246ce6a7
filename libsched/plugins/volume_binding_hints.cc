// VolumeBinding's queueing hints: volumebinding/volume_binding.go
// EventsToRegister and its isSchedulableAfter* functions (kube-scheduler
// v1.36.3, queueing hints on).
#include <optional>
#include <vector>

#include "libsched/plugins/volume_binding.h"

namespace sched {
namespace {

constexpr QueueingHint kQueue = QueueingHint::kQueue;
constexpr QueueingHint kSkip = QueueingHint::kQueueSkip;

// isSchedulableAfterCSINodeChange: a new CSINode, or a change of the
// migrated-plugins annotation (in-tree PVs translate differently).
QueueingHint CSINodeChanged(const Pod&, const EventObject& old_obj, const EventObject& new_obj) {
  const CSINode* original = As<CSINode>(old_obj);
  const CSINode* modified = As<CSINode>(new_obj);
  if (original == nullptr || modified == nullptr) return kQueue;
  return original->migrated_plugins != modified->migrated_plugins ? kQueue : kSkip;
}

// isSchedulableAfterPersistentVolumeClaimChange: a claim the pod uses
// (directly or as a generic ephemeral volume).
QueueingHint ClaimChanged(const Pod& pod, const EventObject&, const EventObject& new_obj) {
  const PersistentVolumeClaim* pvc = As<PersistentVolumeClaim>(new_obj);
  if (pvc == nullptr) return kQueue;
  if (pod.ns != pvc->ns) return kSkip;
  for (const PodVolume& v : pod.volumes) {
    if (v.HasClaim() && v.claim_name == pvc->name) return kQueue;
  }
  return kSkip;
}

// isSchedulableAfterStorageClassChange: a new class, or a change of its
// allowedTopologies (the binding mode is immutable).
QueueingHint ClassChanged(const Pod&, const EventObject& old_obj, const EventObject& new_obj) {
  const StorageClass* original = As<StorageClass>(old_obj);
  const StorageClass* modified = As<StorageClass>(new_obj);
  if (original == nullptr || modified == nullptr) return kQueue;
  return original->allowed_topologies != modified->allowed_topologies ? kQueue : kSkip;
}

// isSchedulableAfterCSIStorageCapacityChange: a new capacity, or a larger
// volume limit (nodeTopology and storageClassName are immutable).
QueueingHint CapacityChanged(const Pod&, const EventObject& old_obj, const EventObject& new_obj) {
  const CSIStorageCapacity* original = As<CSIStorageCapacity>(old_obj);
  const CSIStorageCapacity* modified = As<CSIStorageCapacity>(new_obj);
  if (original == nullptr || modified == nullptr) return kQueue;
  const std::optional<int64_t> old_limit = original->VolumeLimit();
  const std::optional<int64_t> new_limit = modified->VolumeLimit();
  return new_limit && (!old_limit || *new_limit > *old_limit) ? kQueue : kSkip;
}

// isSchedulableAfterCSIDriverChange: storageCapacity turned off on the
// driver of one of the pod's inline CSI volumes.
QueueingHint DriverChanged(const Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
  const CSIDriver* original = As<CSIDriver>(old_obj);
  const CSIDriver* modified = As<CSIDriver>(new_obj);
  if (original == nullptr || modified == nullptr) return kQueue;
  for (const PodVolume& v : pod.volumes) {
    if (v.source != PodVolume::Source::kCSI || v.disk != modified->name) continue;
    if (original->storage_capacity && !modified->storage_capacity) return kQueue;
  }
  return kSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeBinding::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  const ActionType add_update = action::kAdd | action::kUpdate;
  return {
      {{EventResource::kStorageClass, add_update, {}}, ClassChanged},
      {{EventResource::kPersistentVolumeClaim, add_update, {}}, ClaimChanged},
      {{EventResource::kPersistentVolume, add_update, {}}, nullptr},
      {{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel, {}}, nullptr},
      {{EventResource::kCSINode, add_update, {}}, CSINodeChanged},
      {{EventResource::kCSIDriver, action::kUpdate, {}}, DriverChanged},
      {{EventResource::kCSIStorageCapacity, add_update, {}}, CapacityChanged},
  };
}

}  // namespace sched
