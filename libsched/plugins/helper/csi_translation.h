// In-tree volume plugins as their CSI drivers, as far as v1.36's scheduler
// still translates them (k8s.io/csi-translation-lib and the
// isCSIMigrationOn switches of nodevolumelimits/utils.go and
// volumebinding/binder.go). Only the driver name and a volume handle are
// produced: the plugins use them to count unique attached volumes.
//
// Thread-safety: pure functions.
#ifndef LIBSCHED_PLUGINS_HELPER_CSI_TRANSLATION_H_
#define LIBSCHED_PLUGINS_HELPER_CSI_TRANSLATION_H_

#include <optional>
#include <string>
#include <string_view>

#include "libsched/model/csi_node.h"
#include "libsched/model/labels.h"
#include "libsched/model/persistent_volume.h"
#include "libsched/model/pod_volume.h"

namespace sched {

inline constexpr std::string_view kGCEPDInTreePlugin = "kubernetes.io/gce-pd";
inline constexpr std::string_view kAWSEBSInTreePlugin = "kubernetes.io/aws-ebs";

// The CSI driver of a migratable in-tree plugin name (or provisioner) —
// IsMigratableIntreePluginByName with GetCSINameFromInTreeName — or "" when
// the plugin is not migratable.
std::string_view CSIDriverForInTreePlugin(std::string_view plugin);

// nodevolumelimits isCSIMigrationOn: a CSINode exists and the plugin is one
// whose migration is complete (AWS EBS, GCE PD, Azure Disk, Cinder,
// Portworx).
bool IsCSIMigrationOn(const CSINode* csi_node, std::string_view plugin);

// volumebinding isPluginMigratedToCSIOnNode: the node's CSINode lists the
// plugin in its migrated-plugins annotation.
bool IsPluginMigratedToCSIOnNode(const CSINode* csi_node, std::string_view plugin);

// The CSI zone topology key of a decoded in-tree PV plugin (GCEPDTopologyKey
// "topology.gke.io/zone", AWSEBSTopologyKey "topology.ebs.csi.aws.com/zone"),
// or "" for other plugins.
std::string_view CSITopologyKey(std::string_view in_tree_plugin);

// translateTopologyFromInTreeToCSI: the node affinity of an in-tree PV in
// its CSI form. The zone key in use (GA or beta, from the affinity first,
// then the labels) is renamed to `csi_key` in every requirement that has
// values; without such a requirement the PV's zone label ("__"-separated)
// becomes `csi_key In zones` in every term. A beta region key with values
// becomes the GA one. `in` is read only: a key or value never interned is
// on no node (kNoAtom, or dropped from In values).
std::optional<NodeSelector> TranslatePVTopology(const PersistentVolume& pv,
                                                std::string_view csi_key, const Interner& in);

// The CSI volume handle of a GCE PD: zonal when `zones` (the PV's zone
// label, "__"-separated) names one zone, regional when several, and
// "UNSPECIFIED" zone when none (inline volumes).
std::string GCEPDVolumeHandle(std::string_view pd_name, std::string_view zones);
// The CSI volume handle of an AWS EBS volume ID ("aws://zone/vol-1" ->
// "vol-1"; a bare ID as is); nullopt when it does not translate.
std::optional<std::string> EBSVolumeHandle(std::string_view volume_id);

// An inline pod volume translated to CSI (TranslateInTreeInlineVolumeToCSI):
// the in-tree plugin, its driver and the handle; nullopt for volumes that
// are not migratable inline (only GCE PD and AWS EBS are decoded).
struct InlineCSIVolume {
  std::string_view plugin;
  std::string_view driver;
  std::string handle;
};
std::optional<InlineCSIVolume> TranslateInlineVolume(const PodVolume& v);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_CSI_TRANSLATION_H_
