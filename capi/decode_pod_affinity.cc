// spec.affinity.podAffinity / podAntiAffinity -> PodAffinityTerms, as
// framework.PodInfo processes them (fwk.GetAffinityTerms, newAffinityTerm,
// metav1.LabelSelectorAsSelector), after the API server's
// matchLabelKeys / mismatchLabelKeys merge (pkg/registry/core/pod/strategy.go
// mutatePodAffinity, MatchLabelKeysInPodAffinity GA in v1.33).
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/label_syntax.h"

namespace sched::capi {
namespace {

constexpr const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
constexpr const char* kPreferred = "preferredDuringSchedulingIgnoredDuringExecution";

// applyLabelKeysToLabelSelector: `key op (pod's value)` for each key the
// pod has a label for.
void MergeLabelKeys(const std::vector<Atom>& keys, SelectorOp op, const LabelSet& pod_labels,
                    LabelSelector* selector) {
  for (Atom key : keys) {
    const std::optional<Atom> value = pod_labels.Get(key);
    if (!value) continue;
    Requirement r;
    r.key = key;
    r.op = op;
    r.values = {*value};
    selector->requirements.push_back(std::move(r));
  }
}

ApiStatus DecodeKeys(const cJSON* v, const char* name, const JsonPath& path, Interner& in,
                     std::vector<Atom>* out) {
  return ForEachElement(v, name, path, [&](const cJSON* s, const JsonPath& p) {
    std::string_view key;
    CAPI_RETURN_IF_ERROR(AsString(s, p, &key));
    out->push_back(in.Intern(key));
    return ApiStatus();
  });
}

// One v1.PodAffinityTerm (newAffinityTerm). *invalid is set when a
// selector would not convert.
ApiStatus DecodeAffinityTerm(const cJSON* v, const JsonPath& path, Interner& in, const Pod& pod,
                             AffinityTerm* out, bool* invalid) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view topology_key;
  CAPI_RETURN_IF_ERROR(GetString(v, "topologyKey", path, &topology_key));
  out->topology_key = in.Intern(topology_key);

  const cJSON* selector;
  CAPI_RETURN_IF_ERROR(Member(v, "labelSelector", path, &selector));
  if (selector != nullptr) {
    CAPI_RETURN_IF_ERROR(
        DecodeLabelSelector(selector, path.Child("labelSelector"), in, &out->selector.emplace()));
  }
  std::vector<Atom> match_keys, mismatch_keys;
  CAPI_RETURN_IF_ERROR(DecodeKeys(v, "matchLabelKeys", path, in, &match_keys));
  CAPI_RETURN_IF_ERROR(DecodeKeys(v, "mismatchLabelKeys", path, in, &mismatch_keys));
  if (out->selector) {  // a nil selector matches nothing and stays so
    MergeLabelKeys(match_keys, SelectorOp::kIn, pod.labels, &*out->selector);
    MergeLabelKeys(mismatch_keys, SelectorOp::kNotIn, pod.labels, &*out->selector);
  }

