#include "claims.h"

#include "names.h"
#include "workloads.h"

namespace schedsim {
namespace {

// resourceapi.PodResourceClaimAnnotation.
constexpr const char* kPodClaimName = "resource.kubernetes.io/pod-claim-name";

std::string StringOr(const cJSON* v, const std::string& fallback) {
  return cJSON_IsString(v) && *v->valuestring ? v->valuestring : fallback;
}

// The generateName handleClaim gives the claim of pod claim `claim`.
std::string GenerateName(const std::string& pod, const std::string& claim) {
  std::string name = pod + "-" + claim + "-";
  constexpr size_t kMaxBaseLen = 57;  // room for 5 random characters in 63
  if (name.size() > kMaxBaseLen) {
    const size_t len = name.size();
    name = pod.substr(0, pod.size() * kMaxBaseLen / len) + "-" +
           claim.substr(0, claim.size() * kMaxBaseLen / len);
  }
  return name;
}

// The status entry of pod claim `name`, or null.
const cJSON* StatusEntry(const cJSON* statuses, const std::string& name) {
  for (const cJSON* s = cJSON_IsArray(statuses) ? statuses->child : nullptr; s; s = s->next) {
    if (StringOr(Member(s, "name"), "") == name) return s;
  }
  return nullptr;
}

}  // namespace

void ClaimController::Add(const InputObject& obj) {
  const cJSON* meta = Member(obj.json, "metadata");
  const std::string ns = StringOr(Member(meta, "namespace"), "default");
  const std::string name = StringOr(Member(meta, "name"), "");
  if (obj.kind == "ResourceClaimTemplate") {
    if (!name.empty()) templates_[ns + "/" + name] = obj.json;
    return;
  }
  if (obj.kind != "ResourceClaim" || name.empty()) return;
  const std::string pod_claim = StringOr(Member(Member(meta, "annotations"), kPodClaimName), "");
  const cJSON* refs = Member(meta, "ownerReferences");
  for (const cJSON* r = cJSON_IsArray(refs) ? refs->child : nullptr; r; r = r->next) {
    if (!cJSON_IsTrue(Member(r, "controller"))) continue;
    if (StringOr(Member(r, "kind"), "") == "Pod" && !pod_claim.empty()) {
      owned_[ns + "/" + StringOr(Member(r, "uid"), "") + "/" + pod_claim] = name;
    }
    return;  // GetControllerOf: the first controller
  }
}

std::vector<JsonPtr> ClaimController::ForPod(cJSON* pod, const Loc& loc, Diagnostics& diag) {
  std::vector<JsonPtr> out;
  const cJSON* claims = Member(Member(pod, "spec"), "resourceClaims");
  if (!cJSON_IsArray(claims)) return out;
  cJSON* meta = WritableObject(pod, "metadata");
  const std::string ns = StringOr(Member(meta, "namespace"), "default");
  const std::string pod_name = StringOr(Member(meta, "name"), "");
  for (const cJSON* rc = claims->child; rc != nullptr; rc = rc->next) {
    const std::string tmpl = StringOr(Member(rc, "resourceClaimTemplateName"), "");
    const std::string claim_name = StringOr(Member(rc, "name"), "");
    if (tmpl.empty() || claim_name.empty()) continue;
    if (StatusEntry(Member(Member(pod, "status"), "resourceClaimStatuses"), claim_name)) continue;
    std::string uid = StringOr(Member(meta, "uid"), "");
    if (uid.empty()) {
      uid = "schedsim/Pod/" + ns + "/" + pod_name;
      SetString(meta, "uid", uid);
    }
    std::string name;
    if (auto it = owned_.find(ns + "/" + uid + "/" + claim_name); it != owned_.end()) {
      name = it->second;
    } else {
      auto t = templates_.find(ns + "/" + tmpl);
      if (t == templates_.end()) {
        diag.Warn(loc.Key("spec").Key("resourceClaims"),
                  "ResourceClaimTemplate \"" + ns + "/" + tmpl +
                      "\" is not in the input: the claim is not created and the pod waits");
        continue;
      }
      const cJSON* tspec = Member(t->second, "spec");
      const std::string gen = GenerateName(pod_name, claim_name);
      name = gen + NameSuffix(gen, generated_[ns + "/" + gen]++);
      JsonPtr claim(cJSON_CreateObject());
      cJSON_AddStringToObject(claim.get(), "apiVersion", "resource.k8s.io/v1");
      cJSON_AddStringToObject(claim.get(), "kind", "ResourceClaim");
      cJSON* m = cJSON_AddObjectToObject(claim.get(), "metadata");
      cJSON_AddStringToObject(m, "name", name.c_str());
      cJSON_AddStringToObject(m, "generateName", gen.c_str());
      cJSON_AddStringToObject(m, "namespace", ns.c_str());
      cJSON_AddStringToObject(m, "uid", ("schedsim/ResourceClaim/" + ns + "/" + name).c_str());
      const cJSON* tmeta = Member(tspec, "metadata");
      if (const cJSON* labels = Member(tmeta, "labels")) {
        cJSON_AddItemToObject(m, "labels", cJSON_Duplicate(labels, true));
      }
      const cJSON* annotations = Member(tmeta, "annotations");
      cJSON* a =
          cJSON_IsObject(annotations) ? cJSON_Duplicate(annotations, true) : cJSON_CreateObject();
      cJSON_DeleteItemFromObjectCaseSensitive(a, kPodClaimName);
      cJSON_AddStringToObject(a, kPodClaimName, claim_name.c_str());
      cJSON_AddItemToObject(m, "annotations", a);
      cJSON_AddItemToArray(cJSON_AddArrayToObject(m, "ownerReferences"),
                           ControllerRef("v1", "Pod", ns, pod_name, meta));
      const cJSON* spec = Member(tspec, "spec");
      cJSON_AddItemToObject(claim.get(), "spec",
                            spec ? cJSON_Duplicate(spec, true) : cJSON_CreateObject());
      out.push_back(std::move(claim));
    }
    cJSON* statuses = WritableArray(WritableObject(pod, "status"), "resourceClaimStatuses");
    cJSON* entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "name", claim_name.c_str());
    cJSON_AddStringToObject(entry, "resourceClaimName", name.c_str());
    cJSON_AddItemToArray(statuses, entry);
  }
  return out;
}

}  // namespace schedsim
