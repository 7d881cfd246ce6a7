#include "workloads.h"

#include <algorithm>
#include <cstdint>

#include "names.h"

namespace schedsim {
namespace {

constexpr int64_t kMaxInt32 = INT32_MAX;

int64_t Count(const InputObject& w) {
  Loc spec_loc = w.loc.Key("spec");
  cJSON* spec = OptObject(Member(w.json, "spec"), spec_loc);
  auto field = [&](const char* key) {
    return OptInt(Member(spec, key), spec_loc.Key(key), 0, kMaxInt32);
  };
  if (w.kind != "Job") return field("replicas").value_or(1);
  if (OptBool(Member(spec, "suspend"), spec_loc.Key("suspend")).value_or(false)) return 0;
  int64_t n = field("parallelism").value_or(1);
  // The job controller never runs more pods than completions remain.
  if (auto completions = field("completions")) n = std::min(n, *completions);
  return n;
}

void SetString(cJSON* obj, const char* key, const std::string& value) {
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  cJSON_AddStringToObject(obj, key, value.c_str());
}

}  // namespace

bool IsWorkload(std::string_view kind) {
  return kind == "Deployment" || kind == "ReplicaSet" || kind == "StatefulSet" || kind == "Job";
}

cJSON* PodTemplate(const InputObject& w) {
  Loc loc = w.loc.Key("spec").Key("template");
  cJSON* tmpl = OptObject(Member(Member(w.json, "spec"), "template"), loc);
  if (tmpl == nullptr) throw InputError(loc, "missing; a " + w.kind + " needs a pod template");
  if (OptObject(Member(tmpl, "spec"), loc.Key("spec")) == nullptr) {
    throw InputError(loc.Key("spec"), "missing");
  }
  return tmpl;
}

std::vector<JsonPtr> ExpandWorkload(const InputObject& w, const std::string& ns,
                                    const std::string& name) {
  cJSON* tmpl = PodTemplate(w);
  Loc meta_loc = w.loc.Key("spec").Key("template").Key("metadata");
  cJSON* meta = OptObject(Member(tmpl, "metadata"), meta_loc);
  cJSON* labels = OptObject(Member(meta, "labels"), meta_loc.Key("labels"));
  cJSON* annotations = OptObject(Member(meta, "annotations"), meta_loc.Key("annotations"));
  cJSON* created = Member(Member(w.json, "metadata"), "creationTimestamp");
  std::string hash = w.kind == "Deployment" ? TemplateHash(Print(tmpl)) : "";

  int64_t n = Count(w);
  std::vector<JsonPtr> pods;
  pods.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    JsonPtr pod(cJSON_CreateObject());
    cJSON_AddStringToObject(pod.get(), "apiVersion", "v1");
    cJSON_AddStringToObject(pod.get(), "kind", "Pod");
    cJSON* m = cJSON_AddObjectToObject(pod.get(), "metadata");
    cJSON* l = labels != nullptr ? cJSON_Duplicate(labels, true) : cJSON_CreateObject();
    std::string pod_name;
    std::string index = std::to_string(i);
    if (w.kind == "StatefulSet") {
      pod_name = name + "-" + index;
      SetString(l, "statefulset.kubernetes.io/pod-name", pod_name);
      SetString(l, "apps.kubernetes.io/pod-index", index);
    } else if (w.kind == "Deployment") {
      std::string rs = name + "-" + hash;
      pod_name = rs + "-" + NameSuffix(rs, static_cast<uint64_t>(i));
      SetString(l, "pod-template-hash", hash);
    } else {
      pod_name = name + "-" + NameSuffix(name, static_cast<uint64_t>(i));
      if (w.kind == "Job") {
        SetString(l, "batch.kubernetes.io/job-name", name);
        SetString(l, "job-name", name);
      }
    }
    cJSON_AddStringToObject(m, "name", pod_name.c_str());
    cJSON_AddStringToObject(m, "namespace", ns.c_str());
    cJSON_AddItemToObject(m, "labels", l);
    if (annotations != nullptr) cJSON_AddItemReferenceToObject(m, "annotations", annotations);
    if (created != nullptr) cJSON_AddItemReferenceToObject(m, "creationTimestamp", created);
    cJSON_AddItemReferenceToObject(pod.get(), "spec", Member(tmpl, "spec"));
    pods.push_back(std::move(pod));
  }
  return pods;
}

}  // namespace schedsim
