// profiles[].pluginConfig of the engine config: the plugin arguments the
// engine supports, defaulted and validated as upstream
// (apis/config/v1/defaults.go, apis/config/validation/validation_pluginargs.go).
#include <algorithm>
#include <climits>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/limits.h"
#include "libsched/model/label_syntax.h"

namespace sched::capi {
namespace {

constexpr std::string_view kArgsApiVersion = "kubescheduler.config.k8s.io/v1";

// apiVersion or kind (`m`) of an args object of kind `kind`: optional, but
// if present they must be this one's.
ApiStatus CheckTypeMeta(const cJSON* m, const JsonPath& p, std::string_view kind) {
  const std::string_view want = std::string_view(m->string) == "kind" ? kind : kArgsApiVersion;
  std::string_view s;
  CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
  if (s != want) return Unsupported(p, s, {want});
  return ApiStatus();
}

bool IsTypeMeta(std::string_view name) { return name == "apiVersion" || name == "kind"; }

// An object whose members all have one of `known` names (strict decoding).
ApiStatus CheckStrictObject(const cJSON* v, const JsonPath& path,
                            std::initializer_list<std::string_view> known) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    if (std::find(known.begin(), known.end(), std::string_view(m->string)) == known.end()) {
      return ApiStatus::Invalid(path.Child(m->string), "unknown field");
    }
  }
  return ApiStatus();
}

// The first of a core validator's errors, at its field below `args_path`
// (upstream aggregates them all; the rest of the decoder stops at the first).
ApiStatus FirstError(const JsonPath& args_path, const FieldErrors& errs) {
  if (errs.empty()) return ApiStatus();
  return ApiStatus::Invalid(args_path, errs[0].field, errs[0].detail);
}

ApiStatus DecodeInt32(const cJSON* v, const JsonPath& path, int32_t* out) {
  int64_t i;
  CAPI_RETURN_IF_ERROR(AsInt(v, path, INT32_MIN, INT32_MAX, &i));
  *out = static_cast<int32_t>(i);
  return ApiStatus();
}

// InterPodAffinityArgs; strict, as upstream decodes configuration.
ApiStatus DecodeInterPodAffinityArgs(const cJSON* v, const JsonPath& path,
                                     InterPodAffinityArgs* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "InterPodAffinityArgs"));
    } else if (name == "hardPodAffinityWeight") {
      if (cJSON_IsNull(m)) continue;  // defaulted to 1
      int64_t w;
      CAPI_RETURN_IF_ERROR(AsInt(m, p, INT32_MIN, INT32_MAX, &w));
      if (w < 0 || w > 100) {  // validateHardPodAffinityWeight
        return ApiStatus::Invalid(
            p, "Invalid value: " + std::to_string(w) + ": not in valid range [0, 100]");
      }
      out->hard_pod_affinity_weight = static_cast<int32_t>(w);
    } else if (name == "ignorePreferredTermsOfExistingPods") {
      CAPI_RETURN_IF_ERROR(
          GetBool(v, m->string, path, &out->ignore_preferred_terms_of_existing_pods));
    } else {
      return ApiStatus::Invalid(p, "unknown field");
    }
  }
  return ApiStatus();
}

// The fields of a v1.TopologySpreadConstraint that args may carry;
// labelSelector is Forbidden (ValidatePodTopologySpreadArgs).
ApiStatus CheckDefaultConstraintFields(const cJSON* v, const JsonPath& path) {
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    if (name == "labelSelector" && !cJSON_IsNull(m)) {
      return ApiStatus::Invalid(
          path.Child(name),
          "Forbidden: constraint must not define a selector, as they deduced for each pod");
    }
    if (name != "maxSkew" && name != "topologyKey" && name != "whenUnsatisfiable" &&
        name != "minDomains" && name != "nodeAffinityPolicy" && name != "nodeTaintsPolicy" &&
        name != "matchLabelKeys" && name != "labelSelector") {
      return ApiStatus::Invalid(path.Child(name), "unknown field");
    }
  }
  return ApiStatus();
}

