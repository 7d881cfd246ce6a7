// core/v1 Pod -> Pod: identity, placement constraints, summed requests
// (PodRequests over the containers, with InPlacePodVerticalScaling status),
// host ports and images, as kube-scheduler v1.36 reads them.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/limits.h"
#include "libsched/model/label_syntax.h"
#include "libsched/model/pod_requests.h"
#include "libsched/model/timestamp.h"
#include "libsched/plugins/registry.h"

namespace sched::capi {
namespace {

constexpr std::string_view kDefaultNamespace = "default";
// A static pod's API copy (kubelet's types.ConfigMirrorAnnotationKey).
constexpr const char* kMirrorPodAnnotation = "kubernetes.io/config.mirror";

// imagelocality.normalizedImageName, interned: ":latest" unless a tag (or
// a digest's ':') follows the last '/'. A tagged name is interned as is,
// without a copy.
Atom InternImageName(Interner& in, std::string_view image) {
  const size_t colon = image.rfind(':');
  const size_t slash = image.rfind('/');
  if (colon == std::string_view::npos ||
      (slash != std::string_view::npos && colon < slash)) {
    return in.Intern(std::string(image) + ":latest");
  }
  return in.Intern(image);
}

// One entry of status.containerStatuses / initContainerStatuses, decoded
// whether or not a container reads it, so malformed status is always caught.
struct ContainerStatus {
  std::string_view name;
  bool has_resources = false;  // status.resources is set (cs.Resources != nil)
  ResourceList actuated;       // status.resources.requests
  ResourceList allocated;      // status.allocatedResources
};

// The pod's status as PodRequests and the informers read it.
struct PodStatus {
  bool terminal = false;
  std::string nominated_node_name;  // status.nominatedNodeName
  std::optional<int64_t> start_time;  // status.startTime, Unix nanoseconds
  bool disruption_target_by_scheduler = false;
  bool resize_infeasible = false;  // IsPodResizeInfeasible
  // Later entries win, as upstream's name-keyed map (init statuses last).
  std::vector<ContainerStatus> containers;
  bool has_resources = false;  // status.resources (pod-level) is set
  ResourceList actuated;       // status.resources.requests
  ResourceList allocated;      // status.allocatedResources

  const ContainerStatus* Find(std::string_view name) const {
    for (auto it = containers.rbegin(); it != containers.rend(); ++it) {
      if (it->name == name) return &*it;
    }
    return nullptr;
  }
};

// A ResourceRequirements object's requests (`v` may be null); with `list`,
// also the requests object read (null when none).
ApiStatus DecodeRequests(const cJSON* v, const JsonPath& path, Interner& in,
                         ResourceList* out, const cJSON** list = nullptr) {
  const cJSON* requests = nullptr;
  if (v != nullptr) {
    CAPI_RETURN_IF_ERROR(AsObject(v, path));
    CAPI_RETURN_IF_ERROR(Member(v, "requests", path, &requests));
  }
  if (list != nullptr) *list = requests;
  return DecodeResourceList(requests, path.Child("requests"), in, out);
}

ApiStatus DecodeContainerStatus(const cJSON* v, const JsonPath& path, Interner& in,
                                ContainerStatus* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(GetString(v, "name", path, &out->name));
  const cJSON* resources;
  CAPI_RETURN_IF_ERROR(Member(v, "resources", path, &resources));
  out->has_resources = resources != nullptr;
  CAPI_RETURN_IF_ERROR(DecodeRequests(resources, path.Child("resources"), in, &out->actuated));
  const cJSON* allocated;
  CAPI_RETURN_IF_ERROR(Member(v, "allocatedResources", path, &allocated));
  return DecodeResourceList(allocated, path.Child("allocatedResources"), in, &out->allocated);
}

ApiStatus DecodeStatus(const cJSON* obj, const JsonPath& path, Interner& in, PodStatus* out) {
  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status == nullptr) return ApiStatus();
  const JsonPath sp = path.Child("status");

