// core/v1 Node -> Node: the fields NodeInfo.SetNode and the node plugins read.
#include <cctype>
#include <string>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/timestamp.h"

namespace sched::capi {
namespace {

// v1.PreferAvoidPodsAnnotationKey.
constexpr const char* kPreferAvoidPodsAnnotation = "scheduler.alpha.kubernetes.io/preferAvoidPods";

// The annotation is decoded as Go's encoding/json does (what
// v1helper.GetAvoidPodsFromNodeAnnotations uses): member names match
// case-insensitively (ASCII only here), a later duplicate wins, unknown
// members are ignored, null leaves a field unset, and a value of the wrong
// type anywhere makes the whole annotation malformed.
bool NameIs(const cJSON* member, std::string_view field) {
  const std::string_view name = member->string;
  if (name.size() != field.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) !=
        std::tolower(static_cast<unsigned char>(field[i]))) {
      return false;
    }
  }
  return true;
}

// A string field: false when neither a string nor null.
bool StringField(const cJSON* v, std::string* out) {
  if (cJSON_IsNull(v)) return true;
  if (!cJSON_IsString(v)) return false;
  *out = v->valuestring;
  return true;
}

// metav1.OwnerReference: the kind and uid, the other fields type-checked.
bool DecodeAvoidController(const cJSON* v, AvoidPodsEntry* out) {
  if (!cJSON_IsObject(v)) return false;
  std::string ignored;
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    bool ok = true;
    if (NameIs(m, "kind")) {
      ok = StringField(m, &out->kind);
    } else if (NameIs(m, "uid")) {
      ok = StringField(m, &out->uid);
    } else if (NameIs(m, "apiVersion") || NameIs(m, "name")) {
      ok = StringField(m, &ignored);
    } else if (NameIs(m, "controller") || NameIs(m, "blockOwnerDeletion")) {
      ok = cJSON_IsNull(m) || cJSON_IsBool(m);
    }
    if (!ok) return false;
  }
  return true;
}

// v1.PreferAvoidPodsEntry; *has_controller tells whether
// podSignature.podController was set (upstream dereferences it unchecked).
bool DecodeAvoidEntry(const cJSON* v, AvoidPodsEntry* out, bool* has_controller) {
  *has_controller = false;
  if (cJSON_IsNull(v)) return true;
  if (!cJSON_IsObject(v)) return false;
  std::string text;
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    if (NameIs(m, "podSignature")) {
      if (cJSON_IsNull(m)) continue;
      if (!cJSON_IsObject(m)) return false;
      for (const cJSON* s = m->child; s != nullptr; s = s->next) {
        if (!NameIs(s, "podController")) continue;
        // A *OwnerReference: null resets it; an object fills a new one, or
        // the one an earlier duplicate member set.
        if (cJSON_IsNull(s) || !*has_controller) *out = AvoidPodsEntry();
        *has_controller = !cJSON_IsNull(s);
        if (*has_controller && !DecodeAvoidController(s, out)) return false;
      }
    } else if (NameIs(m, "evictionTime")) {  // metav1.Time: RFC 3339 or null
      if (!StringField(m, &text)) return false;
      if (cJSON_IsString(m) && !ParseRfc3339(text)) return false;
    } else if (NameIs(m, "reason") || NameIs(m, "message")) {
      if (!StringField(m, &text)) return false;
    }
  }
  return true;
}

// v1.AvoidPods; false when malformed. An empty value has no entries.
bool DecodePreferAvoidPods(std::string_view text, std::vector<AvoidPodsEntry>* out) {
  out->clear();
  if (text.empty()) return true;
  JsonDoc doc;
  if (!ParseJson(text, &doc, kMaxAnnotationBytes).ok()) return false;
  if (cJSON_IsNull(doc.get())) return true;
  if (!cJSON_IsObject(doc.get())) return false;
  for (const cJSON* m = doc->child; m != nullptr; m = m->next) {
    if (!NameIs(m, "preferAvoidPods")) continue;
    out->clear();
    if (cJSON_IsNull(m)) continue;
    if (!cJSON_IsArray(m)) return false;
    for (const cJSON* e = m->child; e != nullptr; e = e->next) {
      AvoidPodsEntry entry;
      bool has_controller;
      if (!DecodeAvoidEntry(e, &entry, &has_controller)) return false;
      if (has_controller) out->push_back(std::move(entry));
    }
  }
  return true;
}

