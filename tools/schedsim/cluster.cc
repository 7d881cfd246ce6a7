#include "cluster.h"

#include <iostream>
#include <map>
#include <unordered_map>

#include "names.h"
#include "priority.h"
#include "workloads.h"

namespace schedsim {
namespace {

constexpr const char* kDefaultScheduler = "default-scheduler";

struct Meta {
  std::string ns;  // "default" when unset (and meaningless for a Node)
  std::string name;
  std::optional<int64_t> created;
};

class Builder {
 public:
  explicit Builder(Cluster& c) : c_(c) {}

  void Build() {
    for (const InputObject& obj : c_.input.objects) {
      if (obj.kind == "PriorityClass") {
        ReadMeta(obj);
        AddPriorityClass(obj, classes_);
      }
    }
    std::vector<InputObject> others;
    for (const InputObject& obj : c_.input.objects) {
      if (obj.kind == "Node") {
        ReadMeta(obj);
        DefaultAllocatable(obj);
        c_.resident.push_back(obj);
      } else if (obj.kind == "Pod") {
        AddPod(obj, others);
      } else if (IsWorkload(obj.kind)) {
        AddWorkload(obj, others);
      } else {
        others.push_back(obj);
      }
    }
    c_.resident.insert(c_.resident.end(), others.begin(), others.end());
    SortQueue(c_.queue);
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
    m.created = ParseTimestamp(Member(meta, "creationTimestamp"), loc.Key("creationTimestamp"));
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
  // spec.schedulerName one of its profiles serves; the engine runs the
  // default profile.
  bool ForUs(const cJSON* spec, const Loc& loc, int64_t pods) {
    std::string name = OptString(Member(spec, "schedulerName"), loc.Key("schedulerName"))
                           .value_or(kDefaultScheduler);
    if (name.empty() || name == kDefaultScheduler) return true;
    if (pods > 0) c_.other_schedulers[name] += pods;
    return false;
  }

  void AddPod(const InputObject& obj, std::vector<InputObject>& others) {
    Meta m = ReadMeta(obj);
    Loc spec_loc = obj.loc.Key("spec");
    cJSON* spec = OptObject(Member(obj.json, "spec"), spec_loc);
    int32_t priority = ResolvePriority(spec, spec_loc, classes_);
    if (HasNodeName(spec, spec_loc)) {
      others.push_back(obj);
      return;
    }
    if (!ForUs(spec, spec_loc, 1)) return;
    Enqueue(PendingPod{m.ns + "/" + m.name, priority, m.created, 0, obj.json, obj.loc});
  }

  void AddWorkload(const InputObject& obj, std::vector<InputObject>& others) {
    Meta m = ReadMeta(obj);
    Loc tmpl_loc = obj.loc.Key("spec").Key("template");
    cJSON* spec = Member(PodTemplate(obj), "spec");
    int32_t priority = ResolvePriority(spec, tmpl_loc.Key("spec"), classes_);
    bool bound = HasNodeName(spec, tmpl_loc.Key("spec"));
    std::vector<JsonPtr> pods = ExpandWorkload(obj, m.ns, m.name);
    if (!bound && !ForUs(spec, tmpl_loc.Key("spec"), static_cast<int64_t>(pods.size()))) return;
    for (JsonPtr& pod : pods) {
      if (bound) {
        others.push_back(InputObject{pod.get(), "Pod", tmpl_loc});
      } else {
        std::string name = Member(Member(pod.get(), "metadata"), "name")->valuestring;
        Enqueue(PendingPod{m.ns + "/" + name, priority, m.created, 0, pod.get(), tmpl_loc});
      }
      c_.generated.push_back(std::move(pod));
    }
  }

  // Queues `p` in input order (a redefinition takes its own place).
  void Enqueue(PendingPod p) {
    p.order = order_++;
    auto [it, inserted] = index_.try_emplace(p.key, c_.queue.size());
    if (inserted) {
      c_.queue.push_back(std::move(p));
      return;
    }
    PendingPod& old = c_.queue[it->second];
    std::cerr << "schedsim: warning: " << p.loc.Str() << ": pod " << p.key
              << " is defined again (first at " << old.loc.Str() << "); the later one is used\n";
    old = std::move(p);
  }

  Cluster& c_;
  PriorityClasses classes_;
  std::map<std::string, uint64_t> generated_;            // generateName counters
  std::unordered_map<std::string, size_t> index_;        // queue index by pod key
  size_t order_ = 0;  // pending pods so far
};

}  // namespace

Cluster BuildCluster(Input input) {
  Cluster c;
  c.input = std::move(input);
  Builder(c).Build();
  return c;
}

}  // namespace schedsim
