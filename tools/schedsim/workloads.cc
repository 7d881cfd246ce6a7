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

// The Deployment's ReplicaSet as the deployment controller makes it, as far
// as the engine reads it.
JsonPtr ReplicaSet(const InputObject& d, const std::string& ns, const std::string& name,
                   const std::string& hash, const cJSON* labels) {
  JsonPtr rs(cJSON_CreateObject());
  cJSON_AddStringToObject(rs.get(), "apiVersion", "apps/v1");
  cJSON_AddStringToObject(rs.get(), "kind", "ReplicaSet");
  cJSON* m = cJSON_AddObjectToObject(rs.get(), "metadata");
  cJSON_AddStringToObject(m, "name", name.c_str());
  cJSON_AddStringToObject(m, "namespace", ns.c_str());
  const cJSON* uid = Member(Member(d.json, "metadata"), "uid");
  if (cJSON_IsString(uid)) {
    cJSON_AddStringToObject(m, "uid", (std::string(uid->valuestring) + "-" + hash).c_str());
  }
  cJSON* spec = cJSON_AddObjectToObject(rs.get(), "spec");
  const cJSON* selector = Member(Member(d.json, "spec"), "selector");
  cJSON* sel = cJSON_IsObject(selector) ? cJSON_Duplicate(selector, true) : cJSON_CreateObject();
  cJSON_AddItemToObject(spec, "selector", sel);
  cJSON* match = Member(sel, "matchLabels");
  if (match == nullptr) {
    // No selector: the template's labels (what extensions/v1beta1 defaulted).
    cJSON_DeleteItemFromObjectCaseSensitive(sel, "matchLabels");
    match = labels != nullptr ? cJSON_Duplicate(labels, true) : cJSON_CreateObject();
    cJSON_AddItemToObject(sel, "matchLabels", match);
  }
  // The deployment controller adds the hash to the ReplicaSet's selector.
  SetString(match, "pod-template-hash", hash);
  return rs;
}

// The StatefulSet controller's claims for ordinal `i`
// (getPersistentVolumeClaims: each template named
// <template>-<set>-<ordinal>, labelled with the set's matchLabels) and the
// pod volumes that use them (updateStorage: a volume of the template's name
// is replaced).
void AddClaims(const InputObject& set, const std::string& ns, const std::string& name, int64_t i,
               const cJSON* templates, cJSON* spec, std::vector<JsonPtr>& claims) {
  cJSON* volumes = WritableArray(spec, "volumes");
  const cJSON* match = Member(Member(Member(set.json, "spec"), "selector"), "matchLabels");
  for (const cJSON* t = templates->child; t != nullptr; t = t->next) {
    const cJSON* tname = Member(Member(t, "metadata"), "name");
    if (!cJSON_IsString(tname)) continue;  // the API server requires it
    const std::string claim =
        std::string(tname->valuestring) + "-" + name + "-" + std::to_string(i);
    JsonPtr pvc(cJSON_Duplicate(t, true));
    cJSON_DeleteItemFromObjectCaseSensitive(pvc.get(), "apiVersion");
    cJSON_DeleteItemFromObjectCaseSensitive(pvc.get(), "kind");
    cJSON_AddStringToObject(pvc.get(), "apiVersion", "v1");
    cJSON_AddStringToObject(pvc.get(), "kind", "PersistentVolumeClaim");
    cJSON* m = Member(pvc.get(), "metadata");
    SetString(m, "name", claim);
    SetString(m, "namespace", ns);
    if (cJSON_IsObject(match)) {
      cJSON* l = WritableObject(m, "labels");
      for (const cJSON* kv = match->child; kv != nullptr; kv = kv->next) {
        if (cJSON_IsString(kv)) SetString(l, kv->string, kv->valuestring);
      }
    }
    cJSON_DeleteItemFromObjectCaseSensitive(pvc.get(), "status");
    claims.push_back(std::move(pvc));
    for (int k = cJSON_GetArraySize(volumes) - 1; k >= 0; --k) {
      const cJSON* vname = Member(cJSON_GetArrayItem(volumes, k), "name");
      if (cJSON_IsString(vname) && vname->valuestring == std::string(tname->valuestring)) {
        cJSON_DeleteItemFromArray(volumes, k);
      }
    }
    cJSON* v = cJSON_CreateObject();
    cJSON_AddStringToObject(v, "name", tname->valuestring);
    cJSON_AddStringToObject(cJSON_AddObjectToObject(v, "persistentVolumeClaim"), "claimName",
                            claim.c_str());
    cJSON_AddItemToArray(volumes, v);
  }
}

}  // namespace