// metadata.annotations: only the preferAvoidPods one is read; when it is
// malformed the node keeps no entries, as upstream ignores it (not an
// error: the API server does not validate it).
ApiStatus DecodeAnnotations(const cJSON* meta, const JsonPath& meta_path, Node* node) {
  const cJSON* annotations;
  CAPI_RETURN_IF_ERROR(GetObject(meta, "annotations", meta_path, &annotations));
  if (annotations == nullptr) return ApiStatus();
  const JsonPath path = meta_path.Child("annotations");
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(annotations, kPreferAvoidPodsAnnotation, path, &v));
  if (v == nullptr) return ApiStatus();
  const JsonPath p = path.Child(kPreferAvoidPodsAnnotation);
  if (!cJSON_IsString(v)) {
    std::string_view unused;
    return AsString(v, p, &unused);  // the wrong-type error
  }
  const std::string_view text = v->valuestring;
  CAPI_RETURN_IF_ERROR(CheckLength(text, p, kMaxAnnotationBytes));
  if (!DecodePreferAvoidPods(text, &node->prefer_avoid_pods)) node->prefer_avoid_pods.clear();
  return ApiStatus();
}

ApiStatus DecodeTaint(const cJSON* v, const JsonPath& path, Interner& in, Taint* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view key, value, effect;
  CAPI_RETURN_IF_ERROR(GetString(v, "key", path, &key));
  CAPI_RETURN_IF_ERROR(GetString(v, "value", path, &value));
  CAPI_RETURN_IF_ERROR(GetString(v, "effect", path, &effect));
  CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(key, path.Child("key")));
  CAPI_RETURN_IF_ERROR(CheckLabelValueLength(value, path.Child("value")));
  out->key = in.Intern(key);
  out->value = in.Intern(value);
  if (effect == "NoSchedule") {
    out->effect = TaintEffect::kNoSchedule;
  } else if (effect == "PreferNoSchedule") {
    out->effect = TaintEffect::kPreferNoSchedule;
  } else if (effect == "NoExecute") {
    out->effect = TaintEffect::kNoExecute;
  } else if (effect.empty()) {
    return Required(path.Child("effect"));
  } else {
    return Unsupported(path.Child("effect"), effect,
                       {"NoExecute", "NoSchedule", "PreferNoSchedule"});
  }
  return ApiStatus();
}

ApiStatus DecodeImage(const cJSON* v, const JsonPath& path, Interner& in,
                      ContainerImage* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(
      ForEachElement(v, "names", path, [&](const cJSON* n, const JsonPath& p) {
        std::string_view name;
        CAPI_RETURN_IF_ERROR(AsString(n, p, &name));
        out->names.push_back(in.Intern(name));
        return ApiStatus();
      }));
  CAPI_RETURN_IF_ERROR(GetInt64(v, "sizeBytes", path, &out->size_bytes));
  // Not validated by the API server (only the kubelet writes it), but a
  // negative size is never real and ImageLocality sums these.
  if (out->size_bytes < 0) {
    return ApiStatus::Invalid(path.Child("sizeBytes"),
                              "Invalid value: " + std::to_string(out->size_bytes) +
                                  ": must be greater than or equal to 0");
  }
  return ApiStatus();
}

}  // namespace

ApiStatus DecodeNode(const cJSON* obj, const JsonPath& path, Interner& in,
                     std::shared_ptr<const Node>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto node = std::make_shared<Node>();

  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  node->name = name;
  node->name_atom = in.Intern(name);
  const cJSON* labels;
  const JsonPath meta_path = path.Child("metadata");
  CAPI_RETURN_IF_ERROR(Member(meta, "labels", meta_path, &labels));
  CAPI_RETURN_IF_ERROR(DecodeLabels(labels, meta_path.Child("labels"), in, &node->labels));
  CAPI_RETURN_IF_ERROR(DecodeAnnotations(meta, meta_path, node.get()));

  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    const JsonPath spec_path = path.Child("spec");
    CAPI_RETURN_IF_ERROR(GetBool(spec, "unschedulable", spec_path, &node->unschedulable));
    CAPI_RETURN_IF_ERROR(
        ForEachElement(spec, "taints", spec_path, [&](const cJSON* t, const JsonPath& p) {
          return DecodeTaint(t, p, in, &node->taints.emplace_back());
        }));
  }

  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status != nullptr) {
    const JsonPath status_path = path.Child("status");
    const cJSON* allocatable;
    CAPI_RETURN_IF_ERROR(Member(status, "allocatable", status_path, &allocatable));
    ResourceList list;
    CAPI_RETURN_IF_ERROR(
        DecodeResourceList(allocatable, status_path.Child("allocatable"), in, &list));
    node->allocatable = std::move(list.amounts);
    CAPI_RETURN_IF_ERROR(
        ForEachElement(status, "images", status_path, [&](const cJSON* im, const JsonPath& p) {
          return DecodeImage(im, p, in, &node->images.emplace_back());
        }));
  }
  node->atoms = atoms.Finish();
  *out = std::move(node);
  return ApiStatus();
}

}  // namespace sched::capi
