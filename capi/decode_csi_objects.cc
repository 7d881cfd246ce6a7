// storage.k8s.io/v1 CSIDriver and CSIStorageCapacity, what VolumeBinding's
// storage capacity check reads through its listers (binder.go
// hasEnoughCapacity), and VolumeAttachment, what NodeVolumeLimits counts
// (csi.go getNodeVolumeAttachmentInfo).
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/limits.h"

namespace sched::capi {
namespace {

// An optional Quantity member `name` of `obj` in bytes (Quantity.Value).
ApiStatus GetBytes(const cJSON* obj, const char* name, const JsonPath& path,
                   std::optional<int64_t>* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  return DecodeQuantity(v, path.Child(name), false, &out->emplace());
}

}  // namespace

ApiStatus DecodeCSIDriver(const cJSON* obj, const JsonPath& path,
                          std::shared_ptr<const CSIDriver>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  auto driver = std::make_shared<CSIDriver>();
  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  driver->name = name;
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    CAPI_RETURN_IF_ERROR(
        GetBool(spec, "storageCapacity", path.Child("spec"), &driver->storage_capacity));
  }
  *out = std::move(driver);
  return ApiStatus();
}

ApiStatus DecodeCSIStorageCapacity(const cJSON* obj, const JsonPath& path, Interner& in,
                                   std::shared_ptr<const CSIStorageCapacity>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto c = std::make_shared<CSIStorageCapacity>();
  const cJSON* meta;
  std::string_view name, ns, storage_class;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  const JsonPath mp = path.Child("metadata");
  CAPI_RETURN_IF_ERROR(GetString(meta, "namespace", mp, &ns));
  CAPI_RETURN_IF_ERROR(CheckMaxLen(ns, mp.Child("namespace"), "", kMaxNamespaceBytes));
  c->name = name;
  c->ns = ns.empty() ? "default" : ns;
  // API validation: storageClassName is required.
  CAPI_RETURN_IF_ERROR(GetString(obj, "storageClassName", path, &storage_class));
  if (storage_class.empty()) return Required(path.Child("storageClassName"));
  CAPI_RETURN_IF_ERROR(
      CheckMaxLen(storage_class, path.Child("storageClassName"), "", kMaxNameBytes));
  c->storage_class_name = storage_class;
  const cJSON* topology;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "nodeTopology", path, &topology));
  if (topology != nullptr) {
    CAPI_RETURN_IF_ERROR(
        DecodeLabelSelector(topology, path.Child("nodeTopology"), in, &c->node_topology.emplace()));
  }
  CAPI_RETURN_IF_ERROR(GetBytes(obj, "capacity", path, &c->capacity));
  CAPI_RETURN_IF_ERROR(GetBytes(obj, "maximumVolumeSize", path, &c->maximum_volume_size));
  c->atoms = atoms.Finish();
  *out = std::move(c);
  return ApiStatus();
}

ApiStatus DecodeVolumeAttachment(const cJSON* obj, const JsonPath& path,
                                 std::shared_ptr<const VolumeAttachment>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  auto va = std::make_shared<VolumeAttachment>();
  const cJSON* meta;
  std::string_view name, attacher, node_name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  va->name = name;
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  const JsonPath sp = path.Child("spec");
  if (spec == nullptr) return Required(sp);
  CAPI_RETURN_IF_ERROR(GetString(spec, "attacher", sp, &attacher));
  CAPI_RETURN_IF_ERROR(CheckMaxLen(attacher, sp.Child("attacher"), "", kMaxNameBytes));
  va->attacher = attacher;
  // API validation requires nodeName; the engine also keys the object by it.
  CAPI_RETURN_IF_ERROR(GetString(spec, "nodeName", sp, &node_name));
  if (node_name.empty()) return Required(sp.Child("nodeName"));
  CAPI_RETURN_IF_ERROR(CheckMaxLen(node_name, sp.Child("nodeName"), "", kMaxNameBytes));
  va->node_name = node_name;
  const cJSON* source;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "source", sp, &source));
  if (source != nullptr) {
    const cJSON* pv;
    CAPI_RETURN_IF_ERROR(Member(source, "persistentVolumeName", sp.Child("source"), &pv));
    if (pv != nullptr) {
      std::string_view pv_name;
      const JsonPath pp = sp.Child("source").Child("persistentVolumeName");
      CAPI_RETURN_IF_ERROR(AsString(pv, pp, &pv_name));
      CAPI_RETURN_IF_ERROR(CheckMaxLen(pv_name, pp, "", kMaxNameBytes));
      va->persistent_volume_name.emplace(pv_name);
    }
  }
  *out = std::move(va);
  return ApiStatus();
}

}  // namespace sched::capi
