// PersistentVolumeClaim: the parts of a core/v1 PersistentVolumeClaim the
// volume plugins read, decoded once.
#ifndef LIBSCHED_MODEL_PERSISTENT_VOLUME_CLAIM_H_
#define LIBSCHED_MODEL_PERSISTENT_VOLUME_CLAIM_H_

#include <cstdint>
#include <optional>
#include <string>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/persistent_volume.h"

namespace sched {

struct PersistentVolumeClaim {
  std::string ns;  // metadata.namespace ("default" when empty)
  std::string name;
  std::string uid;
  std::string volume_name;  // spec.volumeName: the PV it is (pre)bound to
  // The volume.beta.kubernetes.io/storage-class annotation, else
  // spec.storageClassName (GetPersistentVolumeClaimClass); "" for none.
  std::string storage_class;
  AccessModes access_modes = 0;  // spec.accessModes
  // spec.resources.requests.storage in bytes (rounded up); 0 when unset.
  int64_t storage_request = 0;
  // spec.resources.requests.storage is set (without it no storage capacity
  // is checked).
  bool has_storage_request = false;
  bool block_mode = false;                // spec.volumeMode is Block
  std::string volume_attributes_class;    // spec.volumeAttributesClassName
  std::optional<LabelSelector> selector;  // spec.selector; nullopt when nil
  // The pv.kubernetes.io/bind-completed annotation is present: with a
  // volume_name, the claim is fully bound (isPVCFullyBound).
  bool bind_completed = false;
  // The volume.kubernetes.io/selected-node annotation (delayed
  // provisioning already picked a node), if present.
  std::optional<std::string> selected_node;
  bool lost = false;      // status.phase is Lost
  bool deleting = false;  // metadata.deletionTimestamp is set
  // UID of the controller owner reference (metadata.ownerReferences with
  // controller: true), if any: a generic ephemeral volume's claim is
  // controlled by its pod (ephemeral.VolumeIsForPod).
  std::string controller_uid;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_PERSISTENT_VOLUME_CLAIM_H_
