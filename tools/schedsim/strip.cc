#include "strip.h"

#include <algorithm>

namespace schedsim {
namespace {

// Status fields capi/decode_pod.cc and capi/decode_node.cc read. Node
// capacity stays: schedsim defaults allocatable from it.
constexpr std::string_view kPodStatus[] = {
    "phase",      "nominatedNodeName", "startTime",
    "conditions", "containerStatuses", "initContainerStatuses"};
constexpr std::string_view kNodeStatus[] = {"allocatable", "capacity", "images"};

template <size_t N>
bool In(const std::string_view (&list)[N], const char* key) {
  return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

// Deletes the members of `obj` whose key `keep` refuses.
template <typename Keep>
void KeepOnly(cJSON* obj, Keep keep) {
  if (!cJSON_IsObject(obj)) return;
  cJSON* m = obj->child;
  while (m != nullptr) {
    cJSON* next = m->next;
    if (m->string == nullptr || !keep(m->string)) cJSON_Delete(cJSON_DetachItemViaPointer(obj, m));
    m = next;
  }
}

void StripMeta(cJSON* meta) {
  if (!cJSON_IsObject(meta)) return;
  cJSON_DeleteItemFromObjectCaseSensitive(meta, "managedFields");
  cJSON* annotations = cJSON_GetObjectItemCaseSensitive(meta, "annotations");
  KeepOnly(annotations, [](const char* k) { return In(kEngineAnnotations, k); });
}

}  // namespace

void StripUnread(cJSON* obj, std::string_view kind) {
  StripMeta(cJSON_GetObjectItemCaseSensitive(obj, "metadata"));
  cJSON* spec = cJSON_GetObjectItemCaseSensitive(obj, "spec");
  StripMeta(Member(Member(spec, "template"), "metadata"));
  cJSON* status = cJSON_GetObjectItemCaseSensitive(obj, "status");
  if (kind == "Pod") KeepOnly(status, [](const char* k) { return In(kPodStatus, k); });
  if (kind == "Node") KeepOnly(status, [](const char* k) { return In(kNodeStatus, k); });
}

}  // namespace schedsim
