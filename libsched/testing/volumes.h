// Test builders for pod volumes and the volume objects (PV, PVC,
// StorageClass, CSINode), after upstream's st.MakePersistentVolume /
// st.MakePersistentVolumeClaim wrappers. Test-only.
#ifndef LIBSCHED_TESTING_VOLUMES_H_
#define LIBSCHED_TESTING_VOLUMES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/model/csi_node.h"
#include "libsched/model/persistent_volume.h"
#include "libsched/model/persistent_volume_claim.h"
#include "libsched/model/pod_volume.h"
#include "libsched/model/storage_class.h"

namespace sched::testing {

inline PodVolume ClaimVolume(const std::string& claim, const std::string& name = "") {
  PodVolume v;
  v.name = name.empty() ? claim : name;
  v.source = PodVolume::Source::kPersistentVolumeClaim;
  v.claim_name = claim;
  return v;
}
// A generic ephemeral volume `name` of pod `pod_name`.
inline PodVolume EphemeralVolume(const std::string& pod_name, const std::string& name) {
  PodVolume v;
  v.name = name;
  v.source = PodVolume::Source::kEphemeral;
  v.claim_name = pod_name + "-" + name;
  return v;
}
// A GCE PD, AWS EBS, iSCSI or CSI volume on `disk` (pdName, volumeID, iqn,
// driver).
inline PodVolume DiskVolume(PodVolume::Source source, const std::string& disk,
                            bool read_only = false) {
  PodVolume v;
  v.name = disk;
  v.source = source;
  v.disk = disk;
  v.read_only = read_only;
  return v;
}
inline PodVolume RBDVolume(std::vector<std::string> monitors, const std::string& pool,
                           const std::string& image, bool read_only = false) {
  PodVolume v = DiskVolume(PodVolume::Source::kRBD, image, read_only);
  v.rbd_monitors = std::move(monitors);
  v.rbd_pool = pool;
  return v;
}

inline std::shared_ptr<PersistentVolumeClaim> MakePVC(const std::string& name,
                                                      const std::string& volume_name = "",
                                                      const std::string& storage_class = "",
                                                      AccessModes modes = 0) {
  auto c = std::make_shared<PersistentVolumeClaim>();
  c->ns = "default";
  c->name = name;
  c->volume_name = volume_name;
  c->bind_completed = !volume_name.empty();
  c->storage_class = storage_class;
  c->access_modes = modes;
  return c;
}

inline std::shared_ptr<PersistentVolume> MakePV(const std::string& name,
                                                const std::string& storage_class = "") {
  auto pv = std::make_shared<PersistentVolume>();
  pv->name = name;
  pv->storage_class = storage_class;
  pv->available = true;
  return pv;
}

inline std::shared_ptr<StorageClass> MakeClass(const std::string& name,
                                               std::optional<VolumeBindingMode> mode,
                                               const std::string& provisioner = "") {
  auto sc = std::make_shared<StorageClass>();
  sc->name = name;
  sc->binding_mode = mode;
  sc->provisioner = provisioner;
  return sc;
}

// A CSINode with (driver, limit) pairs; a negative limit means unset.
inline std::shared_ptr<CSINode> MakeCSINode(const std::string& name,
                                            std::vector<std::pair<std::string, int32_t>> drivers) {
  auto n = std::make_shared<CSINode>();
  n->name = name;
  for (auto& [d, limit] : drivers) {
    CSINodeDriver& driver = n->drivers.emplace_back();
    driver.name = d;
    if (limit >= 0) driver.allocatable_count = limit;
  }
  return n;
}

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_VOLUMES_H_
