// profiles[].pluginConfig of the engine config: the plugin arguments the
// engine supports, defaulted and validated as upstream
// (apis/config/v1/defaults.go, apis/config/validation/validation_pluginargs.go).
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"

namespace sched::capi {
namespace {

constexpr std::string_view kArgsApiVersion = "kubescheduler.config.k8s.io/v1";

// InterPodAffinityArgs; strict, as upstream decodes configuration.
ApiStatus DecodeInterPodAffinityArgs(const cJSON* v, const JsonPath& path,
                                     InterPodAffinityArgs* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (name == "apiVersion" || name == "kind") {
      const std::string_view want = name == "kind" ? "InterPodAffinityArgs" : kArgsApiVersion;
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      if (s != want) return Unsupported(p, s, {want});
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
    if (name == "apiVersion" || name == "kind") {
      const std::string_view want = name == "kind" ? "PodTopologySpreadArgs" : kArgsApiVersion;
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      if (s != want) return Unsupported(p, s, {want});
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
    return ApiStatus::Invalid(p, "Invalid value: \"System\": when .defaultConstraints are not empty");
  }
  return ApiStatus();
}

// A list of label keys (a []string): null or absent leaves it empty.
ApiStatus DecodeLabelList(const cJSON* obj, const char* name, const JsonPath& path,
                          std::vector<std::string>* out) {
  return ForEachElement(obj, name, path, [&](const cJSON* e, const JsonPath& p) {
    std::string_view s;
    CAPI_RETURN_IF_ERROR(AsString(e, p, &s));
    out->emplace_back(s);
    return ApiStatus();
  });
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
    if (name == "apiVersion" || name == "kind") {
      const std::string_view want = name == "kind" ? "ServiceAffinityArgs" : kArgsApiVersion;
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      if (s != want) return Unsupported(p, s, {want});
    } else if (name == "affinityLabels") {
      CAPI_RETURN_IF_ERROR(DecodeLabelList(v, m->string, path, &out->affinity_labels));
    } else if (name == "antiAffinityLabelsPreference") {
      CAPI_RETURN_IF_ERROR(
          DecodeLabelList(v, m->string, path, &out->anti_affinity_labels_preference));
    } else {
      return ApiStatus::Invalid(p, "unknown field");
    }
  }
  return ApiStatus();
}

}  // namespace

ApiStatus DecodePluginConfig(const cJSON* v, const JsonPath& path, PluginArgs* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsArray(v, path));
  std::vector<std::string_view> seen;
  size_t i = 0;
  for (const cJSON* e = v->child; e != nullptr; e = e->next, ++i) {
    const JsonPath p = path.Index(i);
    CAPI_RETURN_IF_ERROR(AsObject(e, p));
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
    if (name != "InterPodAffinity" && name != "PodTopologySpread" && name != "ServiceAffinity") {
      return ApiStatus::Invalid(p.Child("name"),
                                "not supported: only InterPodAffinity, PodTopologySpread and "
                                "ServiceAffinity take arguments");
    }
    if (args == nullptr) continue;
    if (name == "InterPodAffinity") {
      CAPI_RETURN_IF_ERROR(
          DecodeInterPodAffinityArgs(args, p.Child("args"), &out->inter_pod_affinity));
    } else if (name == "ServiceAffinity") {
      CAPI_RETURN_IF_ERROR(
          DecodeServiceAffinityArgs(args, p.Child("args"), &out->service_affinity));
    } else {
      CAPI_RETURN_IF_ERROR(
          DecodePodTopologySpreadArgs(args, p.Child("args"), &out->pod_topology_spread));
    }
  }
  return ApiStatus();
}

}  // namespace sched::capi
