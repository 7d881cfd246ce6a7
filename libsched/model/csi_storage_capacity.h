// CSIStorageCapacity: a storage.k8s.io/v1 CSIStorageCapacity as
// VolumeBinding's capacity check reads it (binder.go hasEnoughCapacity):
// how much a storage class can provision for the nodes its topology
// selects.
#ifndef LIBSCHED_MODEL_CSI_STORAGE_CAPACITY_H_
#define LIBSCHED_MODEL_CSI_STORAGE_CAPACITY_H_

#include <cstdint>
#include <optional>
#include <string>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

struct CSIStorageCapacity {
  std::string ns;  // metadata.namespace ("default" when empty)
  std::string name;
  std::string storage_class_name;  // storageClassName
  // nodeTopology; nullopt (nil) means no node has access. A selector that
  // does not convert (valid false) matches no node either.
  std::optional<LabelSelector> node_topology;
  // capacity and maximumVolumeSize in bytes (Quantity.Value(), rounded
  // up); nullopt when unset.
  std::optional<int64_t> capacity;
  std::optional<int64_t> maximum_volume_size;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;

  // volumeLimit: maximumVolumeSize when set (more precise), else capacity.
  std::optional<int64_t> VolumeLimit() const {
    return maximum_volume_size ? maximum_volume_size : capacity;
  }
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_CSI_STORAGE_CAPACITY_H_
