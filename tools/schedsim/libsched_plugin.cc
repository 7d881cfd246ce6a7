#include "libsched_plugin.h"

#include <cmath>
#include <optional>
#include <set>

namespace schedsim {
namespace {

constexpr const char* kLibSched = "LibSched";

std::string NameOf(const cJSON* entry) {
  const cJSON* name = Member(entry, "name");
  return cJSON_IsString(name) ? name->valuestring : "";
}

// The plugin names of `list` ("enabled" or "disabled") at every
// extension point of a profile's `plugins`.
std::set<std::string> Named(const cJSON* plugins, const char* list) {
  std::set<std::string> names;
  for (const cJSON* point = cJSON_IsObject(plugins) ? plugins->child : nullptr; point != nullptr;
       point = point->next) {
    const cJSON* l = Member(point, list);
    for (const cJSON* e = cJSON_IsArray(l) ? l->child : nullptr; e != nullptr; e = e->next) {
      names.insert(NameOf(e));
    }
  }
  return names;
}

struct Args {
  std::string mode = "Plugin";
  std::optional<int64_t> percentage;
  std::optional<uint64_t> seed;
  JsonPtr plugins;  // null: the defaults
};

// LibSched's args, `args` at `at` (decodeArgs in the fork's args.go).
Args ReadArgs(const cJSON* args, const Loc& at) {
  Args a;
  if (args == nullptr) return a;
  if (!cJSON_IsObject(args)) throw InputError(at, "want an object");
  if (auto mode = OptString(Member(args, "mode"), at.Key("mode")); mode && !mode->empty()) {
    a.mode = *mode;
  }
  if (a.mode != "Plugin" && a.mode != "Algorithm") {
    throw InputError(at.Key("mode"),
                     "unsupported value \"" + a.mode + "\": want \"Plugin\" or \"Algorithm\"");
  }
  a.percentage =
      OptInt(Member(args, "percentageOfNodesToScore"), at.Key("percentageOfNodesToScore"), 0, 100);
  if (const cJSON* seed = Member(args, "seed")) {
    const double v = cJSON_GetNumberValue(seed);
    // A uint64 as JSON: integral, non-negative (exact up to 2^53 here).
    if (!cJSON_IsNumber(seed) || v < 0 || v != std::floor(v) || v > 9007199254740992.0) {
      throw InputError(at.Key("seed"), "want an unsigned integer");
    }
    a.seed = static_cast<uint64_t>(v);
  }
  if (const cJSON* plugins = Member(args, "plugins")) {
    if (!cJSON_IsObject(plugins)) throw InputError(at.Key("plugins"), "want an object");
    a.plugins.reset(cJSON_Duplicate(plugins, true));
  }
  return a;
}

// Rewrites profile `p` (at `loc`), which enables LibSched; returns what
// was dropped, for the notice.
std::string Resolve(cJSON* config, cJSON* p, const Loc& loc, std::string* mode) {
  const cJSON* plugins = Member(p, "plugins");
  const std::set<std::string> enabled = Named(plugins, "enabled");
  const std::set<std::string> disabled = Named(plugins, "disabled");
  cJSON* plugin_config = Member(p, "pluginConfig");
  // LibSched's own entry first: the mode decides what the others mean.
  Args a;
  size_t i = 0;
  for (const cJSON* pc = cJSON_IsArray(plugin_config) ? plugin_config->child : nullptr;
       pc != nullptr; pc = pc->next, ++i) {
    if (NameOf(pc) == kLibSched) {
      a = ReadArgs(Member(pc, "args"), loc.Key("pluginConfig").Index(i).Key("args"));
    }
  }
  *mode = a.mode;
  std::string dropped = "its plugins (what upstream runs around LibSched)";
  // The entries the fork passes: LibSched stands in for their plugin.
  JsonPtr kept(cJSON_CreateArray());
  for (const cJSON* pc = cJSON_IsArray(plugin_config) ? plugin_config->child : nullptr;
       pc != nullptr; pc = pc->next) {
    const std::string name = NameOf(pc);
    if (name == kLibSched) continue;
    const bool stood_in =
        !enabled.contains(name) &&
        (a.mode == "Algorithm" || disabled.contains(name) || disabled.contains("*"));
    if (stood_in) {
      cJSON_AddItemToArray(kept.get(), cJSON_Duplicate(pc, true));
    } else {
      dropped += ", pluginConfig of " + name + " (upstream runs it)";
    }
  }
  if (a.mode == "Algorithm" && a.percentage) {
    const auto own =
        OptInt(Member(p, "percentageOfNodesToScore"), loc.Key("percentageOfNodesToScore"), 0, 100);
    if (own && *own != *a.percentage) {
      throw InputError(loc.Key("pluginConfig"),
                       "LibSched's percentageOfNodesToScore " + std::to_string(*a.percentage) +
                           " differs from the profile's " + std::to_string(*own));
    }
    cJSON_DeleteItemFromObjectCaseSensitive(p, "percentageOfNodesToScore");
    cJSON_AddNumberToObject(p, "percentageOfNodesToScore", static_cast<double>(*a.percentage));
  }
  cJSON_DeleteItemFromObjectCaseSensitive(p, "plugins");
  cJSON_DeleteItemFromObjectCaseSensitive(p, "pluginConfig");
  if (a.plugins) cJSON_AddItemToObject(p, "plugins", a.plugins.release());
  if (cJSON_GetArraySize(kept.get()) > 0) cJSON_AddItemToObject(p, "pluginConfig", kept.release());
  if (a.seed && Member(config, "seed") == nullptr) {
    SetString(config, "seed", std::to_string(*a.seed));
  }
  return dropped;
}

}  // namespace

void ResolveLibSchedProfiles(cJSON* config, const std::string& file, std::ostream& err) {
  const cJSON* kind = Member(config, "kind");
  if (cJSON_IsString(kind) && std::string(kind->valuestring) == "Policy") return;
  cJSON* profiles = Member(config, "profiles");
  size_t i = 0;
  for (cJSON* p = cJSON_IsArray(profiles) ? profiles->child : nullptr; p != nullptr;
       p = p->next, ++i) {
    if (!Named(Member(p, "plugins"), "enabled").contains(kLibSched)) continue;
    const Loc loc = Loc{file, 0, ""}.Key("profiles").Index(i);
    std::string mode;
    const std::string dropped = Resolve(config, p, loc, &mode);
    const cJSON* name = Member(p, "schedulerName");
    err << "schedsim: " << loc.Str() << " ("
        << (cJSON_IsString(name) ? name->valuestring : "default-scheduler") << "): LibSched (mode "
        << mode
        << ") is this engine, running LibSched's args.plugins (the defaults when absent); not "
           "used: "
        << dropped << "\n";
  }
}

}  // namespace schedsim
