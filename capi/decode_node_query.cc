// The sched_engine_nodes query -> NodeQuery: {"names":[...],
// "labelSelector":<metav1.LabelSelector>}, both optional, decoded strictly
// (unknown fields are errors, as in the config).
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/label_syntax.h"

namespace sched::capi {
namespace {

// The first member of the selector `v` that LabelSelectorAsSelector would
// refuse, with its reason. `sel` is its decoding: matchLabels first, then
// one requirement per matchExpressions element.
ApiStatus InvalidSelector(const cJSON* v, const JsonPath& path, const LabelSelector& sel) {
  size_t i = 0;
  const cJSON* labels = cJSON_GetObjectItemCaseSensitive(v, "matchLabels");
  if (cJSON_IsObject(labels)) {
    const JsonPath labels_path = path.Child("matchLabels");  // outlives its children
    for (const cJSON* e = labels->child; e != nullptr; e = e->next, ++i) {
      const JsonPath p = labels_path.Child(e->string);
      if (!IsQualifiedName(e->string)) return ApiStatus::Invalid(p, "not a valid label key");
      if (!IsLabelValue(e->valuestring)) return ApiStatus::Invalid(p, "not a valid label value");
    }
  }
  for (size_t k = 0; i + k < sel.requirements.size(); ++k) {
    if (!sel.requirements[i + k].valid) {
      return ApiStatus::Invalid(path.Child("matchExpressions").Index(k),
                                "not a valid label selector requirement (a bad key or value, "
                                "an unknown operator, or a wrong number of values)");
    }
  }
  return ApiStatus::Invalid(path, "not a valid label selector");
}

}  // namespace

ApiStatus DecodeNodeQuery(const cJSON* v, Interner& in, NodeQuery* out, AtomHold* atoms) {
  const JsonPath root;
  CAPI_RETURN_IF_ERROR(CheckFields(v, root, {"names", "labelSelector"}));
  CAPI_RETURN_IF_ERROR(ForEachElement(v, "names", root, [&](const cJSON* e, const JsonPath& p) {
    std::string_view name;
    CAPI_RETURN_IF_ERROR(AsString(e, p, &name));
    if (name.empty()) return Required(p);
    out->names.emplace_back(name);
    return ApiStatus();
  }));
  const cJSON* selector;
  CAPI_RETURN_IF_ERROR(GetObject(v, "labelSelector", root, &selector));
  if (selector == nullptr) return ApiStatus();
  // Strict, as the rest of the query: a misspelt field would select more.
  const JsonPath sp = root.Child("labelSelector");
  CAPI_RETURN_IF_ERROR(CheckFields(selector, sp, {"matchLabels", "matchExpressions"}));
  CAPI_RETURN_IF_ERROR(
      ForEachElement(selector, "matchExpressions", sp, [](const cJSON* e, const JsonPath& p) {
        return CheckFields(e, p, {"key", "operator", "values"});
      }));
  AtomRecorder recorder(in);
  LabelSelector& sel = out->selector.emplace();
  CAPI_RETURN_IF_ERROR(DecodeLabelSelector(selector, sp, in, &sel));
  if (!sel.valid) return InvalidSelector(selector, sp, sel);
  *atoms = recorder.Finish();
  return ApiStatus();
}

}  // namespace sched::capi
