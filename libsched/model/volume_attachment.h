// VolumeAttachment: the parts of a storage.k8s.io/v1 VolumeAttachment
// NodeVolumeLimits counts (nodevolumelimits/csi.go
// getNodeVolumeAttachmentInfo): a CSI volume attached to a node, whether or
// not a pod there still uses it.
#ifndef LIBSCHED_MODEL_VOLUME_ATTACHMENT_H_
#define LIBSCHED_MODEL_VOLUME_ATTACHMENT_H_

#include <optional>
#include <string>

namespace sched {

struct VolumeAttachment {
  std::string name;       // metadata.name
  std::string attacher;   // spec.attacher: the CSI driver
  std::string node_name;  // spec.nodeName
  // spec.source.persistentVolumeName; nullopt for an inline source (not
  // counted, as upstream).
  std::optional<std::string> persistent_volume_name;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_VOLUME_ATTACHMENT_H_