  const cJSON* ns_selector;
  CAPI_RETURN_IF_ERROR(Member(v, "namespaceSelector", path, &ns_selector));
  if (ns_selector != nullptr) {
    CAPI_RETURN_IF_ERROR(DecodeLabelSelector(ns_selector, path.Child("namespaceSelector"), in,
                                             &out->namespace_selector.emplace()));
  }
  CAPI_RETURN_IF_ERROR(DecodeKeys(v, "namespaces", path, in, &out->namespaces));
  if (out->namespaces.empty() && !out->namespace_selector) {
    out->namespaces.push_back(pod.ns_atom);  // getNamespacesFromPodAffinityTerm
  }
  std::sort(out->namespaces.begin(), out->namespaces.end());
  out->namespaces.erase(std::unique(out->namespaces.begin(), out->namespaces.end()),
                        out->namespaces.end());
  *invalid = (out->selector && !out->selector->valid) ||
             (out->namespace_selector && !out->namespace_selector->valid);
  return ApiStatus();
}

// Decodes one term list. Like GetAffinityTerms, the first term that fails
// to parse empties the list and is reported in `errors` under `list_name`.
template <class Term, class DecodeOne>
ApiStatus DecodeTermList(const cJSON* parent, const char* member, const JsonPath& path,
                         std::string_view list_name, std::vector<Term>* out,
                         std::vector<std::string>* errors, DecodeOne&& decode_one) {
  std::optional<size_t> bad;
  size_t i = 0;
  CAPI_RETURN_IF_ERROR(
      ForEachElement(parent, member, path, [&](const cJSON* t, const JsonPath& p) {
        bool invalid = false;
        CAPI_RETURN_IF_ERROR(decode_one(t, p, &out->emplace_back(), &invalid));
        if (invalid && !bad) bad = i;
        ++i;
        return ApiStatus();
      }));
  if (bad) {
    out->clear();
    errors->push_back(std::string(list_name) + ": term " + std::to_string(*bad) +
                      ": invalid label selector");
  }
  return ApiStatus();
}

// podAffinity (anti = false) or podAntiAffinity; parse failures of its
// required and preferred lists go to the matching error list.
ApiStatus DecodeOneKind(const cJSON* affinity, bool anti, const JsonPath& path, Interner& in,
                        Pod* pod, std::vector<std::string>* required_errors,
                        std::vector<std::string>* preferred_errors) {
  const char* member = anti ? "podAntiAffinity" : "podAffinity";
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(GetObject(affinity, member, path, &v));
  if (v == nullptr) return ApiStatus();
  const JsonPath kp = path.Child(member);
  PodAffinityTerms& terms = pod->pod_affinity;
  terms.has_pod_affinity = true;

  auto required = [&](const cJSON* t, const JsonPath& p, AffinityTerm* out, bool* invalid) {
    return DecodeAffinityTerm(t, p, in, *pod, out, invalid);
  };
  auto preferred = [&](const cJSON* t, const JsonPath& p, WeightedAffinityTerm* out,
                       bool* invalid) {
    CAPI_RETURN_IF_ERROR(AsObject(t, p));
    CAPI_RETURN_IF_ERROR(GetInt32(t, "weight", p, &out->weight));
    const cJSON* term;
    CAPI_RETURN_IF_ERROR(GetObject(t, "podAffinityTerm", p, &term));
    if (term == nullptr) return Required(p.Child("podAffinityTerm"));
    return DecodeAffinityTerm(term, p.Child("podAffinityTerm"), in, *pod, &out->term, invalid);
  };
  auto& req_out = anti ? terms.required_anti_affinity : terms.required_affinity;
  CAPI_RETURN_IF_ERROR(DecodeTermList(
      v, kRequired, kp, anti ? "requiredAntiAffinityTerms" : "requiredAffinityTerms", &req_out,
      required_errors, required));
  if (anti) {
    const cJSON* list;
    CAPI_RETURN_IF_ERROR(GetArray(v, kRequired, kp, &list));
    terms.has_required_anti_affinity = list != nullptr && list->child != nullptr;
  }
  return DecodeTermList(
      v, kPreferred, kp, anti ? "preferredAntiAffinityTerms" : "preferredAffinityTerms",
      anti ? &terms.preferred_anti_affinity : &terms.preferred_affinity, preferred_errors,
      preferred);
}

}  // namespace

ApiStatus DecodePodAffinity(const cJSON* affinity, const JsonPath& ap, Interner& in, Pod* pod) {
  // Upstream's order: required affinity, required anti-affinity, preferred
  // affinity, preferred anti-affinity.
  std::vector<std::string> errors, preferred_errors;
  CAPI_RETURN_IF_ERROR(DecodeOneKind(affinity, false, ap, in, pod, &errors, &preferred_errors));
  CAPI_RETURN_IF_ERROR(DecodeOneKind(affinity, true, ap, in, pod, &errors, &preferred_errors));
  pod->pod_affinity.required_parse_failed = !errors.empty();
  errors.insert(errors.end(), preferred_errors.begin(), preferred_errors.end());
  // utilerrors.Aggregate: one error reads as itself, several as "[a, b]".
  std::string& msg = pod->pod_affinity.parse_error;
  if (errors.size() == 1) {
    msg = errors[0];
  } else if (errors.size() > 1) {
    msg.assign(1, '[');  // not = "[": GCC 12's -Wrestrict misfires on it at -O3
    for (size_t i = 0; i < errors.size(); ++i) {
      if (i > 0) msg += ", ";
      msg += errors[i];
    }
    msg += ']';
  }
  return ApiStatus();
}

}  // namespace sched::capi