ApiStatus DecodeDefaultConstraints(const cJSON* v, const JsonPath& path,
                                   std::vector<PodTopologySpreadArgs::Constraint>* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsArray(v, path));
  size_t i = 0;
  for (const cJSON* e = v->child; e != nullptr; e = e->next, ++i) {
    const JsonPath p = path.Index(i);
    CAPI_RETURN_IF_ERROR(AsObject(e, p));
    CAPI_RETURN_IF_ERROR(CheckDefaultConstraintFields(e, p));
    PodTopologySpreadArgs::Constraint c;
    CAPI_RETURN_IF_ERROR(DecodeSpreadConstraintFields(e, p, &c));
    for (const PodTopologySpreadArgs::Constraint& prev : *out) {  // validateConstraintNotRepeat
      if (prev.topology_key == c.topology_key && prev.do_not_schedule == c.do_not_schedule) {
        return ApiStatus::Invalid(p, "Duplicate value: \"{" + c.topology_key + ", " +
                                         (c.do_not_schedule ? "DoNotSchedule" : "ScheduleAnyway") +
                                         "}\"");
      }
    }
    out->push_back(std::move(c));
  }
  return ApiStatus();
}

// PodTopologySpreadArgs; strict, as upstream decodes configuration.
ApiStatus DecodePodTopologySpreadArgs(const cJSON* v, const JsonPath& path,
                                      PodTopologySpreadArgs* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  std::string_view defaulting;
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "PodTopologySpreadArgs"));
    } else if (name == "defaultConstraints") {
      CAPI_RETURN_IF_ERROR(DecodeDefaultConstraints(m, p, &out->default_constraints));
    } else if (name == "defaultingType") {
      if (!cJSON_IsNull(m)) CAPI_RETURN_IF_ERROR(AsString(m, p, &defaulting));
    } else {
      return ApiStatus::Invalid(p, "unknown field");
    }
  }
  // SetDefaults_PodTopologySpreadArgs, then validateDefaultingType.
  const JsonPath p = path.Child("defaultingType");
  if (defaulting.empty()) defaulting = "System";
  if (defaulting != "System" && defaulting != "List") {
    return Unsupported(p, defaulting, {"System", "List"});
  }
  out->system_defaulting = defaulting == "System";
  if (out->system_defaulting && !out->default_constraints.empty()) {
    return ApiStatus::Invalid(p,
                              "Invalid value: \"System\": when .defaultConstraints are not empty");
  }
  return ApiStatus();
}

// ---- NodeResourcesFitArgs, NodeResourcesBalancedAllocationArgs -----------

// A []string (null: none); every list of names or label keys in args.
ApiStatus DecodeStrings(const cJSON* v, const JsonPath& path, std::vector<std::string>* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsArray(v, path));
  CAPI_RETURN_IF_ERROR(CheckItemCount(v, path, kMaxItems));
  size_t i = 0;
  for (const cJSON* e = v->child; e != nullptr; e = e->next, ++i) {
    std::string_view s;
    CAPI_RETURN_IF_ERROR(AsString(e, path.Index(i), &s));
    out->emplace_back(s);
  }
  return ApiStatus();
}

