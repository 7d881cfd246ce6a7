#include "config.h"

namespace schedsim {

void DropIgnoredConfig(cJSON* config, const std::string& file, std::ostream& err) {
  const cJSON* kind = Member(config, "kind");
  if (cJSON_IsString(kind) && std::string(kind->valuestring) == "Policy") return;
  std::string dropped;
  for (const char* name : kIgnoredConfigFields) {
    if (cJSON_GetObjectItemCaseSensitive(config, name) == nullptr) continue;
    cJSON_DeleteItemFromObjectCaseSensitive(config, name);
    dropped += (dropped.empty() ? "" : ", ") + std::string(name);
  }
  if (!dropped.empty()) {
    err << "schedsim: " << file << ": ignored (no effect on placement): " << dropped << "\n";
  }
}

}  // namespace schedsim
