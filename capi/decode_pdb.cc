// policy/v1 PodDisruptionBudget -> PodDisruptionBudget: what preemption
// reads (defaultpreemption filterPodsWithPDBViolation): namespace,
// spec.selector, status.disruptionsAllowed, status.disruptedPods.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/label_syntax.h"

namespace sched::capi {
namespace {

// One metav1.LabelSelectorRequirement. A requirement that
// LabelSelectorAsSelector would refuse keeps valid = false, so the
// selector matches nothing, as upstream skips a PDB whose selector fails
// to convert.
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

// metav1.LabelSelector: matchLabels become In requirements.
ApiStatus DecodeSelector(const cJSON* v, const JsonPath& path, Interner& in,
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

}  // namespace

ApiStatus DecodePdb(const cJSON* obj, const JsonPath& path, Interner& in,
                    std::shared_ptr<const PodDisruptionBudget>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  auto pdb = std::make_shared<PodDisruptionBudget>();
  const cJSON* meta;
  std::string_view name, ns;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  CAPI_RETURN_IF_ERROR(GetString(meta, "namespace", path.Child("metadata"), &ns));
  pdb->name = name;
  pdb->ns = ns.empty() ? "default" : ns;

  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    const JsonPath sp = path.Child("spec");
    const cJSON* selector;
    CAPI_RETURN_IF_ERROR(GetObject(spec, "selector", sp, &selector));
    if (selector != nullptr) {
      CAPI_RETURN_IF_ERROR(
          DecodeSelector(selector, sp.Child("selector"), in, &pdb->selector.emplace()));
    }
  }

  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status != nullptr) {
    const JsonPath stp = path.Child("status");
    CAPI_RETURN_IF_ERROR(
        GetInt32(status, "disruptionsAllowed", stp, &pdb->disruptions_allowed));
    const cJSON* disrupted;
    CAPI_RETURN_IF_ERROR(GetObject(status, "disruptedPods", stp, &disrupted));
    if (disrupted != nullptr) {
      CAPI_RETURN_IF_ERROR(CheckUniqueKeys(disrupted, stp.Child("disruptedPods")));
      for (const cJSON* e = disrupted->child; e != nullptr; e = e->next) {
        pdb->disrupted_pods.emplace_back(e->string);
      }
      std::sort(pdb->disrupted_pods.begin(), pdb->disrupted_pods.end());
    }
  }
  *out = std::move(pdb);
  return ApiStatus();
}

}  // namespace sched::capi
