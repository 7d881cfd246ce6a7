#include "libsched/plugins/node_volume_limits.h"

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "libsched/plugins/helper/csi_translation.h"

namespace sched {
namespace {

using Source = PodVolume::Source;

// The snapshot the cycle runs on: Filter looks claims, volumes and classes
// up in it (upstream's listers).
struct PreFilterState : StateData {
  explicit PreFilterState(const ClusterState* s) : snapshot(s) {}
  const ClusterState* snapshot;
};

// Unique volume name ("driver/handle") -> driver.
using VolumeSet = std::map<std::string, std::string>;

// A handle for a claim not bound yet: unique per claim. Upstream prefixes a
// random string so that it cannot meet a real handle.
constexpr std::string_view kUnboundPrefix = "\x01unbound";

// getCSIDriverInfoFromSC.
std::pair<std::string, std::string> DriverFromClass(const ClusterState& s, const CSINode* csi_node,
                                                    const PersistentVolumeClaim& pvc) {
  if (pvc.storage_class.empty()) return {};
  const StorageClass* sc = s.FindStorageClass(pvc.storage_class);
  if (sc == nullptr) return {};
  std::string handle = std::string(kUnboundPrefix) + "-" + pvc.ns + "/" + pvc.name;
  if (const std::string_view driver = CSIDriverForInTreePlugin(sc->provisioner); !driver.empty()) {
    if (!IsCSIMigrationOn(csi_node, sc->provisioner)) return {};
    return {std::string(driver), std::move(handle)};
  }
  return {sc->provisioner, std::move(handle)};
}

// getCSIDriverInfo: the driver and handle of a claim's volume.
std::pair<std::string, std::string> DriverInfo(const ClusterState& s, const CSINode* csi_node,
                                               const PersistentVolumeClaim& pvc) {
  if (pvc.volume_name.empty()) return DriverFromClass(s, csi_node, pvc);
  const PersistentVolume* pv = s.FindPersistentVolume(pvc.volume_name);
  if (pv == nullptr) return DriverFromClass(s, csi_node, pvc);
  if (!pv->in_tree_plugin.empty() && !IsCSIMigrationOn(csi_node, pv->in_tree_plugin)) return {};
  return {pv->csi_driver, pv->csi_handle};
}

// filterAttachableVolumes: adds the pod's attachable volumes to *out.
Status AttachableVolumes(const ClusterState& s, const Pod& pod, const CSINode* csi_node,
                         bool new_pod, VolumeSet* out) {
  for (const PodVolume& v : pod.volumes) {
    if (!v.HasClaim()) {
      const std::optional<InlineCSIVolume> inline_volume = TranslateInlineVolume(v);
      if (!inline_volume || !IsCSIMigrationOn(csi_node, inline_volume->plugin)) continue;
      out->insert_or_assign(std::string(inline_volume->driver) + "/" + inline_volume->handle,
                            std::string(inline_volume->driver));
      continue;
    }
    if (v.claim_name.empty()) return Status::Error("PersistentVolumeClaim had no name");
    const PersistentVolumeClaim* pvc = s.FindPersistentVolumeClaim(pod.ns, v.claim_name);
    if (pvc == nullptr) {
      if (!new_pod) continue;
      return Status::Owned(Code::kUnschedulableAndUnresolvable,
                           "looking up PVC " + pod.ns + "/" + v.claim_name +
                               ": persistentvolumeclaim \"" + v.claim_name + "\" not found");
    }
    // ephemeral.VolumeIsForPod: the claim must be controlled by the pod.
    if (v.source == Source::kEphemeral &&
        (pvc->controller_uid.empty() || pvc->controller_uid != pod.uid)) {
      return Status::Error("PVC " + pvc->ns + "/" + pvc->name + " was not created for pod " +
                           pod.ns + "/" + pod.name + " (pod is not owner)");
    }
    auto [driver, handle] = DriverInfo(s, csi_node, *pvc);
    if (driver.empty() || handle.empty()) continue;
    std::string unique = driver + "/" + handle;
    out->insert_or_assign(std::move(unique), std::move(driver));
  }
  return Status();
}

bool HasAttachableVolume(const Pod& pod) {
  for (const PodVolume& v : pod.volumes) {
    if (v.HasClaim() || v.source == Source::kGCEPersistentDisk ||
        v.source == Source::kAWSElasticBlockStore) {
      return true;
    }
  }
  return false;
}

// isSchedulableAfterCSINodeUpdated: some driver's limit grew (unset counts
// as 0).
QueueingHint CSINodeUpdated(const Pod&, const EventObject& old_obj, const EventObject& new_obj) {
  const CSINode* original = As<CSINode>(old_obj);
  const CSINode* modified = As<CSINode>(new_obj);
  if (original == nullptr || modified == nullptr) return QueueingHint::kQueue;
  std::map<std::string_view, int32_t> old_limits;
  for (const CSINodeDriver& d : original->drivers) {
    old_limits[d.name] = d.allocatable_count.value_or(0);
  }
  for (const CSINodeDriver& d : modified->drivers) {
    const auto it = old_limits.find(d.name);
    const int32_t old_limit = it == old_limits.end() ? 0 : it->second;
    if (d.allocatable_count.value_or(0) > old_limit) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

// isSchedulableAfterPVCAdded: a claim the pod uses (directly or as a
// generic ephemeral volume).
QueueingHint ClaimAdded(const Pod& pod, const EventObject&, const EventObject& new_obj) {
  const PersistentVolumeClaim* pvc = As<PersistentVolumeClaim>(new_obj);
  if (pvc == nullptr) return QueueingHint::kQueue;
  if (pvc->ns != pod.ns) return QueueingHint::kQueueSkip;
  for (const PodVolume& v : pod.volumes) {
    if (v.HasClaim() && v.claim_name == pvc->name) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

// isSchedulableAfterVolumeAttachmentDeleted: the pod has a
// persistentVolumeClaim volume, or a migratable inline volume whose CSI
// driver is the attachment's attacher (one that does not translate: Queue,
// as upstream's error).
QueueingHint AttachmentDeleted(const Pod& pod, const EventObject& old_obj, const EventObject&) {
  const VolumeAttachment* va = As<VolumeAttachment>(old_obj);
  if (va == nullptr) return QueueingHint::kQueue;
  for (const PodVolume& v : pod.volumes) {
    if (v.source == Source::kPersistentVolumeClaim) return QueueingHint::kQueue;
    if (v.source != Source::kGCEPersistentDisk && v.source != Source::kAWSElasticBlockStore) {
      continue;
    }
    const std::optional<InlineCSIVolume> translated = TranslateInlineVolume(v);
    if (!translated || translated->driver == va->attacher) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> NodeVolumeLimits::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  auto pod_deleted = [](const Pod& /*pod*/, const EventObject& old_obj, const EventObject&) {
    const Pod* deleted = AsPod(old_obj);
    if (deleted == nullptr) return QueueingHint::kQueue;
    if (deleted->node_name.empty() && deleted->nominated_node_name.empty()) {
      return QueueingHint::kQueueSkip;
    }
    return HasAttachableVolume(*deleted) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  };
  return {
      {{EventResource::kCSINode, action::kAdd, {}}, nullptr},
      {{EventResource::kCSINode, action::kUpdate, {}}, CSINodeUpdated},
      {{EventResource::kPod, action::kDelete, {}}, pod_deleted},
      {{EventResource::kPersistentVolumeClaim, action::kAdd, {}}, ClaimAdded},
      {{EventResource::kVolumeAttachment, action::kDelete, {}}, AttachmentDeleted},
  };
}

Status NodeVolumeLimits::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                                   PreFilterResult* /*result*/) const {
  if (!HasAttachableVolume(pod)) return Status(Code::kSkip);
  state.Write(slot(), std::make_shared<PreFilterState>(&snapshot));
  return Status();
}

Status NodeVolumeLimits::Filter(const CycleState& state, const Pod& pod,
                                const NodeInfo& node) const {
  if (pod.volumes.empty()) return Status();
  const auto* st = state.Read<PreFilterState>(slot());
  if (st == nullptr) {
    return Status::Error("reading \"PreFilterNodeVolumeLimits\" from cycleState: not found");
  }
  const ClusterState& s = *st->snapshot;
  const CSINode* csi_node = s.FindCSINode(node.node()->name);

  VolumeSet new_volumes;
  if (Status r = AttachableVolumes(s, pod, csi_node, true, &new_volumes); !r.IsSuccess()) return r;
  if (new_volumes.empty() || csi_node == nullptr) return Status();
  std::map<std::string_view, int64_t> limits;
  for (const CSINodeDriver& d : csi_node->drivers) {
    if (d.allocatable_count) limits[d.name] = *d.allocatable_count;
  }
  if (limits.empty()) return Status();

  VolumeSet attached;
  for (const auto& existing : node.pods()) {
    if (Status r = AttachableVolumes(s, *existing, csi_node, false, &attached); !r.IsSuccess()) {
      // Only errors come back for existing pods (unknown claims are skipped).
      return r;
    }
  }
  std::map<std::string_view, int64_t> attached_count, new_count;
  for (const auto& [unique, driver] : attached) {
    new_volumes.erase(unique);
    ++attached_count[driver];
  }
  // getNodeVolumeAttachmentInfo: CSI volumes attached to the node that no
  // pod there uses count too (a new volume they hold is still counted new).
  VolumeSet attachments;
  s.VolumeAttachmentsOn(node.node()->name, [&](const VolumeAttachment& va) {
    if (va.attacher.empty() || !va.persistent_volume_name) return;
    const PersistentVolume* pv = s.FindPersistentVolume(*va.persistent_volume_name);
    // pv.Spec.CSI == nil: not a CSI volume (translated in-tree ones neither).
    if (pv == nullptr || pv->csi_driver.empty() || !pv->in_tree_plugin.empty()) return;
    attachments.insert_or_assign(va.attacher + "/" + pv->csi_handle, va.attacher);
  });
  for (const auto& [unique, driver] : attachments) {
    if (!attached.contains(unique)) ++attached_count[driver];
  }
  for (const auto& [unique, driver] : new_volumes) ++new_count[driver];
  for (const auto& [driver, count] : new_count) {
    auto limit = limits.find(driver);
    if (limit == limits.end()) continue;
    if (attached_count[driver] + count > limit->second) {
      return Status(Code::kUnschedulable, kReasonMaxVolumeCountExceeded);
    }
  }
  return Status();
}

}  // namespace sched
