// policy/v1 PodDisruptionBudget -> PodDisruptionBudget: what preemption
// reads (defaultpreemption filterPodsWithPDBViolation): namespace,
// spec.selector, status.disruptionsAllowed, status.disruptedPods.
#include <algorithm>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"

namespace sched::capi {

ApiStatus DecodePdb(const cJSON* obj, const JsonPath& path, Interner& in,
                    std::shared_ptr<const PodDisruptionBudget>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto pdb = std::make_shared<PodDisruptionBudget>();
  const cJSON* meta;
  std::string_view name, ns;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  CAPI_RETURN_IF_ERROR(GetString(meta, "namespace", path.Child("metadata"), &ns));
  pdb->name = name;
  pdb->ns = ns.empty() ? "default" : ns;

  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    const JsonPath sp = path.Child("spec");
    const cJSON* selector;
    CAPI_RETURN_IF_ERROR(GetObject(spec, "selector", sp, &selector));
    if (selector != nullptr) {
      CAPI_RETURN_IF_ERROR(
          DecodeLabelSelector(selector, sp.Child("selector"), in, &pdb->selector.emplace()));
    }
  }

  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status != nullptr) {
    const JsonPath stp = path.Child("status");
    CAPI_RETURN_IF_ERROR(
        GetInt32(status, "disruptionsAllowed", stp, &pdb->disruptions_allowed));
    const cJSON* disrupted;
    CAPI_RETURN_IF_ERROR(GetObject(status, "disruptedPods", stp, &disrupted));
    if (disrupted != nullptr) {
      CAPI_RETURN_IF_ERROR(CheckUniqueKeys(disrupted, stp.Child("disruptedPods")));
      for (const cJSON* e = disrupted->child; e != nullptr; e = e->next) {
        pdb->disrupted_pods.emplace_back(e->string);
      }
      std::sort(pdb->disrupted_pods.begin(), pdb->disrupted_pods.end());
    }
  }
  pdb->atoms = atoms.Finish();
  *out = std::move(pdb);
  return ApiStatus();
}

}  // namespace sched::capi