// []ResourceSpec (`v` null or absent: none), defaulted as
// SetDefaults_NodeResourcesFitArgs and
// SetDefaults_NodeResourcesBalancedAllocationArgs do: none means cpu and
// memory with weight 1; a weight left 0 becomes 1.
ApiStatus DecodeResourceSpecs(const cJSON* v, const JsonPath& path,
                              std::vector<ResourceSpec>* out) {
  out->clear();
  if (v != nullptr && !cJSON_IsNull(v)) {
    CAPI_RETURN_IF_ERROR(AsArray(v, path));
    CAPI_RETURN_IF_ERROR(CheckItemCount(v, path, kMaxItems));
    size_t i = 0;
    for (const cJSON* e = v->child; e != nullptr; e = e->next, ++i) {
      const JsonPath p = path.Index(i);
      CAPI_RETURN_IF_ERROR(CheckStrictObject(e, p, {"name", "weight"}));
      ResourceSpec& r = out->emplace_back();
      r.weight = 0;
      std::string_view name;
      CAPI_RETURN_IF_ERROR(GetString(e, "name", p, &name));
      r.name = std::string(name);
      CAPI_RETURN_IF_ERROR(GetInt64(e, "weight", p, &r.weight));
    }
  }
  if (out->empty()) *out = {{"cpu", 1}, {"memory", 1}};
  for (ResourceSpec& r : *out) {
    if (r.weight == 0) r.weight = 1;
  }
  return ApiStatus();
}

ApiStatus DecodeRequestedToCapacityRatio(const cJSON* v, const JsonPath& path,
                                         RequestedToCapacityRatioParam* out) {
  CAPI_RETURN_IF_ERROR(CheckStrictObject(v, path, {"shape"}));
  return ForEachElement(v, "shape", path, [&](const cJSON* e, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(CheckStrictObject(e, p, {"utilization", "score"}));
    UtilizationShapePoint& point = out->shape.emplace_back();
    CAPI_RETURN_IF_ERROR(GetInt32(e, "utilization", p, &point.utilization));
    return GetInt32(e, "score", p, &point.score);
  });
}

// A ScoringStrategy object: its type is required (no default once the
// strategy is given), resources are defaulted.
ApiStatus DecodeScoringStrategy(const cJSON* v, const JsonPath& path, ScoringStrategy* out) {
  CAPI_RETURN_IF_ERROR(
      CheckStrictObject(v, path, {"type", "resources", "requestedToCapacityRatio"}));
  std::string_view type;
  CAPI_RETURN_IF_ERROR(GetString(v, "type", path, &type));
  if (type == "LeastAllocated") {
    out->type = ScoringStrategyType::kLeastAllocated;
  } else if (type == "MostAllocated") {
    out->type = ScoringStrategyType::kMostAllocated;
  } else if (type == "RequestedToCapacityRatio") {
    out->type = ScoringStrategyType::kRequestedToCapacityRatio;
  } else {
    return Unsupported(path.Child("type"), type,
                       {"LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"});
  }
  const cJSON* m;
  CAPI_RETURN_IF_ERROR(Member(v, "resources", path, &m));
  CAPI_RETURN_IF_ERROR(DecodeResourceSpecs(m, path.Child("resources"), &out->resources));
  CAPI_RETURN_IF_ERROR(Member(v, "requestedToCapacityRatio", path, &m));
  if (m != nullptr) {
    CAPI_RETURN_IF_ERROR(DecodeRequestedToCapacityRatio(
        m, path.Child("requestedToCapacityRatio"), &out->requested_to_capacity_ratio.emplace()));
  }
  return ApiStatus();
}

ApiStatus DecodeNodeResourcesFitArgs(const cJSON* v, const JsonPath& path,
                                     NodeResourcesFitArgs* out) {
  CAPI_RETURN_IF_ERROR(CheckStrictObject(
      v, path,
      {"apiVersion", "kind", "ignoredResources", "ignoredResourceGroups", "scoringStrategy"}));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "NodeResourcesFitArgs"));
    } else if (name == "ignoredResources") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->ignored_resources));
    } else if (name == "ignoredResourceGroups") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->ignored_resource_groups));
    } else if (!cJSON_IsNull(m)) {  // scoringStrategy; null keeps the default
      out->scoring_strategy = ScoringStrategy{};
      CAPI_RETURN_IF_ERROR(DecodeScoringStrategy(m, p, &out->scoring_strategy));
    }
  }
  return FirstError(path, NodeResourcesFit::ValidateArgs(*out));
}

