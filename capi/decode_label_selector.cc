// metav1.LabelSelector -> LabelSelector, as metav1.LabelSelectorAsSelector
// converts it; shared by every decoder that reads one.
#include <algorithm>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/label_syntax.h"

namespace sched::capi {
namespace {

// One metav1.LabelSelectorRequirement. A requirement that
// LabelSelectorAsSelector would refuse keeps valid = false.
ApiStatus DecodeExpression(const cJSON* v, const JsonPath& path, Interner& in,
                           Requirement* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view key, op;
  CAPI_RETURN_IF_ERROR(GetString(v, "key", path, &key));
  CAPI_RETURN_IF_ERROR(GetString(v, "operator", path, &op));
  std::vector<std::string_view> values;
  CAPI_RETURN_IF_ERROR(ForEachElement(v, "values", path, [&](const cJSON* s, const JsonPath& p) {
    return AsString(s, p, &values.emplace_back());
  }));
  out->key = in.Intern(key);
  bool valid = IsQualifiedName(key);
  if (op == "In" || op == "NotIn") {
    out->op = op == "In" ? SelectorOp::kIn : SelectorOp::kNotIn;
    valid = valid && !values.empty();
  } else if (op == "Exists" || op == "DoesNotExist") {
    out->op = op == "Exists" ? SelectorOp::kExists : SelectorOp::kDoesNotExist;
    valid = valid && values.empty();
  } else {
    valid = false;
  }
  for (std::string_view s : values) {
    valid = valid && IsLabelValue(s);
    out->values.push_back(in.Intern(s));
  }
  std::sort(out->values.begin(), out->values.end());
  out->valid = valid;
  return ApiStatus();
}

}  // namespace

ApiStatus DecodeLabelSelector(const cJSON* v, const JsonPath& path, Interner& in,
                         LabelSelector* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  const cJSON* match_labels;
  CAPI_RETURN_IF_ERROR(GetObject(v, "matchLabels", path, &match_labels));
  if (match_labels != nullptr) {
    const JsonPath mp = path.Child("matchLabels");
    CAPI_RETURN_IF_ERROR(CheckUniqueKeys(match_labels, mp));
    for (const cJSON* e = match_labels->child; e != nullptr; e = e->next) {
      std::string_view value;
      CAPI_RETURN_IF_ERROR(AsString(e, mp.Child(e->string), &value));
      Requirement& r = out->requirements.emplace_back();
      r.key = in.Intern(e->string);
      r.op = SelectorOp::kIn;
      r.values = {in.Intern(value)};
      out->valid = out->valid && IsQualifiedName(e->string) && IsLabelValue(value);
    }
  }
  return ForEachElement(v, "matchExpressions", path, [&](const cJSON* e, const JsonPath& p) {
    Requirement& r = out->requirements.emplace_back();
    CAPI_RETURN_IF_ERROR(DecodeExpression(e, p, in, &r));
    out->valid = out->valid && r.valid;
    return ApiStatus();
  });
}


}  // namespace sched::capi