  std::string_view phase, nominated, start_time;
  CAPI_RETURN_IF_ERROR(GetString(status, "phase", sp, &phase));
  CAPI_RETURN_IF_ERROR(GetString(status, "nominatedNodeName", sp, &nominated));
  CAPI_RETURN_IF_ERROR(GetString(status, "startTime", sp, &start_time));
  out->nominated_node_name = nominated;
  if (!start_time.empty()) {
    out->start_time = ParseRfc3339(start_time);
    if (!out->start_time) {
      return ApiStatus::Invalid(sp.Child("startTime"),
                                "must be an RFC 3339 time like 2024-01-02T15:04:05Z");
    }
  }
  if (phase == "Succeeded" || phase == "Failed") {
    out->terminal = true;
  } else if (!phase.empty() && phase != "Pending" && phase != "Running" && phase != "Unknown") {
    return Unsupported(sp.Child("phase"), phase,
                       {"Failed", "Pending", "Running", "Succeeded", "Unknown"});
  }

  bool seen_resize_condition = false;
  bool seen_disruption_target = false;
  CAPI_RETURN_IF_ERROR(
      ForEachElement(status, "conditions", sp, [&](const cJSON* c, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(c, p));
        std::string_view type, reason, cond_status;
        CAPI_RETURN_IF_ERROR(GetString(c, "type", p, &type));
        CAPI_RETURN_IF_ERROR(GetString(c, "reason", p, &reason));
        CAPI_RETURN_IF_ERROR(GetString(c, "status", p, &cond_status));
        if (type == "PodResizePending" && !seen_resize_condition) {
          seen_resize_condition = true;  // the first one decides
          out->resize_infeasible = reason == "Infeasible";
        }
        if (type == "DisruptionTarget" && !seen_disruption_target) {
          seen_disruption_target = true;  // the first one decides
          out->disruption_target_by_scheduler =
              cond_status == "True" && reason == "PreemptionByScheduler";
        }
        return ApiStatus();
      }));

  auto add_status = [&](const cJSON* c, const JsonPath& p) {
    return DecodeContainerStatus(c, p, in, &out->containers.emplace_back());
  };
  CAPI_RETURN_IF_ERROR(ForEachElement(status, "containerStatuses", sp, add_status));
  CAPI_RETURN_IF_ERROR(ForEachElement(status, "initContainerStatuses", sp, add_status));

  const cJSON* resources;
  CAPI_RETURN_IF_ERROR(Member(status, "resources", sp, &resources));
  out->has_resources = resources != nullptr;
  CAPI_RETURN_IF_ERROR(DecodeRequests(resources, sp.Child("resources"), in, &out->actuated));
  const cJSON* allocated;
  CAPI_RETURN_IF_ERROR(Member(status, "allocatedResources", sp, &allocated));
  return DecodeResourceList(allocated, sp.Child("allocatedResources"), in, &out->allocated);
}

Resource MaxOf(const Resource& a, const Resource& b) {
  Resource r = a;
  r.Max(b);
  return r;
}

// A container's requests per determineEffectiveRequests, in the form
// pod_requests.h expects (see the conventions in pod_requests.cc).
ContainerResources EffectiveRequests(const ResourceList& spec, const ContainerStatus* cs,
                                     bool resize_infeasible) {
  ContainerResources c;
  if (cs == nullptr || !cs->has_resources) {
    c.requests = spec.amounts;
    c.has_cpu = spec.has_cpu;
    c.has_memory = spec.has_memory;
    return c;
  }
  const Resource status = MaxOf(cs->actuated.amounts, cs->allocated.amounts);
  const bool status_cpu = cs->actuated.has_cpu || cs->allocated.has_cpu;
  const bool status_memory = cs->actuated.has_memory || cs->allocated.has_memory;
  if (resize_infeasible) {  // upstream ignores the spec then
    c.requests = status;
    c.has_cpu = status_cpu;
    c.has_memory = status_memory;
  } else {
    c.requests = spec.amounts;
    c.status_requests = status;
    c.has_cpu = spec.has_cpu || status_cpu;
    c.has_memory = spec.has_memory || status_memory;
  }
  return c;
}