ApiStatus DecodeBalancedAllocationArgs(const cJSON* v, const JsonPath& path,
                                       NodeResourcesBalancedAllocationArgs* out) {
  CAPI_RETURN_IF_ERROR(CheckStrictObject(v, path, {"apiVersion", "kind", "resources"}));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(
          CheckTypeMeta(m, path.Child(name), "NodeResourcesBalancedAllocationArgs"));
    } else {
      CAPI_RETURN_IF_ERROR(DecodeResourceSpecs(m, path.Child(name), &out->resources));
    }
  }
  return FirstError(path, NodeResourcesBalancedAllocation::ValidateArgs(*out));
}

// ---- DefaultPreemptionArgs -------------------------------------------------

ApiStatus DecodeDefaultPreemptionArgs(const cJSON* v, const JsonPath& path,
                                      DefaultPreemptionArgs* out) {
  CAPI_RETURN_IF_ERROR(CheckStrictObject(
      v, path, {"apiVersion", "kind", "minCandidateNodesPercentage", "minCandidateNodesAbsolute"}));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "DefaultPreemptionArgs"));
    } else if (!cJSON_IsNull(m)) {  // null keeps the default
      CAPI_RETURN_IF_ERROR(DecodeInt32(m, p,
                                       name == "minCandidateNodesPercentage"
                                           ? &out->min_candidate_nodes_percentage
                                           : &out->min_candidate_nodes_absolute));
    }
  }
  return FirstError(path, DefaultPreemption::ValidateArgs(*out));
}

// ---- NodeAffinityArgs ------------------------------------------------------