cJSON* ControllerRef(const char* api_version, const std::string& kind, const std::string& ns,
                     const std::string& name, const cJSON* meta) {
  cJSON* ref = cJSON_CreateObject();
  cJSON_AddStringToObject(ref, "apiVersion", api_version);
  cJSON_AddStringToObject(ref, "kind", kind.c_str());
  cJSON_AddStringToObject(ref, "name", name.c_str());
  const cJSON* uid = Member(meta, "uid");
  std::string u =
      cJSON_IsString(uid) ? uid->valuestring : "schedsim/" + kind + "/" + ns + "/" + name;
  cJSON_AddStringToObject(ref, "uid", u.c_str());
  cJSON_AddBoolToObject(ref, "controller", true);
  return ref;
}

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

Expansion ExpandWorkload(const InputObject& w, const std::string& ns, const std::string& name,
                         const Owned& owned) {
  cJSON* tmpl = PodTemplate(w);
  Loc meta_loc = w.loc.Key("spec").Key("template").Key("metadata");
  cJSON* meta = OptObject(Member(tmpl, "metadata"), meta_loc);
  cJSON* labels = OptObject(Member(meta, "labels"), meta_loc.Key("labels"));
  cJSON* annotations = OptObject(Member(meta, "annotations"), meta_loc.Key("annotations"));
  cJSON* created = Member(Member(w.json, "metadata"), "creationTimestamp");
  std::string hash = w.kind == "Deployment" ? TemplateHash(Print(tmpl)) : "";

  Expansion e;
  std::string owner_kind = w.kind, owner_name = name;
  const cJSON* owner_meta = Member(w.json, "metadata");
  if (w.kind == "Deployment") {
    owner_kind = "ReplicaSet";
    owner_name = name + "-" + hash;
    e.replica_set = ReplicaSet(w, ns, owner_name, hash, labels);
    owner_meta = Member(e.replica_set.get(), "metadata");
  }
  const char* owner_api = w.kind == "Job" ? "batch/v1" : "apps/v1";

  const int64_t n = Count(w);
  // A StatefulSet's missing ordinals are named, other controllers' pods are
  // counted.
  const int64_t make = w.kind == "StatefulSet" ? n : std::max<int64_t>(n - owned.count, 0);
  std::vector<JsonPtr>& pods = e.pods;
  pods.reserve(static_cast<size_t>(make));
  for (int64_t i = 0; i < make; ++i) {
    if (w.kind == "StatefulSet" && owned.names.contains(name + "-" + std::to_string(i))) continue;
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
    cJSON_AddItemToArray(cJSON_AddArrayToObject(m, "ownerReferences"),
                         ControllerRef(owner_api, owner_kind, ns, owner_name, owner_meta));
    const cJSON* claims = Member(Member(w.json, "spec"), "volumeClaimTemplates");
    if (w.kind == "StatefulSet" && cJSON_GetArraySize(claims) > 0) {
      cJSON* spec = cJSON_Duplicate(Member(tmpl, "spec"), true);
      AddClaims(w, ns, name, i, claims, spec, e.claims);
      cJSON_AddItemToObject(pod.get(), "spec", spec);
    } else {
      cJSON_AddItemReferenceToObject(pod.get(), "spec", Member(tmpl, "spec"));
    }
    pods.push_back(std::move(pod));
  }
  return e;
}

}  // namespace schedsim
