#include "daemonsets.h"

#include <unordered_set>

#include "engine.h"
#include "names.h"

namespace schedsim {
namespace {

// Only the predicates NodeShouldRunDaemonPod applies; every node looked at.
constexpr const char* kFilterConfig = R"({
  "apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "KubeSchedulerConfiguration",
  "percentageOfNodesToScore": 100,
  "profiles": [{"schedulerName": "default-scheduler", "plugins": {"multiPoint": {
    "disabled": [{"name": "*"}],
    "enabled": [{"name": "PrioritySort"}, {"name": "NodeAffinity"},
                {"name": "TaintToleration"}, {"name": "DefaultBinder"}]}}}]})";

struct Toleration {
  const char* key;
  const char* effect;
};

// util.AddOrUpdateDaemonPodTolerations.
constexpr Toleration kDaemonTolerations[] = {
    {"node.kubernetes.io/not-ready", "NoExecute"},
    {"node.kubernetes.io/unreachable", "NoExecute"},
    {"node.kubernetes.io/disk-pressure", "NoSchedule"},
    {"node.kubernetes.io/memory-pressure", "NoSchedule"},
    {"node.kubernetes.io/pid-pressure", "NoSchedule"},
    {"node.kubernetes.io/unschedulable", "NoSchedule"},
};
constexpr Toleration kHostNetworkToleration = {"node.kubernetes.io/network-unavailable",
                                               "NoSchedule"};

std::string Str(const cJSON* v) { return cJSON_IsString(v) ? v->valuestring : ""; }

// v1helper.AddOrUpdateTolerationInPodSpec: a toleration equal to one the
// spec has (key, operator, value, effect) is not added twice.
void AddToleration(cJSON* spec, const Toleration& t) {
  cJSON* list = WritableArray(spec, "tolerations");
  for (const cJSON* have = list->child; have != nullptr; have = have->next) {
    if (Str(Member(have, "key")) == t.key && Str(Member(have, "operator")) == "Exists" &&
        Str(Member(have, "value")).empty() && Str(Member(have, "effect")) == t.effect) {
      return;
    }
  }
  cJSON* add = cJSON_CreateObject();
  cJSON_AddStringToObject(add, "key", t.key);
  cJSON_AddStringToObject(add, "operator", "Exists");
  cJSON_AddStringToObject(add, "effect", t.effect);
  cJSON_AddItemToArray(list, add);
}

// util.ReplaceDaemonSetPodNodeNameNodeAffinity.
void PinToNode(cJSON* spec, const std::string& node) {
  cJSON* na = WritableObject(WritableObject(spec, "affinity"), "nodeAffinity");
  cJSON_DeleteItemFromObjectCaseSensitive(na, "requiredDuringSchedulingIgnoredDuringExecution");
  cJSON* required = cJSON_AddObjectToObject(na, "requiredDuringSchedulingIgnoredDuringExecution");
  cJSON* term = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(required, "nodeSelectorTerms"), term);
  cJSON* req = cJSON_CreateObject();
  cJSON_AddItemToArray(cJSON_AddArrayToObject(term, "matchFields"), req);
  cJSON_AddStringToObject(req, "key", "metadata.name");
  cJSON_AddStringToObject(req, "operator", "In");
  cJSON_AddItemToArray(cJSON_AddArrayToObject(req, "values"), cJSON_CreateString(node.c_str()));
}

}  // namespace

struct NodeFilter::Impl {
  SimEngine engine;
  std::vector<std::string> names;
  Impl() : engine(JsonPtr(cJSON_Parse(kFilterConfig)).get(), "DaemonSet node filter", 0) {}
};

NodeFilter::NodeFilter(const std::vector<const cJSON*>& nodes) : impl_(std::make_unique<Impl>()) {
  JsonPtr list(cJSON_CreateObject());
  cJSON_AddStringToObject(list.get(), "kind", "List");
  cJSON* items = cJSON_AddArrayToObject(list.get(), "items");
  for (const cJSON* n : nodes) {
    cJSON_AddItemReferenceToArray(items, const_cast<cJSON*>(n));
    impl_->names.push_back(Str(Member(Member(n, "metadata"), "name")));
  }
  // The simulation's own load checks these nodes again, in place.
  impl_->engine.Apply(Print(list.get()), [](const std::string& path) {
    return Loc{"the nodes", 0, path};
  });
}