// Strict decoding of a v1.NodeSelectorTerm (wrong types are left to
// DecodeNodeAffinityObject).
ApiStatus CheckTermFields(const cJSON* v, const JsonPath& path) {
  if (!cJSON_IsObject(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(CheckStrictObject(v, path, {"matchExpressions", "matchFields"}));
  for (const char* list : {"matchExpressions", "matchFields"}) {
    const cJSON* a = cJSON_GetObjectItemCaseSensitive(v, list);
    if (!cJSON_IsArray(a)) continue;
    size_t i = 0;
    for (const cJSON* r = a->child; r != nullptr; r = r->next, ++i) {
      if (!cJSON_IsObject(r)) continue;
      CAPI_RETURN_IF_ERROR(
          CheckStrictObject(r, path.Child(list).Index(i), {"key", "operator", "values"}));
    }
  }
  return ApiStatus();
}

ApiStatus CheckNodeAffinityFields(const cJSON* v, const JsonPath& path) {
  constexpr const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
  constexpr const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";
  CAPI_RETURN_IF_ERROR(CheckStrictObject(v, path, {kRequired, kPreferred}));
  const cJSON* req = cJSON_GetObjectItemCaseSensitive(v, kRequired);
  if (cJSON_IsObject(req)) {
    const JsonPath rp = path.Child(kRequired);
    CAPI_RETURN_IF_ERROR(CheckStrictObject(req, rp, {"nodeSelectorTerms"}));
    const cJSON* terms = cJSON_GetObjectItemCaseSensitive(req, "nodeSelectorTerms");
    size_t i = 0;
    for (const cJSON* t = cJSON_IsArray(terms) ? terms->child : nullptr; t != nullptr;
         t = t->next, ++i) {
      CAPI_RETURN_IF_ERROR(CheckTermFields(t, rp.Child("nodeSelectorTerms").Index(i)));
    }
  }
  const cJSON* pref = cJSON_GetObjectItemCaseSensitive(v, kPreferred);
  size_t i = 0;
  for (const cJSON* t = cJSON_IsArray(pref) ? pref->child : nullptr; t != nullptr;
       t = t->next, ++i) {
    if (!cJSON_IsObject(t)) continue;
    const JsonPath tp = path.Child(kPreferred).Index(i);
    CAPI_RETURN_IF_ERROR(CheckStrictObject(t, tp, {"weight", "preference"}));
    CAPI_RETURN_IF_ERROR(
        CheckTermFields(cJSON_GetObjectItemCaseSensitive(t, "preference"), tp.Child("preference")));
  }
  return ApiStatus();
}

// Why the requirement `r` (JSON, known to be invalid) does not convert, as
// labels.NewRequirement or the field-selector conversion of
// component-helpers' nodeaffinity.go words it.
ApiStatus RequirementError(const cJSON* r, const JsonPath& path, bool field) {
  std::string_view key, op;
  (void)GetString(r, "key", path, &key);  // types were checked when decoding
  (void)GetString(r, "operator", path, &op);
  const cJSON* values = cJSON_GetObjectItemCaseSensitive(r, "values");
  const int n = cJSON_IsArray(values) ? cJSON_GetArraySize(values) : 0;
  if (field) {
    if (op != "In" && op != "NotIn")
      return Unsupported(path.Child("operator"), op, {"In", "NotIn"});
    if (n != 1)
      return ApiStatus::Invalid(path.Child("values"), "Invalid value: must have one element");
    return Unsupported(path.Child("key"), key, {"metadata.name"});
  }
  const bool set_op = op == "In" || op == "NotIn";
  const bool numeric_op = op == "Gt" || op == "Lt";
  if (!set_op && !numeric_op && op != "Exists" && op != "DoesNotExist") {
    return Unsupported(path.Child("operator"), op,
                       {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"});
  }
  if (!IsQualifiedName(key)) {
    std::string msg = "Invalid value: ";
    AppendJsonString(msg, key);
    return ApiStatus::Invalid(path.Child("key"), msg + ": not a valid label key");
  }
  if (set_op && n == 0) {
    return ApiStatus::Invalid(
        path.Child("values"),
        "Required value: for 'in', 'notin' operators, values set can't be empty");
  }
  if (!set_op && !numeric_op && n != 0) {
    return ApiStatus::Invalid(path.Child("values"),
                              "Forbidden: values set must be empty for exists and does not exist");
  }
  if (numeric_op && n != 1) {
    return ApiStatus::Invalid(
        path.Child("values"),
        "Required value: for 'Gt', 'Lt' operators, exactly one value is required");
  }
  int i = 0;
  for (const cJSON* e = values == nullptr ? nullptr : values->child; e != nullptr;
       e = e->next, ++i) {
    const std::string_view s = e->valuestring;
    std::string msg = "Invalid value: ";
    AppendJsonString(msg, s);
    if (numeric_op && !ParseDecimalInt64(s)) {
      return ApiStatus::Invalid(path.Child("values").Index(static_cast<size_t>(i)),
                                msg + ": for 'Gt', 'Lt' operators, the value must be an integer");
    }
    if (!numeric_op && !IsLabelValue(s)) {
      return ApiStatus::Invalid(path.Child("values").Index(static_cast<size_t>(i)),
                                msg + ": not a valid label value");
    }
  }
  return ApiStatus::Invalid(path, "Invalid value: not a valid node selector requirement");
}

// ValidateNodeAffinityArgs: a term that upstream parses (a required term, or
// a preferred one of non-zero weight, unless empty) may hold no invalid
// requirement. `term_json` is the term's JSON, parallel to `term`.
ApiStatus CheckTerm(const NodeSelectorTerm& term, const cJSON* term_json, const JsonPath& path) {
  if (term.valid) return ApiStatus();
  for (bool field : {false, true}) {
    const char* list = field ? "matchFields" : "matchExpressions";
    const std::vector<Requirement>& reqs = field ? term.match_fields : term.match_expressions;
    // Decoded requirements and JSON elements are parallel.
    const cJSON* r =
        reqs.empty() ? nullptr : cJSON_GetObjectItemCaseSensitive(term_json, list)->child;
    for (size_t i = 0; i < reqs.size(); ++i, r = r->next) {
      if (!reqs[i].valid) return RequirementError(r, path.Child(list).Index(i), field);
    }
  }
  return ApiStatus();
}

ApiStatus DecodeAddedAffinity(const cJSON* v, const JsonPath& path, Interner& in,
                              NodeAffinityArgs* out) {
  CAPI_RETURN_IF_ERROR(CheckNodeAffinityFields(v, path));
  CAPI_RETURN_IF_ERROR(
      DecodeNodeAffinityObject(v, path, in, &out->added_required, &out->added_preferred));
  constexpr const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
  constexpr const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";
  if (out->added_required) {
    const JsonPath rp = path.Child(kRequired);  // tp's parent must outlive it
    const JsonPath tp = rp.Child("nodeSelectorTerms");
    const cJSON* t = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(v, kRequired), "nodeSelectorTerms");
    t = t == nullptr ? nullptr : t->child;
    for (size_t i = 0; i < out->added_required->terms.size(); ++i, t = t->next) {
      CAPI_RETURN_IF_ERROR(CheckTerm(out->added_required->terms[i], t, tp.Index(i)));
    }
  }
  const cJSON* t = cJSON_GetObjectItemCaseSensitive(v, kPreferred);
  t = t == nullptr ? nullptr : t->child;
  for (size_t i = 0; i < out->added_preferred.size(); ++i, t = t->next) {
    const PreferredSchedulingTerm& term = out->added_preferred[i];
    if (term.weight == 0) continue;  // NewPreferredSchedulingTerms skips these unparsed
    CAPI_RETURN_IF_ERROR(CheckTerm(term.preference,
                                   cJSON_GetObjectItemCaseSensitive(t, "preference"),
                                   path.Child(kPreferred).Index(i).Child("preference")));
  }
  return ApiStatus();
}

ApiStatus DecodeNodeAffinityArgs(const cJSON* v, const JsonPath& path, Interner& in,
                                 NodeAffinityArgs* out) {
  CAPI_RETURN_IF_ERROR(CheckStrictObject(v, path, {"apiVersion", "kind", "addedAffinity"}));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "NodeAffinityArgs"));
    } else if (!cJSON_IsNull(m)) {
      CAPI_RETURN_IF_ERROR(DecodeAddedAffinity(m, p, in, out));
    }
  }
  return ApiStatus();
}