// A container's ports: `ports` (an array or null) at `path`.
ApiStatus DecodeHostPorts(const cJSON* ports, const JsonPath& path, std::vector<HostPort>* out) {
  // Found in one walk of each port (ObjectMembers).
  static constexpr std::array<std::string_view, 3> kPortMembers = {"hostPort", "hostIP",
                                                                   "protocol"};
  return ForEachItem(ports, path, [&](const cJSON* v, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(v, p));
    int32_t host_port = 0;
    std::string_view host_ip, protocol;
    const ObjectMembers m(v, kPortMembers);
    CAPI_RETURN_IF_ERROR(m.GetInt32(MemberIndex(kPortMembers, "hostPort"), p, &host_port));
    CAPI_RETURN_IF_ERROR(m.GetString(MemberIndex(kPortMembers, "hostIP"), p, &host_ip));
    CAPI_RETURN_IF_ERROR(m.GetString(MemberIndex(kPortMembers, "protocol"), p, &protocol));
    HostPort hp;
    if (protocol.empty() || protocol == "TCP") {
      hp.protocol = Protocol::kTCP;
    } else if (protocol == "UDP") {
      hp.protocol = Protocol::kUDP;
    } else if (protocol == "SCTP") {
      hp.protocol = Protocol::kSCTP;
    } else {
      return Unsupported(p.Child("protocol"), protocol, {"SCTP", "TCP", "UDP"});
    }
    if (host_port <= 0) return ApiStatus();  // only host ports matter
    hp.port = host_port;
    hp.ip = host_ip.empty() ? "0.0.0.0" : std::string(host_ip);  // HostPortInfo sanitize
    out->push_back(std::move(hp));
    return ApiStatus();
  });
}

// The container's requests of names IsDraExtendedResourceName accepts,
// with their index among all its request names sorted bytewise (as
// createResourceRequestAndMappings sorts them); `list` (or null) and
// `requests` as DecodeRequests read and decoded them.
ApiStatus DecodeExtendedRequests(const cJSON* list, const ResourceList& requests,
                                 Interner& in, int32_t container, bool short_lived, Pod* pod) {
  if (list == nullptr) return ApiStatus();
  // Most containers request none: they need no sorted list of names.
  bool any = false;
  for (const cJSON* e = list->child; e != nullptr && !any; e = e->next) {
    any = IsDraExtendedResourceName(e->string);
  }
  if (!any) return ApiStatus();
  std::vector<std::string_view> names;
  for (const cJSON* e = list->child; e != nullptr; e = e->next) names.emplace_back(e->string);
  std::sort(names.begin(), names.end());
  ContainerExtendedRequests out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!IsDraExtendedResourceName(names[i])) continue;
    const Atom name = in.Pin(names[i]);
    out.entries.push_back({name, requests.amounts.Scalar(name), static_cast<int32_t>(i)});
  }
  if (out.entries.empty()) return ApiStatus();
  out.container = container;
  out.short_lived = short_lived;
  pod->extended_requests.push_back(std::move(out));
  return ApiStatus();
}

// The members of a container that DecodeContainer reads, for ObjectMembers.
constexpr std::array<std::string_view, 5> kContainerMembers = {"name", "image", "restartPolicy",
                                                               "resources", "ports"};
consteval size_t ContainerMember(std::string_view name) {
  return MemberIndex(kContainerMembers, name);
}

