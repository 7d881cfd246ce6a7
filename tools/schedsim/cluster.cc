#include "cluster.h"

#include <iostream>
#include <map>
#include <unordered_map>
#include <utility>

#include "names.h"
#include "priority.h"
#include "timestamp.h"
#include "workloads.h"

namespace schedsim {
namespace {

constexpr const char* kDefaultScheduler = "default-scheduler";

struct Meta {
  std::string ns;  // "default" when unset (and meaningless for a Node)
  std::string name;
};

class Builder {
 public:
  Builder(Cluster& c, const std::set<std::string>& schedulers) : c_(c), schedulers_(schedulers) {}

  void Build() {
    for (const InputObject& obj : c_.input.objects) {
      if (obj.kind == "PriorityClass") {
        ReadMeta(obj);
        AddPriorityClass(obj, classes_);
      }
    }
    for (const InputObject& obj : c_.input.objects) {
      if (obj.kind == "Node") {
        ReadMeta(obj);
        DefaultAllocatable(obj);
        c_.resident.push_back(obj);
      } else if (obj.kind == "Pod") {
        AddPod(obj);
      } else if (IsWorkload(obj.kind)) {
        AddWorkload(obj);
      } else {
        // Volume objects from templates may carry only generateName; the
        // engine needs a name.
        if (obj.kind == "PersistentVolume" || obj.kind == "PersistentVolumeClaim" ||
            obj.kind == "StorageClass" || obj.kind == "CSINode") {
          ReadMeta(obj);
        }
        others_.push_back(obj);
      }
    }
    // Drop the pods a later definition replaced.
    std::erase_if(others_, [](const InputObject& o) { return o.json == nullptr; });
    std::erase_if(c_.pending, [](const PendingPod& p) { return p.json == nullptr; });
    c_.resident.insert(c_.resident.end(), others_.begin(), others_.end());
  }

 private:
  // Reads metadata, naming an object that has only generateName as the API
  // server would (deterministically here).
  Meta ReadMeta(const InputObject& obj) {
    Loc loc = obj.loc.Key("metadata");
    cJSON* meta = OptObject(Member(obj.json, "metadata"), loc);
    Meta m;
    m.ns = OptString(Member(meta, "namespace"), loc.Key("namespace")).value_or("");
    if (m.ns.empty()) m.ns = "default";
    m.name = OptString(Member(meta, "name"), loc.Key("name")).value_or("");
    CheckTimestamp(Member(meta, "creationTimestamp"), loc.Key("creationTimestamp"));
    if (!m.name.empty()) return m;
    std::string gen = OptString(Member(meta, "generateName"), loc.Key("generateName")).value_or("");
    if (gen.empty()) throw InputError(loc.Key("name"), "missing (and no metadata.generateName)");
    uint64_t& n = generated_[obj.kind + "/" + m.ns + "/" + gen];
    m.name = gen + NameSuffix(gen, n++);
    if (meta == nullptr) meta = cJSON_AddObjectToObject(obj.json, "metadata");
    cJSON_DeleteItemFromObjectCaseSensitive(meta, "name");  // an explicit null
    cJSON_AddStringToObject(meta, "name", m.name.c_str());
    return m;
  }

  // The API server defaults a Node's status.allocatable to its capacity
  // (SetDefaults_NodeStatus); manifests such as scheduler_perf's node
  // templates rely on it.
  static void DefaultAllocatable(const InputObject& node) {
    Loc loc = node.loc.Key("status");
    cJSON* status = OptObject(Member(node.json, "status"), loc);
    cJSON* capacity = OptObject(Member(status, "capacity"), loc.Key("capacity"));
    if (capacity == nullptr || Member(status, "allocatable") != nullptr) return;
    cJSON_DeleteItemFromObjectCaseSensitive(status, "allocatable");  // an explicit null
    cJSON_AddItemToObject(status, "allocatable", cJSON_Duplicate(capacity, true));
  }

  static bool HasNodeName(const cJSON* spec, const Loc& loc) {
    return !OptString(Member(spec, "nodeName"), loc.Key("nodeName")).value_or("").empty();
  }

  // Whether a pending pod is ours: kube-scheduler only takes pods whose
  // spec.schedulerName one of its profiles serves.
  bool ForUs(const cJSON* spec, const Loc& loc, int64_t pods) {
    std::string name = OptString(Member(spec, "schedulerName"), loc.Key("schedulerName"))
                           .value_or(kDefaultScheduler);
    if (name.empty()) name = kDefaultScheduler;
    if (schedulers_.contains(name)) return true;
    if (pods > 0) c_.other_schedulers[name] += pods;
    return false;
  }

