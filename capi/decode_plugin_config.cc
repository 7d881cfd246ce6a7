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
    if (name != "InterPodAffinity") {
      return ApiStatus::Invalid(p.Child("name"),
                                "not supported: only InterPodAffinity takes arguments");
    }
    if (args != nullptr) {
      CAPI_RETURN_IF_ERROR(
          DecodeInterPodAffinityArgs(args, p.Child("args"), &out->inter_pod_affinity));
    }
  }
  return ApiStatus();
}

}  // namespace sched::capi