// One entry of spec.containers (init = false) or spec.initContainers.
ApiStatus DecodeContainer(const cJSON* v, const JsonPath& path, bool init, Interner& in,
                          const PodStatus& status, Pod* pod, PodResourceSpec* spec) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  const ObjectMembers m(v, kContainerMembers);
  std::string_view name, image, restart_policy;
  CAPI_RETURN_IF_ERROR(m.GetString(ContainerMember("name"), path, &name));
  CAPI_RETURN_IF_ERROR(m.GetString(ContainerMember("image"), path, &image));
  CAPI_RETURN_IF_ERROR(m.GetString(ContainerMember("restartPolicy"), path, &restart_policy));
  if (!restart_policy.empty() && restart_policy != "Always" &&
      restart_policy != "OnFailure" && restart_policy != "Never") {
    return Unsupported(path.Child("restartPolicy"), restart_policy,
                       {"Always", "Never", "OnFailure"});
  }
  // Only an init container's restartPolicy makes a sidecar.
  const bool sidecar = init && restart_policy == "Always";
  // Containers and sidecars run for the pod's lifetime: their host ports
  // and resized (status) requests count; a plain init container's do not.
  const bool long_running = !init || sidecar;

  const cJSON* resources = nullptr;
  CAPI_RETURN_IF_ERROR(m.Get(ContainerMember("resources"), path, &resources));
  ResourceList requests;
  const cJSON* request_list = nullptr;
  CAPI_RETURN_IF_ERROR(
      DecodeRequests(resources, path.Child("resources"), in, &requests, &request_list));
  CAPI_RETURN_IF_ERROR(DecodeExtendedRequests(request_list, requests, in,
                                              pod->num_containers - 1, !long_running, pod));
  ContainerResources c = EffectiveRequests(
      requests, long_running ? status.Find(name) : nullptr, status.resize_infeasible);
  c.restartable = sidecar;
  (init ? spec->init_containers : spec->containers).push_back(std::move(c));

  const cJSON* port_list = nullptr;
  CAPI_RETURN_IF_ERROR(m.GetArray(ContainerMember("ports"), path, &port_list));
  std::vector<HostPort> ports;
  CAPI_RETURN_IF_ERROR(DecodeHostPorts(port_list, path.Child("ports"), &ports));
  if (long_running) {
    pod->host_ports.insert(pod->host_ports.end(), ports.begin(), ports.end());
  }
  pod->images.push_back(InternImageName(in, image));
  return ApiStatus();
}

// spec.resources.requests restricted to what pod-level resources support
// (cpu, memory, hugepages-*), with the pod's resize status applied
// (PodRequests with InPlacePodLevelResourcesVerticalScaling, beta and on
// in v1.36). Unset when no supported name is requested. `resources` is
// spec.resources as Member() gives it, at `path`.
ApiStatus DecodePodLevel(const cJSON* resources, const JsonPath& path, Interner& in,
                         const PodStatus& status, std::optional<Resource>* out) {
  ResourceList requests;
  CAPI_RETURN_IF_ERROR(DecodeRequests(resources, path, in, &requests));
  Resource pod_level;
  if (requests.has_cpu) pod_level.milli_cpu = requests.amounts.milli_cpu;
  if (requests.has_memory) pod_level.memory = requests.amounts.memory;
  for (const auto& [name, v] : requests.amounts.scalar) {
    if (IsHugePageResourceName(in.Str(name))) pod_level.SetScalar(name, v);
  }
  if (!requests.has_cpu && !requests.has_memory && pod_level.scalar.empty()) {
    return ApiStatus();
  }
  if (status.has_resources) {
    Resource effective = MaxOf(status.actuated.amounts, status.allocated.amounts);
    if (!status.resize_infeasible) effective.Max(requests.amounts);
    if (requests.has_cpu) pod_level.milli_cpu = effective.milli_cpu;
    if (requests.has_memory) pod_level.memory = effective.memory;
    for (auto& [name, v] : pod_level.scalar) v = effective.Scalar(name);
  }
  *out = std::move(pod_level);
  return ApiStatus();
}

}  // namespace