  void AddPod(const InputObject& obj) {
    Meta m = ReadMeta(obj);
    Loc spec_loc = obj.loc.Key("spec");
    cJSON* spec = OptObject(Member(obj.json, "spec"), spec_loc);
    ResolvePriority(spec, spec_loc, classes_);
    if (HasNodeName(spec, spec_loc)) {
      AddBound(m.ns + "/" + m.name, obj);
      return;
    }
    if (!ForUs(spec, spec_loc, 1)) return;
    AddPending(PendingPod{m.ns + "/" + m.name, obj.json, obj.loc});
  }

  void AddWorkload(const InputObject& obj) {
    Meta m = ReadMeta(obj);
    Loc tmpl_loc = obj.loc.Key("spec").Key("template");
    cJSON* spec = Member(PodTemplate(obj), "spec");
    ResolvePriority(spec, tmpl_loc.Key("spec"), classes_);
    bool bound = HasNodeName(spec, tmpl_loc.Key("spec"));
    std::vector<JsonPtr> pods = ExpandWorkload(obj, m.ns, m.name);
    if (!bound && !ForUs(spec, tmpl_loc.Key("spec"), static_cast<int64_t>(pods.size()))) return;
    for (JsonPtr& pod : pods) {
      std::string key = m.ns + "/" + Member(Member(pod.get(), "metadata"), "name")->valuestring;
      if (bound) {
        AddBound(key, InputObject{pod.get(), "Pod", tmpl_loc});
      } else {
        AddPending(PendingPod{key, pod.get(), tmpl_loc});
      }
      c_.generated.push_back(std::move(pod));
    }
  }

  void AddBound(const std::string& key, const InputObject& obj) {
    Define(key, obj.loc, PodDef{true, others_.size()});
    others_.push_back(obj);
  }

  void AddPending(PendingPod p) {
    Define(p.key, p.loc, PodDef{false, c_.pending.size()});
    c_.pending.push_back(std::move(p));
  }

  // Where a pod's definition sits: others_ (bound) or c_.pending.
  struct PodDef {
    bool bound;
    size_t index;
  };

  // Records the definition of pod `key` at `loc`; an earlier one (bound or
  // pending) is dropped with a warning, as a second `kubectl apply` of the
  // same namespace/name would replace it.
  void Define(const std::string& key, const Loc& loc, PodDef def) {
    auto [it, inserted] = pods_.try_emplace(key, def);
    if (inserted) return;
    const PodDef old = std::exchange(it->second, def);
    cJSON*& old_json = old.bound ? others_[old.index].json : c_.pending[old.index].json;
    const Loc& old_loc = old.bound ? others_[old.index].loc : c_.pending[old.index].loc;
    std::cerr << "schedsim: warning: " << loc.Str() << ": pod " << key
              << " is defined again (first at " << old_loc.Str() << "); the later one is used\n";
    old_json = nullptr;
  }

  Cluster& c_;
  const std::set<std::string>& schedulers_;
  PriorityClasses classes_;
  std::map<std::string, uint64_t> generated_;     // generateName counters
  std::unordered_map<std::string, PodDef> pods_;  // pod definitions by key
  // Bound pods and every kind the simulator does not consume, in input order.
  std::vector<InputObject> others_;
};

}  // namespace

Cluster BuildCluster(Input input, const std::set<std::string>& schedulers) {
  Cluster c;
  c.input = std::move(input);
  Builder(c, schedulers).Build();
  return c;
}

std::set<std::string> ProfileNames(const cJSON* config) {
  const cJSON* profiles = config != nullptr ? Member(config, "profiles") : nullptr;
  std::set<std::string> names;
  const int n = cJSON_IsArray(profiles) ? cJSON_GetArraySize(profiles) : 0;
  for (const cJSON* p = n > 0 ? profiles->child : nullptr; p != nullptr; p = p->next) {
    const cJSON* name = cJSON_IsObject(p) ? Member(p, "schedulerName") : nullptr;
    // A lone profile without a name is the default scheduler; a bad config
    // is the engine's to reject.
    if (cJSON_IsString(name)) names.insert(name->valuestring);
  }
  if (n <= 1 && names.empty()) names.insert(kDefaultScheduler);
  return names;
}

}  // namespace schedsim
