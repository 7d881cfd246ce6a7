// core/v1 PersistentVolume and PersistentVolumeClaim, storage.k8s.io/v1
// StorageClass and CSINode, and a Pod's spec.volumes: what the volume
// plugins (volumerestrictions, nodevolumelimits, volumezone, volumebinding)
// read through their listers.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/limits.h"
#include "libsched/plugins/helper/csi_translation.h"

namespace sched::capi {
namespace {

constexpr const char* kAnnStorageClass = "volume.beta.kubernetes.io/storage-class";
constexpr const char* kAnnBindCompleted = "pv.kubernetes.io/bind-completed";
constexpr const char* kAnnSelectedNode = "volume.kubernetes.io/selected-node";
constexpr const char* kAnnMigratedPlugins = "storage.alpha.kubernetes.io/migrated-plugins";

// metadata.annotations[name] into *out; *present says whether it is there.
ApiStatus GetAnnotation(const cJSON* meta, const JsonPath& mp, const char* name,
                        std::string_view* out, bool* present = nullptr) {
  const cJSON* annotations;
  CAPI_RETURN_IF_ERROR(GetObject(meta, "annotations", mp, &annotations));
  if (annotations == nullptr) return ApiStatus();
  const JsonPath ap = mp.Child("annotations");
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(annotations, ap));
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(annotations, name, ap, &v));
  if (v == nullptr) return ApiStatus();
  if (present != nullptr) *present = true;
  return AsString(v, ap.Child(name), out);
}

// metadata.deletionTimestamp is set.
ApiStatus IsDeleting(const cJSON* meta, const JsonPath& mp, bool* out) {
  std::string_view ts;
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(meta, "deletionTimestamp", mp, &v));
  if (v == nullptr) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsString(v, mp.Child("deletionTimestamp"), &ts));
  *out = true;
  return ApiStatus();
}

ApiStatus DecodeAccessModes(const cJSON* spec, const JsonPath& sp, AccessModes* out) {
  return ForEachElement(spec, "accessModes", sp, [&](const cJSON* v, const JsonPath& p) {
    std::string_view mode;
    CAPI_RETURN_IF_ERROR(AsString(v, p, &mode));
    if (mode == "ReadWriteOnce") {
      *out |= access_mode::kReadWriteOnce;
    } else if (mode == "ReadOnlyMany") {
      *out |= access_mode::kReadOnlyMany;
    } else if (mode == "ReadWriteMany") {
      *out |= access_mode::kReadWriteMany;
    } else if (mode == "ReadWriteOncePod") {
      *out |= access_mode::kReadWriteOncePod;
    } else {
      return Unsupported(p, mode,
                         {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"});
    }
    return ApiStatus();
  });
}

// spec.volumeMode: Filesystem (the default) or Block.
ApiStatus DecodeBlockMode(const cJSON* spec, const JsonPath& sp, bool* block) {
  std::string_view mode;
  CAPI_RETURN_IF_ERROR(GetString(spec, "volumeMode", sp, &mode));
  if (!mode.empty() && mode != "Filesystem" && mode != "Block") {
    return Unsupported(sp.Child("volumeMode"), mode, {"Block", "Filesystem"});
  }
  *block = mode == "Block";
  return ApiStatus();
}

// The storage class: the beta annotation wins over spec.storageClassName
// (GetPersistentVolumeClass / GetPersistentVolumeClaimClass). `spec` may
// be null.
ApiStatus DecodeClass(const cJSON* meta, const JsonPath& mp, const cJSON* spec, const JsonPath& sp,
                      std::string* out) {
  std::string_view ann, name;
  bool has_ann = false;
  CAPI_RETURN_IF_ERROR(GetAnnotation(meta, mp, kAnnStorageClass, &ann, &has_ann));
  if (spec != nullptr) CAPI_RETURN_IF_ERROR(GetString(spec, "storageClassName", sp, &name));
  *out = has_ann ? ann : name;
  return ApiStatus();
}

// The status.phase string of `obj`.
ApiStatus GetPhase(const cJSON* obj, const JsonPath& path, std::string_view* phase) {
  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status == nullptr) return ApiStatus();
  return GetString(status, "phase", path.Child("status"), phase);
}

ApiStatus DecodePVSource(const cJSON* spec, const JsonPath& sp, const Interner& in,
                         PersistentVolume* pv) {
  const cJSON* src;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "csi", sp, &src));
  if (src != nullptr) {
    std::string_view driver, handle;
    CAPI_RETURN_IF_ERROR(GetString(src, "driver", sp.Child("csi"), &driver));
    CAPI_RETURN_IF_ERROR(GetString(src, "volumeHandle", sp.Child("csi"), &handle));
    pv->csi_driver = driver;
    pv->csi_handle = handle;
    return ApiStatus();
  }
  CAPI_RETURN_IF_ERROR(GetObject(spec, "gcePersistentDisk", sp, &src));
  if (src != nullptr) {
    std::string_view pd, zones;
    CAPI_RETURN_IF_ERROR(GetString(src, "pdName", sp.Child("gcePersistentDisk"), &pd));
    // The translator reads the beta zone label first, then the GA one.
    for (const char* key :
         {"failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone"}) {
      const Atom k = in.Find(key);
      const std::optional<Atom> v = k == kNoAtom ? std::nullopt : pv->labels.Get(k);
      if (v && !in.Str(*v).empty()) {
        zones = in.Str(*v);
        break;
      }
    }
    pv->in_tree_plugin = kGCEPDInTreePlugin;
    pv->csi_driver = CSIDriverForInTreePlugin(kGCEPDInTreePlugin);
    pv->csi_handle = GCEPDVolumeHandle(pd, zones);
    return ApiStatus();
  }
  CAPI_RETURN_IF_ERROR(GetObject(spec, "awsElasticBlockStore", sp, &src));
  if (src != nullptr) {
    std::string_view id;
    CAPI_RETURN_IF_ERROR(GetString(src, "volumeID", sp.Child("awsElasticBlockStore"), &id));
    pv->in_tree_plugin = kAWSEBSInTreePlugin;
    if (std::optional<std::string> handle = EBSVolumeHandle(id)) {
      pv->csi_driver = CSIDriverForInTreePlugin(kAWSEBSInTreePlugin);
      pv->csi_handle = std::move(*handle);
    }
  }
  return ApiStatus();
}

}  // namespace

