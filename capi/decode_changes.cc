// sched_engine_apply documents -> ChangeSet, mirroring what the scheduler's
// informer handlers do with each object (pkg/scheduler/eventhandlers.go):
// Nodes go to the cache; Namespaces to the namespace lister; Pods bound to
// a node go to the cache; unbound pods belong to the queue; terminal pods
// are filtered out (deleted); PodDisruptionBudgets are kept for preemption
// (its PDB lister); Services, ReplicationControllers, ReplicaSets and
// StatefulSets for the default topology spread selector (PodTopologySpread's
// listers); PersistentVolumes, PersistentVolumeClaims, StorageClasses,
// CSINodes, CSIDrivers, CSIStorageCapacities and VolumeAttachments for the
// volume plugins' listers; ResourceClaims, ResourceClaimTemplates,
// DeviceClasses and ResourceSlices for DynamicResources'.
#include <optional>
#include <string>
#include <string_view>

#include "capi/apply_document.h"
#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/limits.h"
#include "libsched/state/cluster_state.h"

namespace sched::capi {
namespace {

enum class EventType { kUpsert, kDelete };

// A resource.k8s.io/v1 ResourceClaim, ResourceClaimTemplate, DeviceClass
// or ResourceSlice (DynamicResources' listers).
ApiStatus DecodeDraObject(const cJSON* obj, const JsonPath& path, std::string_view kind,
                          bool remove, Interner& in, ChangeSet* out) {
  Change& c = out->changes.emplace_back();
  if (kind == "ResourceClaim") {
    CAPI_RETURN_IF_ERROR(DecodeResourceClaim(obj, path, in, &c.resource_claim));
    c.op = remove ? Change::Op::kRemoveResourceClaim : Change::Op::kUpsertResourceClaim;
    c.key = c.resource_claim->ns + "/" + c.resource_claim->name;
  } else if (kind == "ResourceClaimTemplate") {
    CAPI_RETURN_IF_ERROR(DecodeResourceClaimTemplate(obj, path, &c.resource_claim_template));
    c.op = remove ? Change::Op::kRemoveResourceClaimTemplate
                  : Change::Op::kUpsertResourceClaimTemplate;
    c.key = c.resource_claim_template->ns + "/" + c.resource_claim_template->name;
  } else if (kind == "DeviceClass") {
    CAPI_RETURN_IF_ERROR(DecodeDeviceClass(obj, path, &c.device_class));
    c.op = remove ? Change::Op::kRemoveDeviceClass : Change::Op::kUpsertDeviceClass;
    c.key = c.device_class->name;
  } else {
    CAPI_RETURN_IF_ERROR(DecodeResourceSlice(obj, path, in, &c.resource_slice));
    c.op = remove ? Change::Op::kRemoveResourceSlice : Change::Op::kUpsertResourceSlice;
    c.key = c.resource_slice->name;
  }
  return ApiStatus();
}

// A PersistentVolume, PersistentVolumeClaim, StorageClass, CSINode,
// CSIDriver, CSIStorageCapacity or VolumeAttachment.
ApiStatus DecodeVolumeObject(const cJSON* obj, const JsonPath& path, std::string_view kind,
                             bool remove, Interner& in, ChangeSet* out) {
  Change& c = out->changes.emplace_back();
  if (kind == "PersistentVolume") {
    CAPI_RETURN_IF_ERROR(DecodePersistentVolume(obj, path, in, &c.pv));
    c.op = remove ? Change::Op::kRemovePersistentVolume : Change::Op::kUpsertPersistentVolume;
    c.key = c.pv->name;
  } else if (kind == "PersistentVolumeClaim") {
    CAPI_RETURN_IF_ERROR(DecodePersistentVolumeClaim(obj, path, in, &c.pvc));
    c.op = remove ? Change::Op::kRemovePersistentVolumeClaim
                  : Change::Op::kUpsertPersistentVolumeClaim;
    c.key = c.pvc->ns + "/" + c.pvc->name;
  } else if (kind == "StorageClass") {
    CAPI_RETURN_IF_ERROR(DecodeStorageClass(obj, path, in, &c.storage_class));
    c.op = remove ? Change::Op::kRemoveStorageClass : Change::Op::kUpsertStorageClass;
    c.key = c.storage_class->name;
  } else if (kind == "CSIDriver") {
    CAPI_RETURN_IF_ERROR(DecodeCSIDriver(obj, path, &c.csi_driver));
    c.op = remove ? Change::Op::kRemoveCSIDriver : Change::Op::kUpsertCSIDriver;
    c.key = c.csi_driver->name;
  } else if (kind == "CSIStorageCapacity") {
    CAPI_RETURN_IF_ERROR(DecodeCSIStorageCapacity(obj, path, in, &c.csi_storage_capacity));
    c.op = remove ? Change::Op::kRemoveCSIStorageCapacity : Change::Op::kUpsertCSIStorageCapacity;
    c.key = c.csi_storage_capacity->ns + "/" + c.csi_storage_capacity->name;
  } else if (kind == "VolumeAttachment") {
    CAPI_RETURN_IF_ERROR(DecodeVolumeAttachment(obj, path, &c.volume_attachment));
    c.op = remove ? Change::Op::kRemoveVolumeAttachment : Change::Op::kUpsertVolumeAttachment;
    c.key = c.volume_attachment->node_name + "/" + c.volume_attachment->name;
  } else {
    CAPI_RETURN_IF_ERROR(DecodeCSINode(obj, path, in, &c.csi_node));
    c.op = remove ? Change::Op::kRemoveCSINode : Change::Op::kUpsertCSINode;
    c.key = c.csi_node->name;
  }
  return ApiStatus();
}

// Decodes one object. `list_kind` is the kind of an enclosing typed list
// ("NodeList"): the API server omits kind and apiVersion on its items.
ApiStatus DecodeObject(const cJSON* obj, const JsonPath& path, EventType type,
                       std::string_view list_kind, Interner& in, ChangeSet* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  std::string_view kind, api_version;
  CAPI_RETURN_IF_ERROR(GetString(obj, "kind", path, &kind));
  CAPI_RETURN_IF_ERROR(GetString(obj, "apiVersion", path, &api_version));
  if (kind.empty() && list_kind.size() > 4) kind = list_kind.substr(0, list_kind.size() - 4);
  if (kind.empty()) return Required(path.Child("kind"));
  const bool core = api_version.empty() || api_version == "v1";

  if (core && kind == "Node") {
    std::shared_ptr<const Node> node;
    CAPI_RETURN_IF_ERROR(DecodeNode(obj, path, in, &node));
    if (type == EventType::kDelete) {
      out->changes.push_back({Change::Op::kRemoveNode, nullptr, nullptr, node->name, nullptr});
    } else {
      out->changes.push_back({Change::Op::kUpsertNode, std::move(node), nullptr, {}, nullptr});
    }
    ++out->summary.applied;
    return ApiStatus();
  }
  if (core && kind == "Pod") {
    DecodedPod decoded;
    CAPI_RETURN_IF_ERROR(DecodePod(obj, path, in, &decoded));
    const bool bound = !decoded.pod->node_name.empty();
    if (type == EventType::kDelete || decoded.terminal) {
      // Removal by key also drops a copy the engine assumed for a pod that
      // was still pending; such a deletion counts as a pending pod's.
      std::string key = PodKey(*decoded.pod);
      out->changes.push_back({Change::Op::kRemovePod, nullptr, std::move(decoded.pod), key});
      if (bound || decoded.terminal) {
        ++out->summary.applied;
      } else {
        ++out->summary.pending_pods;
      }
    } else if (bound) {
      out->changes.push_back(
          {Change::Op::kUpsertPod, nullptr, std::move(decoded.pod), {}, nullptr});
      ++out->summary.applied;
    } else {
      // The scheduling queue's business (sched_engine_run); an assumed copy
      // stays in the cache until an event binds or deletes it.
      out->changes.push_back({Change::Op::kQueuePod, nullptr, std::move(decoded.pod), {}});
      ++out->summary.pending_pods;
    }
    return ApiStatus();
  }
  // Items of a PodDisruptionBudgetList carry no apiVersion.
  if ((api_version == "policy/v1" || api_version.empty()) && kind == "PodDisruptionBudget") {
    std::shared_ptr<const PodDisruptionBudget> pdb;
    CAPI_RETURN_IF_ERROR(DecodePdb(obj, path, in, &pdb));
    if (type == EventType::kDelete) {
      out->changes.push_back({Change::Op::kRemovePdb, nullptr, nullptr, pdb->ns + "/" + pdb->name});
    } else {
      out->changes.push_back({Change::Op::kUpsertPdb, nullptr, nullptr, {}, std::move(pdb)});
    }
    ++out->summary.applied;
    return ApiStatus();
  }
  if (core && kind == "Namespace") {
    std::shared_ptr<const Namespace> ns;
    CAPI_RETURN_IF_ERROR(DecodeNamespace(obj, path, in, &ns));
    if (type == EventType::kDelete) {
      out->changes.push_back({Change::Op::kRemoveNamespace, nullptr, nullptr, ns->name, nullptr});
    } else {
      out->changes.push_back(
          {Change::Op::kUpsertNamespace, nullptr, nullptr, {}, nullptr, std::move(ns)});
    }
    ++out->summary.applied;
    return ApiStatus();
  }
  // Items of a typed list carry no apiVersion.
  const bool apps = api_version == "apps/v1" || api_version.empty();
  std::optional<WorkloadKind> workload;
  if (core && kind == "Service") workload = WorkloadKind::kService;
  if (core && kind == "ReplicationController") workload = WorkloadKind::kReplicationController;
  if (apps && kind == "ReplicaSet") workload = WorkloadKind::kReplicaSet;
  if (apps && kind == "StatefulSet") workload = WorkloadKind::kStatefulSet;
  if (workload) {
    std::shared_ptr<const Workload> w;
    CAPI_RETURN_IF_ERROR(DecodeWorkload(obj, path, *workload, in, &w));
    Change& c = out->changes.emplace_back();
    if (type == EventType::kDelete) {
      c.op = Change::Op::kRemoveWorkload;
      c.key = w->ns + "/" + w->name;
      c.workload_kind = *workload;
    } else {
      c.op = Change::Op::kUpsertWorkload;
      c.workload = std::move(w);
    }
    ++out->summary.applied;
    return ApiStatus();
  }
  const bool storage = api_version == "storage.k8s.io/v1" || api_version.empty();
  if ((core && (kind == "PersistentVolume" || kind == "PersistentVolumeClaim")) ||
      (storage && (kind == "StorageClass" || kind == "CSINode" || kind == "CSIDriver" ||
                   kind == "CSIStorageCapacity" || kind == "VolumeAttachment"))) {
    CAPI_RETURN_IF_ERROR(DecodeVolumeObject(obj, path, kind, type == EventType::kDelete, in, out));
    ++out->summary.applied;
    return ApiStatus();
  }
  const bool resource = api_version == "resource.k8s.io/v1" || api_version.empty();
  if (resource && (kind == "ResourceClaim" || kind == "ResourceClaimTemplate" ||
                   kind == "DeviceClass" || kind == "ResourceSlice")) {
    CAPI_RETURN_IF_ERROR(DecodeDraObject(obj, path, kind, type == EventType::kDelete, in, out));
    ++out->summary.applied;
    return ApiStatus();
  }
  ++out->summary.ignored[std::string(kind)];
  return ApiStatus();
}

// {"type": ..., "object": {...}}
ApiStatus DecodeEvent(const cJSON* event, const JsonPath& path, Interner& in, ChangeSet* out) {
  CAPI_RETURN_IF_ERROR(AsObject(event, path));
  std::string_view type;
  CAPI_RETURN_IF_ERROR(GetString(event, "type", path, &type));
  EventType t;
  if (type == "ADDED" || type == "MODIFIED") {
    t = EventType::kUpsert;
  } else if (type == "DELETED") {
    t = EventType::kDelete;
  } else if (type == "BOOKMARK") {
    return ApiStatus();  // a resourceVersion checkpoint, not a change
  } else if (type.empty()) {
    return Required(path.Child("type"));
  } else {
    return Unsupported(path.Child("type"), type, {"ADDED", "BOOKMARK", "DELETED", "MODIFIED"});
  }
  const cJSON* object;
  CAPI_RETURN_IF_ERROR(Member(event, "object", path, &object));
  if (object == nullptr) return Required(path.Child("object"));
  return DecodeObject(object, path.Child("object"), t, {}, in, out);
}

bool IsEvent(const cJSON* obj) {
  return cJSON_GetObjectItemCaseSensitive(obj, "type") != nullptr &&
         cJSON_GetObjectItemCaseSensitive(obj, "object") != nullptr;
}

}  // namespace

ApiStatus DecodeChanges(const ApplyDocument& doc, Interner& in, ChangeSet* out) {
  const JsonPath path;
  const cJSON* root = doc.root();
  if (cJSON_IsArray(root)) {
    CAPI_RETURN_IF_ERROR(CheckCount(doc.Count(root), path, kMaxApplyItems));
    out->changes.reserve(out->changes.size() + doc.Count(root));
    return doc.ForEach(
        root, path, [&](const cJSON* e, const JsonPath& p) { return DecodeEvent(e, p, in, out); });
  }
  if (!cJSON_IsObject(root)) {
    return ApiStatus::Invalid(path,
                              "expected a watch event, an array of events, a List or an object");
  }
  if (IsEvent(root)) return DecodeEvent(root, path, in, out);

  std::string_view kind;
  CAPI_RETURN_IF_ERROR(GetString(root, "kind", path, &kind));
  if (kind.size() >= 4 && kind.substr(kind.size() - 4) == "List") {
    const cJSON* items;
    CAPI_RETURN_IF_ERROR(GetArray(root, "items", path, &items));
    if (items == nullptr) return ApiStatus();
    const JsonPath items_path = path.Child("items");
    CAPI_RETURN_IF_ERROR(CheckCount(doc.Count(items), items_path, kMaxApplyItems));
    out->changes.reserve(out->changes.size() + doc.Count(items));
    return doc.ForEach(items, items_path, [&](const cJSON* item, const JsonPath& p) {
      return DecodeObject(item, p, EventType::kUpsert, kind, in, out);
    });
  }
  return DecodeObject(root, path, EventType::kUpsert, {}, in, out);
}

ApiStatus DecodeChanges(const cJSON* root, Interner& in, ChangeSet* out) {
  return DecodeChanges(ApplyDocument(root), in, out);
}

}  // namespace sched::capi
