// core/v1 Node -> Node: the fields NodeInfo.SetNode and the node plugins read.
#include <string>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"

namespace sched::capi {
namespace {

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
  *out = std::move(node);
  return ApiStatus();
}

}  // namespace sched::capi