ApiStatus DecodePersistentVolume(const cJSON* obj, const JsonPath& path, Interner& in,
                                 std::shared_ptr<const PersistentVolume>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto pv = std::make_shared<PersistentVolume>();
  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  const JsonPath mp = path.Child("metadata");
  pv->name = name;
  const cJSON* labels;
  CAPI_RETURN_IF_ERROR(Member(meta, "labels", mp, &labels));
  CAPI_RETURN_IF_ERROR(DecodeLabels(labels, mp.Child("labels"), in, &pv->labels));
  CAPI_RETURN_IF_ERROR(IsDeleting(meta, mp, &pv->deleting));
  std::string_view phase;
  CAPI_RETURN_IF_ERROR(GetPhase(obj, path, &phase));
  pv->available = phase == "Available";

  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  const JsonPath sp = path.Child("spec");
  CAPI_RETURN_IF_ERROR(DecodeClass(meta, mp, spec, sp, &pv->storage_class));
  if (spec == nullptr) {
    pv->atoms = atoms.Finish();
    *out = std::move(pv);
    return ApiStatus();
  }
  const cJSON* capacity;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "capacity", sp, &capacity));
  if (capacity != nullptr) {
    CAPI_RETURN_IF_ERROR(CheckUniqueKeys(capacity, sp.Child("capacity")));
    const cJSON* storage;
    CAPI_RETURN_IF_ERROR(Member(capacity, "storage", sp.Child("capacity"), &storage));
    CAPI_RETURN_IF_ERROR(
        DecodeQuantity(storage, sp.Child("capacity").Child("storage"), false, &pv->capacity_bytes));
  }
  CAPI_RETURN_IF_ERROR(DecodeAccessModes(spec, sp, &pv->access_modes));
  CAPI_RETURN_IF_ERROR(DecodeBlockMode(spec, sp, &pv->block_mode));
  std::string_view vac;
  CAPI_RETURN_IF_ERROR(GetString(spec, "volumeAttributesClassName", sp, &vac));
  pv->volume_attributes_class = vac;

  const cJSON* affinity;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "nodeAffinity", sp, &affinity));
  if (affinity != nullptr) {
    const JsonPath ap = sp.Child("nodeAffinity");
    const cJSON* required;
    CAPI_RETURN_IF_ERROR(GetObject(affinity, "required", ap, &required));
    if (required != nullptr) {
      NodeSelector& selector = pv->node_affinity.emplace();
      CAPI_RETURN_IF_ERROR(ForEachElement(required, "nodeSelectorTerms", ap.Child("required"),
                                          [&](const cJSON* t, const JsonPath& p) {
                                            CAPI_RETURN_IF_ERROR(AsObject(t, p));
                                            return DecodeNodeSelectorTerm(
                                                t, p, in, &selector.terms.emplace_back());
                                          }));
    }
  }
  const cJSON* claim_ref;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "claimRef", sp, &claim_ref));
  if (claim_ref != nullptr) {
    const JsonPath cp = sp.Child("claimRef");
    std::string_view ns, claim, uid;
    CAPI_RETURN_IF_ERROR(GetString(claim_ref, "namespace", cp, &ns));
    CAPI_RETURN_IF_ERROR(GetString(claim_ref, "name", cp, &claim));
    CAPI_RETURN_IF_ERROR(GetString(claim_ref, "uid", cp, &uid));
    pv->claim_ref = ClaimRef{std::string(ns), std::string(claim), std::string(uid)};
  }
  CAPI_RETURN_IF_ERROR(DecodePVSource(spec, sp, in, pv.get()));
  pv->atoms = atoms.Finish();
  *out = std::move(pv);
  return ApiStatus();
}

