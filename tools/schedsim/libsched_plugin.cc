#include "libsched_plugin.h"

#include <cmath>
#include <optional>

namespace schedsim {
namespace {

constexpr const char* kLibSched = "LibSched";

bool Named(const cJSON* entry) {
  const cJSON* name = Member(entry, "name");
  return cJSON_IsString(name) && std::string(name->valuestring) == kLibSched;
}

// Whether `plugins` (a profile's) enables LibSched at any extension point.
bool EnablesLibSched(const cJSON* plugins) {
  for (const cJSON* point = cJSON_IsObject(plugins) ? plugins->child : nullptr; point != nullptr;
       point = point->next) {
    const cJSON* enabled = Member(point, "enabled");
    for (const cJSON* e = cJSON_IsArray(enabled) ? enabled->child : nullptr; e != nullptr;
         e = e->next) {
      if (Named(e)) return true;
    }
  }
  return false;
}

struct Args {
  std::string mode = "Plugin";
  std::optional<int64_t> percentage;
  std::optional<uint64_t> seed;
};

// LibSched's args in `plugin_config` (decodeArgs in the fork's args.go).
Args ReadArgs(const cJSON* plugin_config, const Loc& loc) {
  Args a;
  size_t i = 0;
  for (const cJSON* pc = cJSON_IsArray(plugin_config) ? plugin_config->child : nullptr;
       pc != nullptr; pc = pc->next, ++i) {
    if (!Named(pc)) continue;
    const Loc at = loc.Index(i).Key("args");
    const cJSON* args = Member(pc, "args");
    if (args == nullptr) continue;
    if (!cJSON_IsObject(args)) throw InputError(at, "want an object");
    if (auto mode = OptString(Member(args, "mode"), at.Key("mode")); mode && !mode->empty()) {
      a.mode = *mode;
    }
    if (a.mode != "Plugin" && a.mode != "Algorithm") {
      throw InputError(at.Key("mode"),
                       "unsupported value \"" + a.mode + "\": want \"Plugin\" or \"Algorithm\"");
    }
    a.percentage = OptInt(Member(args, "percentageOfNodesToScore"),
                          at.Key("percentageOfNodesToScore"), 0, 100);
    const cJSON* seed = Member(args, "seed");
    if (seed != nullptr) {
      const double v = cJSON_GetNumberValue(seed);
      // A uint64 as JSON: integral, non-negative (exact up to 2^53 here).
      if (!cJSON_IsNumber(seed) || v < 0 || v != std::floor(v) || v > 9007199254740992.0) {
        throw InputError(at.Key("seed"), "want an unsigned integer");
      }
      a.seed = static_cast<uint64_t>(v);
    }
  }
  return a;
}

}  // namespace

void ResolveLibSchedProfiles(cJSON* config, const std::string& file, std::ostream& err) {
  const cJSON* kind = Member(config, "kind");
  if (cJSON_IsString(kind) && std::string(kind->valuestring) == "Policy") return;
  cJSON* profiles = Member(config, "profiles");
  size_t i = 0;
  for (cJSON* p = cJSON_IsArray(profiles) ? profiles->child : nullptr; p != nullptr;
       p = p->next, ++i) {
    if (!EnablesLibSched(Member(p, "plugins"))) continue;
    const Loc loc = Loc{file, 0, ""}.Key("profiles").Index(i);
    const Args a = ReadArgs(Member(p, "pluginConfig"), loc.Key("pluginConfig"));
    cJSON_DeleteItemFromObjectCaseSensitive(p, "plugins");
    cJSON_DeleteItemFromObjectCaseSensitive(p, "pluginConfig");
    // Algorithm mode: the engine picks among as many nodes as its own
    // percentageOfNodesToScore says (engineConfig); in Plugin mode it
    // answers for every node and the profile's setting applies, as here.
    if (a.mode == "Algorithm") {
      cJSON_DeleteItemFromObjectCaseSensitive(p, "percentageOfNodesToScore");
      cJSON_AddNumberToObject(p, "percentageOfNodesToScore",
                              static_cast<double>(a.percentage.value_or(0)));
    }
    if (a.seed && Member(config, "seed") == nullptr) {
      SetString(config, "seed", std::to_string(*a.seed));
    }
    const cJSON* name = Member(p, "schedulerName");
    err << "schedsim: " << loc.Str() << " ("
        << (cJSON_IsString(name) ? name->valuestring : "default-scheduler")
        << "): the LibSched plugin (mode " << a.mode
        << ") is this engine: its default profile runs; the profile's plugins and "
           "pluginConfig are ignored\n";
  }
}

}  // namespace schedsim
