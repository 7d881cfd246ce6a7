// core/v1 Namespace -> Namespace: the name and labels namespaceSelector of
// pod (anti-)affinity terms reads (interpodaffinity/plugin.go).
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"

namespace sched::capi {

ApiStatus DecodeNamespace(const cJSON* obj, const JsonPath& path, Interner& in,
                          std::shared_ptr<const Namespace>* out) {
  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  AtomRecorder atoms(in);
  auto ns = std::make_shared<Namespace>();
  ns->name = name;
  ns->name_atom = in.Intern(name);
  const cJSON* labels;
  CAPI_RETURN_IF_ERROR(Member(meta, "labels", path.Child("metadata"), &labels));
  CAPI_RETURN_IF_ERROR(
      DecodeLabels(labels, path.Child("metadata").Child("labels"), in, &ns->labels));
  ns->atoms = atoms.Finish();
  *out = std::move(ns);
  return ApiStatus();
}

}  // namespace sched::capi
