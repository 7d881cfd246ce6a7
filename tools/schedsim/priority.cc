#include "priority.h"

#include <cstdint>

namespace schedsim {

void AddPriorityClass(const InputObject& pc, PriorityClasses& classes) {
  Loc meta = pc.loc.Key("metadata");
  std::optional<std::string> name =
      OptString(Member(Member(pc.json, "metadata"), "name"), meta.Key("name"));
  if (!name) throw InputError(meta.Key("name"), "missing");
  std::optional<int64_t> value =
      OptInt(Member(pc.json, "value"), pc.loc.Key("value"), INT32_MIN, INT32_MAX);
  if (!value) throw InputError(pc.loc.Key("value"), "missing");
  classes[*name] = static_cast<int32_t>(*value);
}

void ResolvePriority(cJSON* spec, const Loc& loc, const PriorityClasses& classes) {
  if (OptInt(Member(spec, "priority"), loc.Key("priority"), INT32_MIN, INT32_MAX)) return;
  auto name = OptString(Member(spec, "priorityClassName"), loc.Key("priorityClassName"));
  if (!name) return;
  auto it = classes.find(*name);
  if (it == classes.end()) return;
  cJSON_DeleteItemFromObjectCaseSensitive(spec, "priority");  // an explicit null
  cJSON_AddNumberToObject(spec, "priority", it->second);
}

}  // namespace schedsim
