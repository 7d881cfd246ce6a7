// PodVolume: one entry of a Pod's spec.volumes, reduced to what the volume
// plugins read (volumerestrictions, nodevolumelimits, volumezone,
// volumebinding). Volumes of other sources (configMap, emptyDir, ...) are not
// kept: no plugin reads them.
#ifndef LIBSCHED_MODEL_POD_VOLUME_H_
#define LIBSCHED_MODEL_POD_VOLUME_H_

#include <cstdint>
#include <string>
#include <vector>

namespace sched {

struct PodVolume {
  enum class Source : uint8_t {
    kPersistentVolumeClaim,  // persistentVolumeClaim
    kEphemeral,              // ephemeral (a generic ephemeral volume)
    kGCEPersistentDisk,      // gcePersistentDisk
    kAWSElasticBlockStore,   // awsElasticBlockStore
    kRBD,                    // rbd
    kISCSI,                  // iscsi
    kCSI,                    // csi (an inline CSI volume)
  };
  std::string name;  // volumes[].name
  Source source = Source::kPersistentVolumeClaim;
  // kPersistentVolumeClaim: claimName; kEphemeral: "<pod name>-<volume
  // name>", the claim the ephemeral volume controller creates
  // (ephemeral.VolumeClaimName).
  std::string claim_name;
  // kGCEPersistentDisk: pdName; kAWSElasticBlockStore: volumeID; kRBD:
  // image; kISCSI: iqn; kCSI: driver.
  std::string disk;
  std::string rbd_pool;                   // kRBD: pool ("rbd" when empty)
  std::vector<std::string> rbd_monitors;  // kRBD: monitors
  bool read_only = false;                 // the source's readOnly

  // Whether the volume is backed by a PersistentVolumeClaim.
  bool HasClaim() const {
    return source == Source::kPersistentVolumeClaim || source == Source::kEphemeral;
  }
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_VOLUME_H_
