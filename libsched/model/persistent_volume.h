// PersistentVolume: the parts of a core/v1 PersistentVolume the volume
// plugins read, decoded once. Access modes are a bit set (AccessModes).
#ifndef LIBSCHED_MODEL_PERSISTENT_VOLUME_H_
#define LIBSCHED_MODEL_PERSISTENT_VOLUME_H_

#include <cstdint>
#include <optional>
#include <string>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

// v1.PersistentVolumeAccessMode values, as bits.
using AccessModes = uint8_t;
namespace access_mode {
inline constexpr AccessModes kReadWriteOnce = 1u << 0;
inline constexpr AccessModes kReadOnlyMany = 1u << 1;
inline constexpr AccessModes kReadWriteMany = 1u << 2;
inline constexpr AccessModes kReadWriteOncePod = 1u << 3;
}  // namespace access_mode

// Whether the volume offers every mode the claim asks for
// (component-helpers storage/volume CheckAccessModes).
inline bool HasAccessModes(AccessModes volume, AccessModes claim) { return (claim & ~volume) == 0; }

// spec.claimRef of a PersistentVolume.
struct ClaimRef {
  std::string ns;  // namespace
  std::string name;
  std::string uid;  // may be empty
};

struct PersistentVolume {
  std::string name;  // metadata.name
  LabelSet labels;   // metadata.labels (VolumeZone reads the zone labels)
  // spec.capacity.storage in bytes (rounded up, Quantity.Value); 0 if unset.
  int64_t capacity_bytes = 0;
  AccessModes access_modes = 0;  // spec.accessModes
  // The volume.beta.kubernetes.io/storage-class annotation, else
  // spec.storageClassName (GetPersistentVolumeClass); "" for none.
  std::string storage_class;
  bool block_mode = false;              // spec.volumeMode is Block (else Filesystem)
  std::string volume_attributes_class;  // spec.volumeAttributesClassName
  // spec.nodeAffinity.required; nullopt when unset.
  std::optional<NodeSelector> node_affinity;
  std::optional<ClaimRef> claim_ref;  // spec.claimRef
  // The CSI driver and volume handle: spec.csi, or the CSI form of an
  // in-tree source whose migration is complete (gcePersistentDisk,
  // awsElasticBlockStore, as csi-translation-lib translates them). Both
  // empty otherwise. in_tree_plugin names the in-tree plugin
  // ("kubernetes.io/gce-pd") when the source was translated.
  std::string csi_driver;
  std::string csi_handle;
  std::string in_tree_plugin;
  bool available = false;  // status.phase is Available
  bool deleting = false;   // metadata.deletionTimestamp is set
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_PERSISTENT_VOLUME_H_