// ServiceAffinityArgs (v1.21 types_pluginargs.go); strict, as upstream
// decodes configuration. Upstream validated neither list.
ApiStatus DecodeServiceAffinityArgs(const cJSON* v, const JsonPath& path,
                                    ServiceAffinityArgs* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "ServiceAffinityArgs"));
    } else if (name == "affinityLabels") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->affinity_labels));
    } else if (name == "antiAffinityLabelsPreference") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->anti_affinity_labels_preference));
    } else {
      return ApiStatus::Invalid(p, "unknown field");
    }
  }
  return ApiStatus();
}

// validateNoConflict (v1.20): no key both required present and absent.
ApiStatus CheckNoConflict(const std::vector<std::string>& present,
                          const std::vector<std::string>& absent, const JsonPath& present_path,
                          const JsonPath& absent_path) {
  for (size_t i = 0; i < absent.size(); ++i) {
    for (size_t j = 0; j < present.size(); ++j) {
      if (present[j] != absent[i]) continue;
      std::string msg = "Invalid value: ";
      AppendJsonString(msg, present[j]);
      return ApiStatus::Invalid(present_path.Index(j),
                                msg + ": has conflict with " + absent_path.Index(i).String());
    }
  }
  return ApiStatus();
}

// NodeLabelArgs of v1.20 (config v1beta1 then; apiVersion here is v1, as
// for the other args); strict; ValidateNodeLabelArgs.
ApiStatus DecodeNodeLabelArgs(const cJSON* v, const JsonPath& path, NodeLabelArgs* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (IsTypeMeta(name)) {
      CAPI_RETURN_IF_ERROR(CheckTypeMeta(m, p, "NodeLabelArgs"));
    } else if (name == "presentLabels") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->present_labels));
    } else if (name == "absentLabels") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->absent_labels));
    } else if (name == "presentLabelsPreference") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->present_labels_preference));
    } else if (name == "absentLabelsPreference") {
      CAPI_RETURN_IF_ERROR(DecodeStrings(m, p, &out->absent_labels_preference));
    } else {
      return ApiStatus::Invalid(p, "unknown field");
    }
  }
  CAPI_RETURN_IF_ERROR(CheckNoConflict(out->present_labels, out->absent_labels,
                                       path.Child("presentLabels"), path.Child("absentLabels")));
  return CheckNoConflict(out->present_labels_preference, out->absent_labels_preference,
                         path.Child("presentLabelsPreference"),
                         path.Child("absentLabelsPreference"));
}

}  // namespace