// Declared in decode.h: pod affinity label selectors use it too.
ApiStatus DecodeRequirement(const cJSON* v, const JsonPath& path, bool field, Interner& in,
                            Requirement* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view key, op;
  CAPI_RETURN_IF_ERROR(GetString(v, "key", path, &key));
  CAPI_RETURN_IF_ERROR(GetString(v, "operator", path, &op));
  std::vector<std::string_view> values;
  CAPI_RETURN_IF_ERROR(
      ForEachElement(v, "values", path, [&](const cJSON* s, const JsonPath& p) {
        return AsString(s, p, &values.emplace_back());
      }));
  out->key = in.Intern(key);

  bool known_op = true;
  if (op == "In") {
    out->op = SelectorOp::kIn;
  } else if (op == "NotIn") {
    out->op = SelectorOp::kNotIn;
  } else if (op == "Exists") {
    out->op = SelectorOp::kExists;
  } else if (op == "DoesNotExist") {
    out->op = SelectorOp::kDoesNotExist;
  } else if (op == "Gt") {
    out->op = SelectorOp::kGt;
  } else if (op == "Lt") {
    out->op = SelectorOp::kLt;
  } else {
    known_op = false;
  }
  const bool set_op = out->op == SelectorOp::kIn || out->op == SelectorOp::kNotIn;
  const bool numeric_op = out->op == SelectorOp::kGt || out->op == SelectorOp::kLt;

  if (field) {
    // Fields support In / NotIn with one value. The API server also rejects
    // any key but metadata.name (ValidateNodeFieldSelectorRequirement).
    out->valid = known_op && set_op && values.size() == 1 && key == "metadata.name";
  } else {
    bool valid = known_op && IsQualifiedName(key);
    if (set_op) {
      valid = valid && !values.empty();
    } else if (numeric_op) {
      valid = valid && values.size() == 1;
      if (valid) {
        const std::optional<int64_t> n = ParseDecimalInt64(values[0]);
        valid = n.has_value();
        out->number = n.value_or(0);
      }
    } else {
      valid = valid && values.empty();
    }
    for (std::string_view s : values) valid = valid && IsLabelValue(s);
    out->valid = valid;
  }
  if (!numeric_op) {
    for (std::string_view s : values) out->values.push_back(in.Intern(s));
    std::sort(out->values.begin(), out->values.end());
  }
  return ApiStatus();
}

ApiStatus DecodeNodeSelectorTerm(const cJSON* v, const JsonPath& path, Interner& in,
                                 NodeSelectorTerm* out) {
  if (v == nullptr) return ApiStatus();  // an empty term: matches nothing
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  auto add = [&](const char* name, bool field, std::vector<Requirement>* reqs) {
    return ForEachElement(v, name, path, [&](const cJSON* r, const JsonPath& p) {
      Requirement& req = reqs->emplace_back();
      CAPI_RETURN_IF_ERROR(DecodeRequirement(r, p, field, in, &req));
      out->valid = out->valid && req.valid;
      return ApiStatus();
    });
  };
  CAPI_RETURN_IF_ERROR(add("matchExpressions", false, &out->match_expressions));
  return add("matchFields", true, &out->match_fields);
}


// Declared in decode.h: NodeAffinityArgs.addedAffinity uses it too.
ApiStatus DecodeNodeAffinityObject(const cJSON* na, const JsonPath& path, Interner& in,
                                   std::optional<NodeSelector>* required,
                                   std::vector<PreferredSchedulingTerm>* preferred) {
  const char* kRequired = "requiredDuringSchedulingIgnoredDuringExecution";
  const cJSON* req;
  CAPI_RETURN_IF_ERROR(GetObject(na, kRequired, path, &req));
  if (req != nullptr) {
    NodeSelector& selector = required->emplace();
    CAPI_RETURN_IF_ERROR(ForEachElement(
        req, "nodeSelectorTerms", path.Child(kRequired), [&](const cJSON* t, const JsonPath& p) {
          CAPI_RETURN_IF_ERROR(AsObject(t, p));
          return DecodeNodeSelectorTerm(t, p, in, &selector.terms.emplace_back());
        }));
  }
  return ForEachElement(
      na, "preferredDuringSchedulingIgnoredDuringExecution", path,
      [&](const cJSON* t, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(t, p));
        PreferredSchedulingTerm& term = preferred->emplace_back();
        CAPI_RETURN_IF_ERROR(GetInt32(t, "weight", p, &term.weight));
        const cJSON* preference;
        CAPI_RETURN_IF_ERROR(GetObject(t, "preference", p, &preference));
        return DecodeNodeSelectorTerm(preference, p.Child("preference"), in, &term.preference);
      });
}