ApiStatus DecodePersistentVolumeClaim(const cJSON* obj, const JsonPath& path, Interner& in,
                                      std::shared_ptr<const PersistentVolumeClaim>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto pvc = std::make_shared<PersistentVolumeClaim>();
  const cJSON* meta;
  std::string_view name, ns, uid, selected_node;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  const JsonPath mp = path.Child("metadata");
  CAPI_RETURN_IF_ERROR(GetString(meta, "namespace", mp, &ns));
  CAPI_RETURN_IF_ERROR(CheckMaxLen(ns, mp.Child("namespace"), "", kMaxNamespaceBytes));
  CAPI_RETURN_IF_ERROR(GetString(meta, "uid", mp, &uid));
  pvc->name = name;
  pvc->ns = ns.empty() ? "default" : ns;
  pvc->uid = uid;
  CAPI_RETURN_IF_ERROR(IsDeleting(meta, mp, &pvc->deleting));
  std::string_view ignored;
  CAPI_RETURN_IF_ERROR(GetAnnotation(meta, mp, kAnnBindCompleted, &ignored, &pvc->bind_completed));
  bool has_selected_node = false;
  CAPI_RETURN_IF_ERROR(
      GetAnnotation(meta, mp, kAnnSelectedNode, &selected_node, &has_selected_node));
  if (has_selected_node) pvc->selected_node.emplace(selected_node);
  bool found = false;
  CAPI_RETURN_IF_ERROR(
      ForEachElement(meta, "ownerReferences", mp, [&](const cJSON* v, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(v, p));
        std::string_view owner_uid;
        bool controller = false;
        CAPI_RETURN_IF_ERROR(GetString(v, "uid", p, &owner_uid));
        CAPI_RETURN_IF_ERROR(GetBool(v, "controller", p, &controller));
        if (controller && !found) pvc->controller_uid = owner_uid;  // the first controller
        found = found || controller;
        return ApiStatus();
      }));
  std::string_view phase;
  CAPI_RETURN_IF_ERROR(GetPhase(obj, path, &phase));
  pvc->lost = phase == "Lost";

  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  const JsonPath sp = path.Child("spec");
  CAPI_RETURN_IF_ERROR(DecodeClass(meta, mp, spec, sp, &pvc->storage_class));
  if (spec == nullptr) {
    pvc->atoms = atoms.Finish();
    *out = std::move(pvc);
    return ApiStatus();
  }
  std::string_view volume_name, vac;
  CAPI_RETURN_IF_ERROR(GetString(spec, "volumeName", sp, &volume_name));
  CAPI_RETURN_IF_ERROR(GetString(spec, "volumeAttributesClassName", sp, &vac));
  pvc->volume_name = volume_name;
  pvc->volume_attributes_class = vac;
  CAPI_RETURN_IF_ERROR(DecodeAccessModes(spec, sp, &pvc->access_modes));
  CAPI_RETURN_IF_ERROR(DecodeBlockMode(spec, sp, &pvc->block_mode));
  const cJSON* resources;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "resources", sp, &resources));
  if (resources != nullptr) {
    const JsonPath rp = sp.Child("resources");
    const cJSON* requests;
    CAPI_RETURN_IF_ERROR(GetObject(resources, "requests", rp, &requests));
    if (requests != nullptr) {
      CAPI_RETURN_IF_ERROR(CheckUniqueKeys(requests, rp.Child("requests")));
      const cJSON* storage;
      CAPI_RETURN_IF_ERROR(Member(requests, "storage", rp.Child("requests"), &storage));
      CAPI_RETURN_IF_ERROR(DecodeQuantity(storage, rp.Child("requests").Child("storage"), false,
                                          &pvc->storage_request));
      pvc->has_storage_request = storage != nullptr;
    }
  }
  const cJSON* selector;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "selector", sp, &selector));
  if (selector != nullptr) {
    CAPI_RETURN_IF_ERROR(
        DecodeLabelSelector(selector, sp.Child("selector"), in, &pvc->selector.emplace()));
  }
  pvc->atoms = atoms.Finish();
  *out = std::move(pvc);
  return ApiStatus();
}