ApiStatus DecodePluginConfig(const cJSON* v, const JsonPath& path, Interner& in, PluginArgs* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsArray(v, path));
  std::vector<std::string_view> seen;
  size_t i = 0;
  constexpr std::string_view kPluginsWithArgs[] = {
      "InterPodAffinity", "PodTopologySpread",
      "NodeResourcesFit", "NodeResourcesBalancedAllocation",
      "NodeAffinity",     "DefaultPreemption", "NodeLabel", "ServiceAffinity"};
  for (const cJSON* e = v->child; e != nullptr; e = e->next, ++i) {
    const JsonPath p = path.Index(i);
    CAPI_RETURN_IF_ERROR(CheckStrictObject(e, p, {"name", "args"}));
    std::string_view name;
    CAPI_RETURN_IF_ERROR(GetString(e, "name", p, &name));
    for (std::string_view s : seen) {
      if (s == name) {
        std::string msg = "Duplicate value: ";
        AppendJsonString(msg, name);
        return ApiStatus::Invalid(p, msg);
      }
    }
    seen.push_back(name);
    const cJSON* args;
    CAPI_RETURN_IF_ERROR(Member(e, "args", p, &args));
    if (std::find(std::begin(kPluginsWithArgs), std::end(kPluginsWithArgs), name) ==
        std::end(kPluginsWithArgs)) {
      return ApiStatus::Invalid(
          p.Child("name"),
          "not supported: only InterPodAffinity, PodTopologySpread, NodeResourcesFit, "
          "NodeResourcesBalancedAllocation, NodeAffinity, DefaultPreemption, NodeLabel and "
          "ServiceAffinity take arguments");
    }
    if (args == nullptr) continue;  // the defaults
    const JsonPath ap = p.Child("args");
    if (name == "NodeLabel") {
      CAPI_RETURN_IF_ERROR(DecodeNodeLabelArgs(args, ap, &out->node_label));
    } else if (name == "InterPodAffinity") {
      CAPI_RETURN_IF_ERROR(DecodeInterPodAffinityArgs(args, ap, &out->inter_pod_affinity));
    } else if (name == "PodTopologySpread") {
      CAPI_RETURN_IF_ERROR(DecodePodTopologySpreadArgs(args, ap, &out->pod_topology_spread));
    } else if (name == "NodeResourcesFit") {
      CAPI_RETURN_IF_ERROR(DecodeNodeResourcesFitArgs(args, ap, &out->node_resources_fit));
    } else if (name == "NodeResourcesBalancedAllocation") {
      CAPI_RETURN_IF_ERROR(
          DecodeBalancedAllocationArgs(args, ap, &out->node_resources_balanced_allocation));
    } else if (name == "NodeAffinity") {
      CAPI_RETURN_IF_ERROR(DecodeNodeAffinityArgs(args, ap, in, &out->node_affinity));
    } else if (name == "ServiceAffinity") {
      CAPI_RETURN_IF_ERROR(DecodeServiceAffinityArgs(args, ap, &out->service_affinity));
    } else {
      CAPI_RETURN_IF_ERROR(DecodeDefaultPreemptionArgs(args, ap, &out->default_preemption));
    }
  }
  return ApiStatus();
}

}  // namespace sched::capi