namespace {

// spec.affinity.nodeAffinity of `affinity` (spec.affinity, an object) at `ap`.
ApiStatus DecodeNodeAffinity(const cJSON* affinity, const JsonPath& ap, Interner& in, Pod* pod) {
  const cJSON* na;
  CAPI_RETURN_IF_ERROR(GetObject(affinity, "nodeAffinity", ap, &na));
  if (na == nullptr) return ApiStatus();
  return DecodeNodeAffinityObject(na, ap.Child("nodeAffinity"), in, &pod->required_node_affinity,
                                  &pod->preferred_node_affinity);
}

// spec.nodeSelector: `selector` (an object) at `sp`.
ApiStatus DecodeNodeSelector(const cJSON* selector, const JsonPath& sp, Interner& in, Pod* pod) {
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(selector, sp));
  for (const cJSON* e = selector->child; e != nullptr; e = e->next) {
    std::string_view value;
    if (!cJSON_IsNull(e)) CAPI_RETURN_IF_ERROR(AsString(e, sp.Child(e->string), &value));
    // The API server validates nodeSelector as labels; the scheduler's
    // labels.SelectorFromSet then takes key = value as is.
    CAPI_RETURN_IF_ERROR(CheckLabelLengths(e->string, value, sp));
    Requirement& r = pod->node_selector.emplace_back();
    r.key = in.Intern(e->string);
    r.op = SelectorOp::kIn;
    r.values = {in.Intern(value)};
  }
  return ApiStatus();
}

ApiStatus DecodeToleration(const cJSON* v, const JsonPath& path, Interner& in,
                           std::vector<Toleration>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view key, op, value, effect;
  CAPI_RETURN_IF_ERROR(GetString(v, "key", path, &key));
  CAPI_RETURN_IF_ERROR(GetString(v, "operator", path, &op));
  CAPI_RETURN_IF_ERROR(GetString(v, "value", path, &value));
  CAPI_RETURN_IF_ERROR(GetString(v, "effect", path, &effect));
  CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(key, path.Child("key")));
  CAPI_RETURN_IF_ERROR(CheckLabelValueLength(value, path.Child("value")));
  Toleration t;
  t.key = key.empty() ? kNoAtom : in.Intern(key);
  t.value = in.Intern(value);
  if (effect.empty()) {
    t.effect = TaintEffect::kNone;
  } else if (effect == "NoSchedule") {
    t.effect = TaintEffect::kNoSchedule;
  } else if (effect == "PreferNoSchedule") {
    t.effect = TaintEffect::kPreferNoSchedule;
  } else if (effect == "NoExecute") {
    t.effect = TaintEffect::kNoExecute;
  } else {
    return Unsupported(path.Child("effect"), effect,
                       {"NoExecute", "NoSchedule", "PreferNoSchedule"});
  }
  if (op.empty() || op == "Equal") {
    t.op = TolerationOp::kEqual;
  } else if (op == "Exists") {
    t.op = TolerationOp::kExists;
  } else if (op == "Lt" || op == "Gt") {
    // TaintTolerationComparisonOperators is alpha and off in v1.36: such a
    // toleration tolerates nothing, the same as not having it.
    return ApiStatus();
  } else {
    return Unsupported(path.Child("operator"), op, {"Equal", "Exists", "Gt", "Lt"});
  }
  out->push_back(t);
  return ApiStatus();
}

// The members of spec that DecodeSpec reads, for ObjectMembers.
constexpr std::array<std::string_view, 14> kSpecMembers = {
    "nodeName",    "schedulerName",   "priority",       "preemptionPolicy",
    "nodeSelector", "affinity",        "topologySpreadConstraints",
    "tolerations", "schedulingGates", "initContainers", "containers",
    "volumes",     "overhead",        "resources",
};
consteval size_t Spec(std::string_view name) { return MemberIndex(kSpecMembers, name); }