ApiStatus DecodeStorageClass(const cJSON* obj, const JsonPath& path, Interner& in,
                             std::shared_ptr<const StorageClass>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto sc = std::make_shared<StorageClass>();
  const cJSON* meta;
  std::string_view name, provisioner, mode;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  sc->name = name;
  CAPI_RETURN_IF_ERROR(GetString(obj, "provisioner", path, &provisioner));
  sc->provisioner = provisioner;
  CAPI_RETURN_IF_ERROR(GetString(obj, "volumeBindingMode", path, &mode));
  if (mode == "Immediate") {
    sc->binding_mode = VolumeBindingMode::kImmediate;
  } else if (mode == "WaitForFirstConsumer") {
    sc->binding_mode = VolumeBindingMode::kWaitForFirstConsumer;
  } else if (!mode.empty()) {
    return Unsupported(path.Child("volumeBindingMode"), mode,
                       {"Immediate", "WaitForFirstConsumer"});
  }
  CAPI_RETURN_IF_ERROR(
      ForEachElement(obj, "allowedTopologies", path, [&](const cJSON* t, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(t, p));
        NodeSelectorTerm& term = sc->allowed_topologies.emplace_back();
        return ForEachElement(
            t, "matchLabelExpressions", p, [&](const cJSON* e, const JsonPath& ep) {
              CAPI_RETURN_IF_ERROR(AsObject(e, ep));
              std::string_view key;
              CAPI_RETURN_IF_ERROR(GetString(e, "key", ep, &key));
              CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(key, ep.Child("key")));
              Requirement& r = term.match_expressions.emplace_back();
              r.key = in.Intern(key);
              r.op = SelectorOp::kIn;
              CAPI_RETURN_IF_ERROR(
                  ForEachElement(e, "values", ep, [&](const cJSON* v, const JsonPath& vp) {
                    std::string_view value;
                    CAPI_RETURN_IF_ERROR(AsString(v, vp, &value));
                    r.values.push_back(in.Intern(value));
                    return ApiStatus();
                  }));
              std::sort(r.values.begin(), r.values.end());
              // TopologySelectorRequirementsAsSelector fails on an empty list.
              r.valid = !r.values.empty();
              term.valid = term.valid && r.valid;
              return ApiStatus();
            });
      }));
  sc->atoms = atoms.Finish();
  *out = std::move(sc);
  return ApiStatus();
}

ApiStatus DecodeCSINode(const cJSON* obj, const JsonPath& path, Interner& /*in*/,
                        std::shared_ptr<const CSINode>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  auto csi = std::make_shared<CSINode>();
  const cJSON* meta;
  std::string_view name, migrated;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  csi->name = name;
  CAPI_RETURN_IF_ERROR(GetAnnotation(meta, path.Child("metadata"), kAnnMigratedPlugins, &migrated));
  for (size_t start = 0; !migrated.empty() && start <= migrated.size();) {
    const size_t comma = std::min(migrated.find(',', start), migrated.size());
    csi->migrated_plugins.emplace_back(migrated.substr(start, comma - start));
    start = comma + 1;
  }
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    CAPI_RETURN_IF_ERROR(
        ForEachElement(spec, "drivers", path.Child("spec"), [&](const cJSON* d, const JsonPath& p) {
          CAPI_RETURN_IF_ERROR(AsObject(d, p));
          CSINodeDriver& driver = csi->drivers.emplace_back();
          std::string_view driver_name;
          CAPI_RETURN_IF_ERROR(GetString(d, "name", p, &driver_name));
          driver.name = driver_name;
          const cJSON* allocatable;
          CAPI_RETURN_IF_ERROR(GetObject(d, "allocatable", p, &allocatable));
          if (allocatable == nullptr) return ApiStatus();
          const cJSON* count;
          CAPI_RETURN_IF_ERROR(Member(allocatable, "count", p.Child("allocatable"), &count));
          if (count == nullptr) return ApiStatus();
          int64_t n;
          // API validation: the count must be non-negative.
          CAPI_RETURN_IF_ERROR(
              AsInt(count, p.Child("allocatable").Child("count"), 0, INT32_MAX, &n));
          driver.allocatable_count = static_cast<int32_t>(n);
          return ApiStatus();
        }));
  }
  *out = std::move(csi);
  return ApiStatus();
}

