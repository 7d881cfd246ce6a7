#include "priority.h"

#include <algorithm>
#include <cstdint>

namespace schedsim {

// scheduling.SystemPriorityClasses (pkg/apis/scheduling/types.go).
PriorityClasses::PriorityClasses()
    : values{{"system-node-critical", 2000001000}, {"system-cluster-critical", 2000000000}} {}

void AddPriorityClass(const InputObject& pc, PriorityClasses& classes) {
  Loc meta = pc.loc.Key("metadata");
  std::optional<std::string> name =
      OptString(Member(Member(pc.json, "metadata"), "name"), meta.Key("name"));
  if (!name) throw InputError(meta.Key("name"), "missing");
  std::optional<int64_t> value =
      OptInt(Member(pc.json, "value"), pc.loc.Key("value"), INT32_MIN, INT32_MAX);
  if (!value) throw InputError(pc.loc.Key("value"), "missing");
  const int32_t v = static_cast<int32_t>(*value);
  classes.values[*name] = v;
  if (OptBool(Member(pc.json, "globalDefault"), pc.loc.Key("globalDefault")).value_or(false)) {
    classes.global_default = std::min(classes.global_default.value_or(v), v);
  }
}

void ResolvePriority(cJSON* spec, const Loc& loc, const PriorityClasses& classes,
                     Diagnostics& diag) {
  if (OptInt(Member(spec, "priority"), loc.Key("priority"), INT32_MIN, INT32_MAX)) return;
  auto name =
      OptString(Member(spec, "priorityClassName"), loc.Key("priorityClassName")).value_or("");
  std::optional<int32_t> value = classes.global_default;
  if (!name.empty()) {
    auto it = classes.values.find(name);
    if (it == classes.values.end()) {
      // plugin/pkg/admission/priority's refusal.
      diag.Warn(loc.Key("priorityClassName"), "no PriorityClass with name " + name + " was found");
      return;
    }
    value = it->second;
  }
  if (!value || spec == nullptr) return;
  cJSON_DeleteItemFromObjectCaseSensitive(spec, "priority");  // an explicit null
  cJSON_AddNumberToObject(spec, "priority", *value);
}

}  // namespace schedsim