ApiStatus DecodeSpec(const cJSON* obj, const JsonPath& path, Interner& in,
                     const PodStatus& status, Pod* pod) {
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec == nullptr) return ApiStatus();
  const JsonPath sp = path.Child("spec");
  // Every member below is found in one walk of spec.
  const ObjectMembers m(spec, kSpecMembers);

  std::string_view node_name, scheduler_name;
  CAPI_RETURN_IF_ERROR(m.GetString(Spec("nodeName"), sp, &node_name));
  CAPI_RETURN_IF_ERROR(m.GetString(Spec("schedulerName"), sp, &scheduler_name));
  pod->node_name = node_name;
  if (!scheduler_name.empty()) pod->scheduler_name = scheduler_name;
  CAPI_RETURN_IF_ERROR(m.GetInt32(Spec("priority"), sp, &pod->priority));
  std::string_view preemption_policy;
  CAPI_RETURN_IF_ERROR(m.GetString(Spec("preemptionPolicy"), sp, &preemption_policy));
  if (preemption_policy == "Never") {
    pod->preempt_never = true;
  } else if (!preemption_policy.empty() && preemption_policy != "PreemptLowerPriority") {
    return Unsupported(sp.Child("preemptionPolicy"), preemption_policy,
                       {"Never", "PreemptLowerPriority"});
  }
  const cJSON* v = nullptr;
  CAPI_RETURN_IF_ERROR(m.GetObject(Spec("nodeSelector"), sp, &v));
  if (v != nullptr) CAPI_RETURN_IF_ERROR(DecodeNodeSelector(v, sp.Child("nodeSelector"), in, pod));
  CAPI_RETURN_IF_ERROR(m.GetObject(Spec("affinity"), sp, &v));
  if (v != nullptr) {
    const JsonPath ap = sp.Child("affinity");
    CAPI_RETURN_IF_ERROR(DecodeNodeAffinity(v, ap, in, pod));
    CAPI_RETURN_IF_ERROR(DecodePodAffinity(v, ap, in, pod));
  }
  CAPI_RETURN_IF_ERROR(m.GetArray(Spec("topologySpreadConstraints"), sp, &v));
  CAPI_RETURN_IF_ERROR(
      DecodeTopologySpreadConstraints(v, sp.Child("topologySpreadConstraints"), in, pod));
  CAPI_RETURN_IF_ERROR(m.GetArray(Spec("tolerations"), sp, &v));
  CAPI_RETURN_IF_ERROR(
      ForEachItem(v, sp.Child("tolerations"), [&](const cJSON* t, const JsonPath& p) {
        return DecodeToleration(t, p, in, &pod->tolerations);
      }));
  CAPI_RETURN_IF_ERROR(m.GetArray(Spec("schedulingGates"), sp, &v));
  CAPI_RETURN_IF_ERROR(
      ForEachItem(v, sp.Child("schedulingGates"), [&](const cJSON* g, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(g, p));
        std::string_view gate;
        CAPI_RETURN_IF_ERROR(GetString(g, "name", p, &gate));
        pod->scheduling_gates.emplace_back(gate);
        return ApiStatus();
      }));
  CAPI_RETURN_IF_ERROR(DecodePodResourceClaims(obj, path, spec, pod));

  PodResourceSpec resources;
  // Init containers first: GetHostPorts and sumImageScores list them first.
  for (const bool init : {true, false}) {
    const char* name = init ? "initContainers" : "containers";
    CAPI_RETURN_IF_ERROR(m.GetArray(init ? Spec("initContainers") : Spec("containers"), sp, &v));
    CAPI_RETURN_IF_ERROR(ForEachItem(v, sp.Child(name), [&](const cJSON* c, const JsonPath& p) {
      ++pod->num_containers;
      return DecodeContainer(c, p, init, in, status, pod, &resources);
    }));
  }
  // Image volumes (ImageVolume, GA in v1.36) count for ImageLocality too.
  CAPI_RETURN_IF_ERROR(m.GetArray(Spec("volumes"), sp, &v));
  CAPI_RETURN_IF_ERROR(ForEachItem(v, sp.Child("volumes"), [&](const cJSON* vol, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(DecodePodVolume(vol, p, pod->name, &pod->volumes));
    const cJSON* image;
    CAPI_RETURN_IF_ERROR(GetObject(vol, "image", p, &image));
    if (image == nullptr) return ApiStatus();
    std::string_view reference;
    CAPI_RETURN_IF_ERROR(GetString(image, "reference", p.Child("image"), &reference));
    pod->images.push_back(InternImageName(in, reference));
    return ApiStatus();
  }));

  CAPI_RETURN_IF_ERROR(m.Get(Spec("overhead"), sp, &v));
  if (v != nullptr) {
    ResourceList list;
    CAPI_RETURN_IF_ERROR(DecodeResourceList(v, sp.Child("overhead"), in, &list));
    resources.overhead = std::move(list.amounts);
  }
  CAPI_RETURN_IF_ERROR(m.Get(Spec("resources"), sp, &v));
  CAPI_RETURN_IF_ERROR(
      DecodePodLevel(v, sp.Child("resources"), in, status, &resources.pod_level));

  pod->requests = PodRequests(resources);
  pod->non_zero_requests = PodNonZeroRequests(resources);
  pod->non_zero_container_requests = PodNonZeroContainerRequests(resources);
  return ApiStatus();
}