ApiStatus DecodePodVolume(const cJSON* v, const JsonPath& path, std::string_view pod_name,
                          std::vector<PodVolume>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  PodVolume vol;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(GetString(v, "name", path, &name));
  vol.name = name;
  // Reads the source object `key` if present: *src is null otherwise.
  const cJSON* src = nullptr;
  JsonPath p;
  auto source = [&](const char* key, PodVolume::Source s) -> ApiStatus {
    if (src != nullptr) return ApiStatus();
    CAPI_RETURN_IF_ERROR(GetObject(v, key, path, &src));
    if (src == nullptr) return ApiStatus();
    vol.source = s;
    p = path.Child(key);
    return GetBool(src, "readOnly", p, &vol.read_only);
  };
  std::string_view s;
  CAPI_RETURN_IF_ERROR(source("persistentVolumeClaim", PodVolume::Source::kPersistentVolumeClaim));
  if (src != nullptr) {
    CAPI_RETURN_IF_ERROR(GetString(src, "claimName", p, &s));
    vol.claim_name = s;
  }
  CAPI_RETURN_IF_ERROR(source("ephemeral", PodVolume::Source::kEphemeral));
  if (vol.source == PodVolume::Source::kEphemeral) {
    vol.claim_name = std::string(pod_name) + "-" + vol.name;
  }
  CAPI_RETURN_IF_ERROR(source("gcePersistentDisk", PodVolume::Source::kGCEPersistentDisk));
  if (vol.source == PodVolume::Source::kGCEPersistentDisk) {
    CAPI_RETURN_IF_ERROR(GetString(src, "pdName", p, &s));
    vol.disk = s;
  }
  CAPI_RETURN_IF_ERROR(source("awsElasticBlockStore", PodVolume::Source::kAWSElasticBlockStore));
  if (vol.source == PodVolume::Source::kAWSElasticBlockStore) {
    CAPI_RETURN_IF_ERROR(GetString(src, "volumeID", p, &s));
    vol.disk = s;
  }
  CAPI_RETURN_IF_ERROR(source("iscsi", PodVolume::Source::kISCSI));
  if (vol.source == PodVolume::Source::kISCSI) {
    CAPI_RETURN_IF_ERROR(GetString(src, "iqn", p, &s));
    vol.disk = s;
  }
  CAPI_RETURN_IF_ERROR(source("rbd", PodVolume::Source::kRBD));
  if (vol.source == PodVolume::Source::kRBD) {
    CAPI_RETURN_IF_ERROR(GetString(src, "image", p, &s));
    vol.disk = s;
    s = {};
    CAPI_RETURN_IF_ERROR(GetString(src, "pool", p, &s));
    vol.rbd_pool = s.empty() ? "rbd" : s;  // the API server's default
    CAPI_RETURN_IF_ERROR(
        ForEachElement(src, "monitors", p, [&](const cJSON* m, const JsonPath& mp) {
          std::string_view monitor;
          CAPI_RETURN_IF_ERROR(AsString(m, mp, &monitor));
          vol.rbd_monitors.emplace_back(monitor);
          return ApiStatus();
        }));
  }
  CAPI_RETURN_IF_ERROR(source("csi", PodVolume::Source::kCSI));
  if (vol.source == PodVolume::Source::kCSI) {
    CAPI_RETURN_IF_ERROR(GetString(src, "driver", p, &s));
    vol.disk = s;
  }
  if (src != nullptr) out->push_back(std::move(vol));
  return ApiStatus();
}

}  // namespace sched::capi
