// Change: one cluster change an Engine applies (Engine::Session::Apply),
// as the scheduler's informers see it: an object added, updated or
// deleted. capi decodes them from watch events and Lists.
#ifndef LIBSCHED_ENGINE_CHANGE_H_
#define LIBSCHED_ENGINE_CHANGE_H_

#include <memory>
#include <string>

#include "libsched/model/csi_driver.h"
#include "libsched/model/csi_node.h"
#include "libsched/model/csi_storage_capacity.h"
#include "libsched/model/dra.h"
#include "libsched/model/namespace.h"
#include "libsched/model/node.h"
#include "libsched/model/pdb.h"
#include "libsched/model/persistent_volume.h"
#include "libsched/model/persistent_volume_claim.h"
#include "libsched/model/pod.h"
#include "libsched/model/storage_class.h"
#include "libsched/model/volume_attachment.h"
#include "libsched/model/workload.h"

namespace sched {

struct Change {
  // kQueuePod: a pending pod (no spec.nodeName) added or updated; it goes
  // to the scheduling queue.
  enum class Op {
    kUpsertNode,
    kRemoveNode,
    kUpsertPod,
    kRemovePod,
    kQueuePod,
    kUpsertPdb,
    kRemovePdb,
    kUpsertNamespace,
    kRemoveNamespace,
    kUpsertWorkload,
    kRemoveWorkload,
    kUpsertPersistentVolume,
    kRemovePersistentVolume,
    kUpsertPersistentVolumeClaim,
    kRemovePersistentVolumeClaim,
    kUpsertStorageClass,
    kRemoveStorageClass,
    kUpsertCSINode,
    kRemoveCSINode,
    kUpsertCSIDriver,
    kRemoveCSIDriver,
    kUpsertCSIStorageCapacity,
    kRemoveCSIStorageCapacity,
    kUpsertVolumeAttachment,
    kRemoveVolumeAttachment,
    kUpsertResourceClaim,
    kRemoveResourceClaim,
    kUpsertResourceClaimTemplate,
    kRemoveResourceClaimTemplate,
    kUpsertDeviceClass,
    kRemoveDeviceClass,
    kUpsertResourceSlice,
    kRemoveResourceSlice
  };
  Op op;
  std::shared_ptr<const Node> node;  // kUpsertNode
  std::shared_ptr<const Pod> pod;    // kUpsertPod, kQueuePod; kRemovePod: the deleted pod
  // kRemoveNode, kRemoveNamespace: name; kRemovePod, kRemovePdb,
  // kRemoveWorkload: "ns/name"
  std::string key;
  std::shared_ptr<const PodDisruptionBudget> pdb = nullptr;  // kUpsertPdb
  std::shared_ptr<const Namespace> ns = nullptr;             // kUpsertNamespace
  std::shared_ptr<const Workload> workload = nullptr;        // kUpsertWorkload
  WorkloadKind workload_kind = WorkloadKind::kService;       // kRemoveWorkload
  // kUpsertPersistentVolume etc.; the kRemove* of these kinds carry the key
  // (PVC, CSIStorageCapacity: "ns/name"; VolumeAttachment: "nodeName/name";
  // others: name).
  std::shared_ptr<const PersistentVolume> pv = nullptr;
  std::shared_ptr<const PersistentVolumeClaim> pvc = nullptr;
  std::shared_ptr<const StorageClass> storage_class = nullptr;
  std::shared_ptr<const CSINode> csi_node = nullptr;
  std::shared_ptr<const CSIDriver> csi_driver = nullptr;
  std::shared_ptr<const CSIStorageCapacity> csi_storage_capacity = nullptr;
  std::shared_ptr<const VolumeAttachment> volume_attachment = nullptr;
  // kUpsertResourceClaim etc.; the kRemove* carry the key (claims and
  // templates: "ns/name"; classes and slices: name).
  std::shared_ptr<const ResourceClaim> resource_claim = nullptr;
  std::shared_ptr<const ResourceClaimTemplate> resource_claim_template = nullptr;
  std::shared_ptr<const DeviceClass> device_class = nullptr;
  std::shared_ptr<const ResourceSlice> resource_slice = nullptr;
};

}  // namespace sched

#endif  // LIBSCHED_ENGINE_CHANGE_H_