// The members of metadata that DecodePod reads besides the name, for
// ObjectMembers.
constexpr std::array<std::string_view, 7> kMetadataMembers = {
    "namespace", "uid",         "creationTimestamp", "deletionTimestamp",
    "labels",    "ownerReferences", "annotations",
};
consteval size_t Metadata(std::string_view name) {
  return MemberIndex(kMetadataMembers, name);
}

}  // namespace

ApiStatus DecodePod(const cJSON* obj, const JsonPath& path, Interner& in, DecodedPod* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto pod = std::make_shared<Pod>();

  const cJSON* meta;
  std::string_view name, ns, uid, created;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  const JsonPath mp = path.Child("metadata");
  // Every member below is found in one walk of metadata, as in DecodeSpec.
  const ObjectMembers m(meta, kMetadataMembers);
  CAPI_RETURN_IF_ERROR(m.GetString(Metadata("namespace"), mp, &ns));
  CAPI_RETURN_IF_ERROR(CheckMaxLen(ns, mp.Child("namespace"), "", kMaxNamespaceBytes));
  CAPI_RETURN_IF_ERROR(m.GetString(Metadata("uid"), mp, &uid));
  CAPI_RETURN_IF_ERROR(m.GetString(Metadata("creationTimestamp"), mp, &created));
  const cJSON* deleted = nullptr;
  CAPI_RETURN_IF_ERROR(m.Get(Metadata("deletionTimestamp"), mp, &deleted));
  if (deleted != nullptr) {
    std::string_view ignored;
    CAPI_RETURN_IF_ERROR(AsString(deleted, mp.Child("deletionTimestamp"), &ignored));
  }
  const cJSON* v = nullptr;
  CAPI_RETURN_IF_ERROR(m.Get(Metadata("labels"), mp, &v));
  CAPI_RETURN_IF_ERROR(DecodeLabels(v, mp.Child("labels"), in, &pod->labels));
  CAPI_RETURN_IF_ERROR(m.GetArray(Metadata("ownerReferences"), mp, &v));
  CAPI_RETURN_IF_ERROR(DecodeControllerRef(v, mp.Child("ownerReferences"), pod.get()));
  const cJSON* annotations = nullptr;
  CAPI_RETURN_IF_ERROR(m.GetObject(Metadata("annotations"), mp, &annotations));
  pod->mirror = annotations != nullptr &&
                cJSON_GetObjectItemCaseSensitive(annotations, kMirrorPodAnnotation) != nullptr;
  pod->name = name;
  pod->ns = ns.empty() ? kDefaultNamespace : ns;
  pod->ns_atom = in.Intern(pod->ns);
  pod->uid = uid;
  pod->creation_timestamp = created;
  pod->terminating = deleted != nullptr;
  pod->scheduler_name = kDefaultSchedulerName;

  PodStatus status;
  CAPI_RETURN_IF_ERROR(DecodeStatus(obj, path, in, &status));
  CAPI_RETURN_IF_ERROR(DecodeSpec(obj, path, in, status, pod.get()));
  pod->nominated_node_name = status.nominated_node_name;
  pod->start_time = status.start_time;
  pod->disruption_target_by_scheduler = status.disruption_target_by_scheduler;
  pod->atoms = atoms.Finish();
  out->pod = std::move(pod);
  out->terminal = status.terminal;
  return ApiStatus();
}

}  // namespace sched::capi
