// core/v1 Service and ReplicationController, apps/v1 ReplicaSet and
// StatefulSet -> Workload: the namespace, name and spec.selector that
// helper.DefaultSelector reads for the default topology spread constraints.
#include <memory>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"

namespace sched::capi {

ApiStatus DecodeWorkload(const cJSON* obj, const JsonPath& path, WorkloadKind kind, Interner& in,
                         std::shared_ptr<const Workload>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto w = std::make_shared<Workload>();
  w->kind = kind;
  const cJSON* meta;
  std::string_view name, ns;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  CAPI_RETURN_IF_ERROR(GetString(meta, "namespace", path.Child("metadata"), &ns));
  w->name = name;
  w->ns = ns.empty() ? "default" : ns;

  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  const cJSON* selector = nullptr;
  const JsonPath sp = path.Child("spec");
  if (spec != nullptr) CAPI_RETURN_IF_ERROR(GetObject(spec, "selector", sp, &selector));
  if (selector != nullptr) {
    const JsonPath p = sp.Child("selector");
    if (kind == WorkloadKind::kService || kind == WorkloadKind::kReplicationController) {
      CAPI_RETURN_IF_ERROR(DecodeLabels(selector, p, in, &w->match_labels.emplace()));
    } else {
      CAPI_RETURN_IF_ERROR(DecodeLabelSelector(selector, p, in, &w->selector.emplace()));
    }
  }
  w->atoms = atoms.Finish();
  *out = std::move(w);
  return ApiStatus();
}

}  // namespace sched::capi