NodeFilter::~NodeFilter() = default;

std::vector<std::string> NodeFilter::Eligible(const cJSON* pod) {
  JsonPtr result = impl_->engine.Schedule(Print(pod), SCHED_SCHEDULE_NODE_STATUSES);
  std::unordered_set<std::string> rejected;
  const cJSON* statuses = Member(result.get(), "nodeStatuses");
  for (const cJSON* s = statuses != nullptr ? statuses->child : nullptr; s; s = s->next) {
    rejected.insert(Str(Member(s, "node")));
  }
  std::vector<std::string> out;
  for (const std::string& n : impl_->names) {
    if (!rejected.contains(n)) out.push_back(n);
  }
  return out;
}

std::vector<JsonPtr> ExpandDaemonSet(const InputObject& ds, const std::string& ns,
                                     const std::string& name, const Owned& owned,
                                     NodeFilter& filter) {
  cJSON* tmpl = PodTemplate(ds);
  JsonPtr spec(cJSON_Duplicate(Member(tmpl, "spec"), true));
  for (const Toleration& t : kDaemonTolerations) AddToleration(spec.get(), t);
  if (cJSON_IsTrue(Member(spec.get(), "hostNetwork"))) {
    AddToleration(spec.get(), kHostNetworkToleration);
  }
  // The filter engine has one profile: the DaemonSet's schedulerName is the
  // simulation's concern, not eligibility's.
  JsonPtr probe(cJSON_CreateObject());
  cJSON* pm = cJSON_AddObjectToObject(probe.get(), "metadata");
  cJSON_AddStringToObject(pm, "name", name.c_str());
  cJSON_AddStringToObject(pm, "namespace", ns.c_str());
  cJSON* ps = cJSON_Duplicate(spec.get(), true);
  cJSON_DeleteItemFromObjectCaseSensitive(ps, "schedulerName");
  cJSON_DeleteItemFromObjectCaseSensitive(ps, "nodeName");
  cJSON_AddItemToObject(probe.get(), "spec", ps);

  const cJSON* meta = Member(tmpl, "metadata");
  const cJSON* labels = Member(meta, "labels");
  const cJSON* created = Member(Member(ds.json, "metadata"), "creationTimestamp");
  std::vector<JsonPtr> pods;
  uint64_t i = 0;
  for (const std::string& node : filter.Eligible(probe.get())) {
    if (owned.nodes.contains(node)) continue;  // runs one already
    JsonPtr pod(cJSON_CreateObject());
    cJSON_AddStringToObject(pod.get(), "apiVersion", "v1");
    cJSON_AddStringToObject(pod.get(), "kind", "Pod");
    cJSON* m = cJSON_AddObjectToObject(pod.get(), "metadata");
    cJSON_AddStringToObject(m, "name", (name + "-" + NameSuffix(name, i++)).c_str());
    cJSON_AddStringToObject(m, "namespace", ns.c_str());
    cJSON_AddItemToObject(m, "labels",
                          labels != nullptr ? cJSON_Duplicate(labels, true) : cJSON_CreateObject());
    if (created != nullptr) {
      cJSON_AddItemToObject(m, "creationTimestamp", cJSON_Duplicate(created, true));
    }
    cJSON_AddItemToArray(
        cJSON_AddArrayToObject(m, "ownerReferences"),
        ControllerRef("apps/v1", "DaemonSet", ns, name, Member(ds.json, "metadata")));
    cJSON* s = cJSON_Duplicate(spec.get(), true);
    PinToNode(s, node);
    cJSON_AddItemToObject(pod.get(), "spec", s);
    pods.push_back(std::move(pod));
  }
  return pods;
}

}  // namespace schedsim
