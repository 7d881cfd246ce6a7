// profiles[].plugins of the engine config (config.Plugins): per extension
// point {enabled: [{name, weight}], disabled: [{name}]}, and multiPoint.
// Names are checked against the registry with the errors upstream's
// framework gives when it builds a profile (framework/runtime/framework.go
// updatePluginList, expandMultiPointPlugins), but at the field's path.
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"

namespace sched::capi {
namespace {

// A known plugin name (or "*" where `star` allows it) at `path`.
ApiStatus DecodeName(const cJSON* plugin, const JsonPath& path, bool star, std::string_view* name) {
  const JsonPath p = path.Child("name");
  CAPI_RETURN_IF_ERROR(GetString(plugin, "name", path, name));
  if (name->empty()) return Required(p);
  if ((star && *name == "*") || FindPlugin(*name) != nullptr) return ApiStatus();
  return ApiStatus::Invalid(p, "plugin " + Quoted(*name) + " does not exist");
}

// One PluginSet; `point` is null for multiPoint.
ApiStatus DecodePluginSet(const cJSON* v, const JsonPath& path, const ExtensionPoint* point,
                          PluginSet* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(CheckFields(v, path, {"enabled", "disabled"}));
  CAPI_RETURN_IF_ERROR(ForEachElement(v, "enabled", path, [&](const cJSON* e, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(CheckFields(e, p, {"name", "weight"}));
    std::string_view name;
    CAPI_RETURN_IF_ERROR(DecodeName(e, p, false, &name));
    const std::string_view what = point ? ExtensionPointInterface(*point) : "MultiPoint";
    for (const PluginRef& prev : out->enabled) {
      if (prev.name == name) {
        return ApiStatus::Invalid(
            p.Child("name"), "plugin " + Quoted(name) + " already registered as " + Quoted(what));
      }
    }
    if (point != nullptr && (FindPlugin(name)->points & Bit(*point)) == 0) {
      return ApiStatus::Invalid(p.Child("name"),
                                "plugin " + Quoted(name) + " does not extend " + std::string(what));
    }
    PluginRef ref{std::string(name)};
    CAPI_RETURN_IF_ERROR(GetInt32(e, "weight", p, &ref.weight));
    out->enabled.push_back(std::move(ref));
    return ApiStatus();
  }));
  return ForEachElement(v, "disabled", path, [&](const cJSON* e, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(CheckFields(e, p, {"name", "weight"}));
    std::string_view name;
    CAPI_RETURN_IF_ERROR(DecodeName(e, p, true, &name));
    out->disabled.emplace_back(name);
    return ApiStatus();
  });
}

}  // namespace

ApiStatus DecodePlugins(const cJSON* v, const JsonPath& path, PluginsConfig* out) {
  if (cJSON_IsNull(v)) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (name == "multiPoint") {
      CAPI_RETURN_IF_ERROR(DecodePluginSet(m, p, nullptr, &out->multi_point));
      continue;
    }
    bool found = false;
    for (size_t i = 0; i < kNumExtensionPoints && !found; ++i) {
      const auto point = static_cast<ExtensionPoint>(i);
      if (ExtensionPointField(point) != name) continue;
      found = true;
      CAPI_RETURN_IF_ERROR(DecodePluginSet(m, p, &point, &out->at(point)));
    }
    if (!found) return ApiStatus::Invalid(p, "unknown field");
  }
  return ApiStatus();
}

ApiStatus CheckExpandedPlugins(const ExpandedPlugins& plugins, const JsonPath& path,
                               std::string_view scheduler_name) {
  const size_t sorts = plugins[static_cast<size_t>(ExtensionPoint::kQueueSort)].size();
  if (sorts != 1) {
    return ApiStatus::Invalid(path,
                              "only one queue sort plugin required for profile with "
                              "scheduler name " +
                                  Quoted(scheduler_name) + ", but got " + std::to_string(sorts));
  }
  if (plugins[static_cast<size_t>(ExtensionPoint::kBind)].empty()) {
    return ApiStatus::Invalid(path,
                              "at least one bind plugin is needed for profile with "
                              "scheduler name " +
                                  Quoted(scheduler_name));
  }
  return ApiStatus();
}

}  // namespace sched::capi
