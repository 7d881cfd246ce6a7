// spec.topologySpreadConstraints and metadata.ownerReferences of a Pod
// (what PodTopologySpread reads), and the constraint fields shared with
// PodTopologySpreadArgs.defaultConstraints. Validation follows the API
// server's ValidateTopologySpreadConstraints
// (pkg/apis/core/validation/validation.go), which also covers what
// ValidatePodTopologySpreadArgs checks.
#include <optional>
#include <string>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/label_syntax.h"

namespace sched::capi {
namespace {

ApiStatus DecodePolicy(const cJSON* v, const char* name, const JsonPath& path,
                       NodeInclusionPolicy* out) {
  std::string_view s;
  CAPI_RETURN_IF_ERROR(GetString(v, name, path, &s));
  if (s.empty()) return ApiStatus();  // nil: the default
  if (s != "Honor" && s != "Ignore") return Unsupported(path.Child(name), s, {"Honor", "Ignore"});
  *out = s == "Honor" ? NodeInclusionPolicy::kHonor : NodeInclusionPolicy::kIgnore;
  return ApiStatus();
}

ApiStatus NotPositive(const JsonPath& path, int64_t v) {
  return ApiStatus::Invalid(path,
                            "Invalid value: " + std::to_string(v) + ": must be greater than zero");
}

// applyLabelKeysToLabelSelector with In: `key In (value)` for each key the
// pod has a label for. A nil selector stays nil (it matches no pod).
ApiStatus MergeMatchLabelKeys(const cJSON* v, const JsonPath& path, Interner& in,
                              const LabelSet& pod_labels, TopologySpreadConstraint* c) {
  return ForEachElement(v, "matchLabelKeys", path, [&](const cJSON* e, const JsonPath& p) {
    std::string_view key;
    CAPI_RETURN_IF_ERROR(AsString(e, p, &key));
    if (!IsQualifiedName(key)) return ApiStatus::Invalid(p, "Invalid value: not a label key");
    const std::optional<Atom> value = pod_labels.Get(in.Intern(key));
    if (!value || !c->selector) return ApiStatus();
    Requirement& r = c->selector->requirements.emplace_back();
    r.key = in.Intern(key);
    r.values = {*value};
    return ApiStatus();
  });
}

}  // namespace

ApiStatus DecodeSpreadConstraintFields(const cJSON* v, const JsonPath& path,
                                       PodTopologySpreadArgs::Constraint* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  const cJSON* max_skew;
  CAPI_RETURN_IF_ERROR(Member(v, "maxSkew", path, &max_skew));
  int64_t skew = 0;
  if (max_skew != nullptr) {
    CAPI_RETURN_IF_ERROR(AsInt(max_skew, path.Child("maxSkew"), INT32_MIN, INT32_MAX, &skew));
  }
  if (skew <= 0) return NotPositive(path.Child("maxSkew"), skew);
  out->max_skew = static_cast<int32_t>(skew);

  std::string_view key, when;
  CAPI_RETURN_IF_ERROR(GetString(v, "topologyKey", path, &key));
  if (key.empty()) return Required(path.Child("topologyKey"));
  if (!IsQualifiedName(key)) {
    return ApiStatus::Invalid(path.Child("topologyKey"), "Invalid value: not a label key");
  }
  out->topology_key = key;
  CAPI_RETURN_IF_ERROR(GetString(v, "whenUnsatisfiable", path, &when));
  if (when.empty()) return Required(path.Child("whenUnsatisfiable"));
  if (when != "DoNotSchedule" && when != "ScheduleAnyway") {
    return Unsupported(path.Child("whenUnsatisfiable"), when, {"DoNotSchedule", "ScheduleAnyway"});
  }
  out->do_not_schedule = when == "DoNotSchedule";

  const cJSON* min_domains;
  CAPI_RETURN_IF_ERROR(Member(v, "minDomains", path, &min_domains));
  if (min_domains != nullptr) {
    const JsonPath p = path.Child("minDomains");
    int64_t m;
    CAPI_RETURN_IF_ERROR(AsInt(min_domains, p, INT32_MIN, INT32_MAX, &m));
    if (m <= 0) return NotPositive(p, m);
    if (!out->do_not_schedule) {
      return ApiStatus::Invalid(
          p, "Invalid value: " + std::to_string(m) +
                 ": can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway");
    }
    out->min_domains = static_cast<int32_t>(m);
  }
  CAPI_RETURN_IF_ERROR(DecodePolicy(v, "nodeAffinityPolicy", path, &out->node_affinity_policy));
  return DecodePolicy(v, "nodeTaintsPolicy", path, &out->node_taints_policy);
}

ApiStatus DecodeTopologySpreadConstraints(const cJSON* constraints, const JsonPath& path,
                                          Interner& in, Pod* pod) {
  return ForEachItem(
      constraints, path, [&](const cJSON* v, const JsonPath& p) {
        PodTopologySpreadArgs::Constraint f;
        CAPI_RETURN_IF_ERROR(DecodeSpreadConstraintFields(v, p, &f));
        TopologySpreadConstraint& c = pod->topology_spread_constraints.emplace_back();
        c.max_skew = f.max_skew;
        c.topology_key = in.Intern(f.topology_key);
        c.do_not_schedule = f.do_not_schedule;
        c.min_domains = f.min_domains;
        c.node_affinity_policy = f.node_affinity_policy;
        c.node_taints_policy = f.node_taints_policy;
        const cJSON* selector;
        CAPI_RETURN_IF_ERROR(GetObject(v, "labelSelector", p, &selector));
        if (selector != nullptr) {
          const JsonPath sp = p.Child("labelSelector");
          CAPI_RETURN_IF_ERROR(DecodeLabelSelector(selector, sp, in, &c.selector.emplace()));
          // The API server rejects such a pod; upstream's plugin would fail.
          if (!c.selector->valid) return ApiStatus::Invalid(sp, "Invalid value: invalid selector");
        }
        return MergeMatchLabelKeys(v, p, in, pod->labels, &c);
      });
}

ApiStatus DecodeControllerRef(const cJSON* refs, const JsonPath& path, Pod* pod) {
  bool found = false;
  return ForEachItem(refs, path, [&](const cJSON* v, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(v, p));
    std::string_view api_version, kind, name, uid;
    bool controller = false;
    CAPI_RETURN_IF_ERROR(GetString(v, "apiVersion", p, &api_version));
    CAPI_RETURN_IF_ERROR(GetString(v, "kind", p, &kind));
    CAPI_RETURN_IF_ERROR(GetString(v, "name", p, &name));
    CAPI_RETURN_IF_ERROR(GetString(v, "uid", p, &uid));
    CAPI_RETURN_IF_ERROR(GetBool(v, "controller", p, &controller));
    if (!controller || found) return ApiStatus();  // GetControllerOf: the first one
    found = true;
    pod->controller_ref_kind = kind;
    pod->controller_uid = uid;
    // schema.ParseGroupVersion: "v1" is the core group; "/v1" parses the same.
    const bool core_v1 = api_version == "v1" || api_version == "/v1";
    if (core_v1 && kind == "ReplicationController") {
      pod->controller_kind = ControllerKind::kReplicationController;
    } else if (api_version == "apps/v1" && kind == "ReplicaSet") {
      pod->controller_kind = ControllerKind::kReplicaSet;
    } else if (api_version == "apps/v1" && kind == "StatefulSet") {
      pod->controller_kind = ControllerKind::kStatefulSet;
    } else {
      return ApiStatus();
    }
    pod->controller_name = name;
    return ApiStatus();
  });
}

}  // namespace sched::capi
