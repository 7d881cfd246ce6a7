#include "simulator_export.h"

namespace schedsim {
namespace {

struct ListKind {
  const char* key;
  const char* api_version;
  const char* kind;
};

// The export's lists (simulator/snapshot: ResourcesForSnap).
constexpr ListKind kLists[] = {
    {"pods", "v1", "Pod"},
    {"nodes", "v1", "Node"},
    {"pvs", "v1", "PersistentVolume"},
    {"pvcs", "v1", "PersistentVolumeClaim"},
    {"storageClasses", "storage.k8s.io/v1", "StorageClass"},
    {"priorityClasses", "scheduling.k8s.io/v1", "PriorityClass"},
};
constexpr const char* kConfigKey = "schedulerConfig";

}  // namespace

bool IsSimulatorExport(const cJSON* v) {
  if (!cJSON_IsObject(v) || Member(v, "kind") != nullptr) return false;
  for (const ListKind& l : kLists) {
    if (cJSON_GetObjectItemCaseSensitive(v, l.key) != nullptr) return true;
  }
  return cJSON_GetObjectItemCaseSensitive(v, kConfigKey) != nullptr;
}

void ReadSimulatorExport(cJSON* v, const Loc& loc, std::vector<InputObject>& out,
                         SchedulerConfig* config) {
  for (const ListKind& l : kLists) {
    cJSON* list = Member(v, l.key);
    if (list == nullptr) continue;
    if (!cJSON_IsArray(list)) throw InputError(loc.Key(l.key), "must be an array");
    size_t i = 0;
    for (cJSON* obj = list->child; obj != nullptr; obj = obj->next) {
      Loc at = loc.Key(l.key).Index(i++);
      if (!cJSON_IsObject(obj)) throw InputError(at, "must be an object");
      SetString(obj, "apiVersion", l.api_version);
      SetString(obj, "kind", l.kind);
      out.push_back(InputObject{obj, l.kind, at});
    }
  }
  if (cJSON* c = Member(v, kConfigKey)) {
    if (!cJSON_IsObject(c)) throw InputError(loc.Key(kConfigKey), "must be an object");
    config->json = c;
    config->loc = loc.Key(kConfigKey);
  }
}

}  // namespace schedsim
