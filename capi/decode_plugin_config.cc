// profiles[].pluginConfig of the engine config: the plugin arguments the
// engine supports, defaulted and validated as upstream
// (apis/config/v1/defaults.go, apis/config/validation/validation_pluginargs.go).
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/limits.h"

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

// A list of label keys (NodeLabelArgs); `v` may be null.
ApiStatus DecodeLabelKeys(const cJSON* v, const JsonPath& path, std::vector<std::string>* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsArray(v, path));
  CAPI_RETURN_IF_ERROR(CheckItemCount(v, path, kMaxItems));
  size_t i = 0;
  for (const cJSON* e = v->child; e != nullptr; e = e->next, ++i) {
    std::string_view key;
    CAPI_RETURN_IF_ERROR(AsString(e, path.Index(i), &key));
    out->emplace_back(key);
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
    if (name == "apiVersion" || name == "kind") {
      const std::string_view want = name == "kind" ? "NodeLabelArgs" : kArgsApiVersion;
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      if (s != want) return Unsupported(p, s, {want});
    } else if (name == "presentLabels") {
      CAPI_RETURN_IF_ERROR(DecodeLabelKeys(m, p, &out->present_labels));
    } else if (name == "absentLabels") {
      CAPI_RETURN_IF_ERROR(DecodeLabelKeys(m, p, &out->absent_labels));
    } else if (name == "presentLabelsPreference") {
      CAPI_RETURN_IF_ERROR(DecodeLabelKeys(m, p, &out->present_labels_preference));
    } else if (name == "absentLabelsPreference") {
      CAPI_RETURN_IF_ERROR(DecodeLabelKeys(m, p, &out->absent_labels_preference));
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
    if (name != "InterPodAffinity" && name != "PodTopologySpread" && name != "NodeLabel") {
      return ApiStatus::Invalid(
          p.Child("name"),
          "not supported: only InterPodAffinity, PodTopologySpread and NodeLabel take arguments");
    }
    if (args == nullptr) continue;
    if (name == "NodeLabel") {
      CAPI_RETURN_IF_ERROR(DecodeNodeLabelArgs(args, p.Child("args"), &out->node_label));
    } else if (name == "InterPodAffinity") {
      CAPI_RETURN_IF_ERROR(
          DecodeInterPodAffinityArgs(args, p.Child("args"), &out->inter_pod_affinity));
    } else {
      CAPI_RETURN_IF_ERROR(
          DecodePodTopologySpreadArgs(args, p.Child("args"), &out->pod_topology_spread));
    }
  }
  return ApiStatus();
}

}  // namespace sched::capi
