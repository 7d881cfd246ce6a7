// CSIDriver: the part of a storage.k8s.io/v1 CSIDriver VolumeBinding reads:
// whether the driver opts into storage capacity tracking. A CSIDriver is
// named after the driver (a StorageClass's provisioner).
#ifndef LIBSCHED_MODEL_CSI_DRIVER_H_
#define LIBSCHED_MODEL_CSI_DRIVER_H_

#include <string>

namespace sched {

struct CSIDriver {
  std::string name;  // metadata.name
  // spec.storageCapacity is true: provisioning for its classes needs a
  // CSIStorageCapacity with room (unset counts as false, as upstream).
  bool storage_capacity = false;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_CSI_DRIVER_H_
