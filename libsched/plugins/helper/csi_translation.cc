#include "libsched/plugins/helper/csi_translation.h"

#include <algorithm>
#include <array>
#include <utility>

namespace sched {

std::string_view CSIDriverForInTreePlugin(std::string_view plugin) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kDrivers = {{
      {kAWSEBSInTreePlugin, "ebs.csi.aws.com"},
      {kGCEPDInTreePlugin, "pd.csi.storage.gke.io"},
      {"kubernetes.io/azure-disk", "disk.csi.azure.com"},
      {"kubernetes.io/azure-file", "file.csi.azure.com"},
      {"kubernetes.io/cinder", "cinder.csi.openstack.org"},
      {"kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com"},
      {"kubernetes.io/portworx-volume", "pxd.portworx.com"},
  }};
  for (const auto& [name, driver] : kDrivers) {
    if (name == plugin) return driver;
  }
  return {};
}

bool IsCSIMigrationOn(const CSINode* csi_node, std::string_view plugin) {
  if (csi_node == nullptr) return false;
  return plugin == kAWSEBSInTreePlugin || plugin == kGCEPDInTreePlugin ||
         plugin == "kubernetes.io/azure-disk" || plugin == "kubernetes.io/cinder" ||
         plugin == "kubernetes.io/portworx-volume";
}

std::string GCEPDVolumeHandle(std::string_view pd_name, std::string_view zones) {
  const size_t sep = zones.find("__");
  if (zones.empty()) {
    return "projects/UNSPECIFIED/zones/UNSPECIFIED/disks/" + std::string(pd_name);
  }
  if (sep == std::string_view::npos) {
    return "projects/UNSPECIFIED/zones/" + std::string(zones) + "/disks/" + std::string(pd_name);
  }
  // gceGetRegionFromZones: a zone is "<region>-<letter>".
  const std::string_view first = zones.substr(0, sep);
  const std::string_view region = first.substr(0, std::min(first.rfind('-'), first.size()));
  return "projects/UNSPECIFIED/regions/" + std::string(region) + "/disks/" + std::string(pd_name);
}

std::optional<std::string> EBSVolumeHandle(std::string_view volume_id) {
  constexpr std::string_view kScheme = "aws://";
  if (!volume_id.starts_with(kScheme)) return std::string(volume_id);
  const std::string_view rest = volume_id.substr(kScheme.size());
  const size_t slash = rest.rfind('/');
  const std::string_view id =
      slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
  if (!id.starts_with("vol-")) return std::nullopt;
  return std::string(id);
}

std::optional<InlineCSIVolume> TranslateInlineVolume(const PodVolume& v) {
  switch (v.source) {
    case PodVolume::Source::kGCEPersistentDisk:
      return InlineCSIVolume{kGCEPDInTreePlugin, CSIDriverForInTreePlugin(kGCEPDInTreePlugin),
                             GCEPDVolumeHandle(v.disk, {})};
    case PodVolume::Source::kAWSElasticBlockStore: {
      std::optional<std::string> handle = EBSVolumeHandle(v.disk);
      if (!handle) return std::nullopt;
      return InlineCSIVolume{kAWSEBSInTreePlugin, CSIDriverForInTreePlugin(kAWSEBSInTreePlugin),
                             std::move(*handle)};
    }
    default:
      return std::nullopt;
  }
}

}  // namespace sched
