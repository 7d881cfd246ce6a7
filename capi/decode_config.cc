// Engine config: the subset of KubeSchedulerConfiguration
// (kubescheduler.config.k8s.io/v1) the engine honours, defaulted and
// validated as upstream does (apis/config/v1/defaults.go,
// apis/config/validation/validation.go), plus our "seed".
#include <charconv>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/limits.h"
#include "libsched/plugins/registry.h"

namespace sched::capi {
namespace {

constexpr std::string_view kApiVersion = "kubescheduler.config.k8s.io/v1";
constexpr std::string_view kKind = "KubeSchedulerConfiguration";
// A bound on backoff seconds (about 31 years) that keeps nanoseconds in range.
constexpr int64_t kMaxBackoffSeconds = 1'000'000'000;

ApiStatus UnknownField(const JsonPath& path, std::string_view name) {
  return ApiStatus::Invalid(path.Child(name), "unknown field");
}

ApiStatus DecodePercentage(const cJSON* v, const JsonPath& path, std::optional<int32_t>* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  int64_t p;
  CAPI_RETURN_IF_ERROR(AsInt(v, path, 0, 100, &p));
  *out = static_cast<int32_t>(p);
  return ApiStatus();
}

// A uint64 as a JSON integer (exact up to 2^53) or a decimal string (the
// full range, as JSON numbers cannot carry it).
ApiStatus DecodeSeed(const cJSON* v, const JsonPath& path, uint64_t* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  if (cJSON_IsString(v)) {
    const char* s = v->valuestring;
    const char* end = s + std::strlen(s);
    const auto [p, ec] = std::from_chars(s, end, *out, 10);
    if (ec != std::errc() || p != end || p == s) {
      return ApiStatus::Invalid(path, "expected an unsigned 64-bit integer");
    }
    return ApiStatus();
  }
  int64_t seed;
  CAPI_RETURN_IF_ERROR(AsInt(v, path, 0, kMaxExactInt, &seed));
  *out = static_cast<uint64_t>(seed);
  return ApiStatus();
}

struct DecodedProfile {
  std::optional<std::string> scheduler_name;
  std::optional<int32_t> percentage;
  PluginArgs plugin_args;
  PluginsConfig plugins;  // the custom part, merged with the defaults later
};

ApiStatus DecodeProfile(const cJSON* v, const JsonPath& path, Interner& in,
                        DecodedProfile* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (name == "schedulerName") {
      if (cJSON_IsNull(m)) continue;
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      out->scheduler_name = std::string(s);
    } else if (name == "percentageOfNodesToScore") {
      CAPI_RETURN_IF_ERROR(DecodePercentage(m, p, &out->percentage));
    } else if (name == "pluginConfig") {
      CAPI_RETURN_IF_ERROR(DecodePluginConfig(m, p, in, &out->plugin_args));
    } else if (name == "plugins") {
      CAPI_RETURN_IF_ERROR(DecodePlugins(m, p, &out->plugins));
    } else {
      return UnknownField(path, name);
    }
  }
  return ApiStatus();
}

}  // namespace

ApiStatus DecodeConfig(const cJSON* root, Interner& in, EngineConfig* out) {
  const JsonPath path;
  CAPI_RETURN_IF_ERROR(AsObject(root, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(root, path));
  const cJSON* kind = cJSON_GetObjectItemCaseSensitive(root, "kind");
  if (cJSON_IsString(kind) && std::string_view(kind->valuestring) == "Policy") {
    return DecodePolicy(root, in, out);
  }
  std::optional<int32_t> percentage;
  std::vector<DecodedProfile> profiles;
  const cJSON* profiles_json = nullptr;
  for (const cJSON* m = root->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (name == "apiVersion" || name == "kind") {
      const std::string_view want = name == "kind" ? kKind : kApiVersion;
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      if (s != want && name == "kind") return Unsupported(p, s, {kKind, "Policy"});
      if (s != want) return Unsupported(p, s, {want});
    } else if (name == "percentageOfNodesToScore") {
      CAPI_RETURN_IF_ERROR(DecodePercentage(m, p, &percentage));
    } else if (name == "parallelism") {
      if (cJSON_IsNull(m)) continue;
      int64_t parallelism;
      CAPI_RETURN_IF_ERROR(AsInt(m, p, 1, INT32_MAX, &parallelism));
      out->parallelism = static_cast<int32_t>(parallelism);
    } else if (name == "podInitialBackoffSeconds" || name == "podMaxBackoffSeconds") {
      if (cJSON_IsNull(m)) continue;
      int64_t* field = name == "podInitialBackoffSeconds" ? &out->pod_initial_backoff_seconds
                                                          : &out->pod_max_backoff_seconds;
      CAPI_RETURN_IF_ERROR(AsInt(m, p, 1, kMaxBackoffSeconds, field));
    } else if (name == "seed") {
      CAPI_RETURN_IF_ERROR(DecodeSeed(m, p, &out->seed));
    } else if (name == "equivalenceCache") {
      CAPI_RETURN_IF_ERROR(GetBool(root, "equivalenceCache", path, &out->equivalence_cache));
    } else if (name == "profiles") {
      if (!cJSON_IsNull(m)) CAPI_RETURN_IF_ERROR(AsArray(m, p));
      profiles_json = m;
    } else {
      return UnknownField(path, name);
    }
  }
  if (out->pod_max_backoff_seconds < out->pod_initial_backoff_seconds) {
    return ApiStatus::Invalid(path.Child("podMaxBackoffSeconds"),
                              "must be greater than or equal to PodInitialBackoffSeconds");
  }
  const JsonPath profiles_path = path.Child("profiles");
  if (profiles_json != nullptr) {
    CAPI_RETURN_IF_ERROR(CheckItemCount(profiles_json, profiles_path, kMaxProfiles));
    size_t i = 0;
    for (const cJSON* e = profiles_json->child; e != nullptr; e = e->next, ++i) {
      CAPI_RETURN_IF_ERROR(DecodeProfile(e, profiles_path.Index(i), in, &profiles.emplace_back()));
    }
  }

  // SetDefaults_KubeSchedulerConfiguration: no profiles means one; a lone
  // profile without a name is the default scheduler.
  if (profiles.empty()) profiles.emplace_back();
  if (profiles.size() == 1 && !profiles[0].scheduler_name) {
    profiles[0].scheduler_name = kDefaultSchedulerName;
  }
  out->profiles.clear();
  for (size_t i = 0; i < profiles.size(); ++i) {
    const JsonPath profile_path = profiles_path.Index(i);
    const JsonPath name_path = profile_path.Child("schedulerName");
    const std::string name = profiles[i].scheduler_name.value_or("");
    if (name.empty()) return Required(name_path);
    for (const ProfileConfig& prev : out->profiles) {
      if (prev.scheduler_name == name) {
        std::string msg = "Duplicate value: ";
        AppendJsonString(msg, name);
        return ApiStatus::Invalid(name_path, msg);
      }
    }
    ExpandedPlugins plugins =
        ExpandPlugins(MergePlugins(DefaultPlugins(), profiles[i].plugins),
                      [](std::string_view n) { return FindPlugin(n)->points; });
    CAPI_RETURN_IF_ERROR(CheckExpandedPlugins(plugins, profile_path.Child("plugins"), name));
    // A profile's own percentage, when set, overrides the global one.
    out->profiles.push_back({name, profiles[i].percentage.value_or(percentage.value_or(0)),
                             profiles[i].plugin_args, std::move(plugins)});
  }
  return ApiStatus();
}

}  // namespace sched::capi
