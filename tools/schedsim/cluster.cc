#include "cluster.h"

#include <iostream>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>

#include "claims.h"
#include "daemonsets.h"
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
  Builder(Cluster& c, const std::set<std::string>& schedulers, Diagnostics& diag)
      : c_(c), schedulers_(schedulers), diag_(diag) {}

  void Build() {
    for (const InputObject& obj : c_.input.objects) {
      if (obj.kind == "PriorityClass") {
        ReadMeta(obj);
        AddPriorityClass(obj, classes_);
      } else if (obj.kind == "Node") {
        const cJSON* name = Member(Member(obj.json, "metadata"), "name");
        if (cJSON_IsString(name)) nodes_.insert(name->valuestring);
        node_objects_.push_back(obj.json);
      } else if (obj.kind == "Pod" || obj.kind == "ReplicaSet") {
        CountOwned(obj);
      } else if (obj.kind == "ResourceClaimTemplate" || obj.kind == "ResourceClaim") {
        claim_controller_.Add(obj);
      } else if (obj.kind == "PersistentVolumeClaim") {
        const cJSON* meta = Member(obj.json, "metadata");
        const cJSON* ns = Member(meta, "namespace");
        const cJSON* name = Member(meta, "name");
        if (cJSON_IsString(name)) {
          claims_.insert(
              std::string(cJSON_IsString(ns) && *ns->valuestring ? ns->valuestring : "default") +
              "/" + name->valuestring);
        }
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
      } else if (obj.kind == "DaemonSet") {
        daemon_sets_.push_back(obj);  // once every node is named
      } else {
        // Volume objects from templates may carry only generateName; the
        // engine needs a name.
        if (obj.kind == "PersistentVolume" || obj.kind == "PersistentVolumeClaim" ||
            obj.kind == "StorageClass" || obj.kind == "CSINode" || obj.kind == "CSIDriver" ||
            obj.kind == "CSIStorageCapacity" || obj.kind == "VolumeAttachment") {
          ReadMeta(obj);
        }
        if (obj.kind == "StorageClass") DefaultBindingMode(obj);
        others_.push_back(obj);
      }
    }
    for (const InputObject& ds : daemon_sets_) AddDaemonSet(ds);
    // Drop the pods a later definition replaced.
    std::erase_if(others_, [](const InputObject& o) { return o.json == nullptr; });
    std::erase_if(c_.pending, [](const PendingPod& p) { return p.json == nullptr; });
    GenerateClaims();
    c_.resident.insert(c_.resident.end(), others_.begin(), others_.end());
  }

 private:
  // The ResourceClaims of pods' claim templates, as kube-controller-manager
  // makes them before the scheduler sees the pods.
  void GenerateClaims() {
    const auto add = [&](cJSON* pod, Loc loc) {  // a copy: others_ grows
      for (JsonPtr& claim : claim_controller_.ForPod(pod, loc, diag_)) {
        others_.push_back(InputObject{claim.get(), "ResourceClaim", loc});
        c_.generated.push_back(std::move(claim));
      }
    };
    const size_t residents = others_.size();
    for (size_t i = 0; i < residents; ++i) {
      if (others_[i].kind == "Pod") add(others_[i].json, others_[i].loc);
    }
    for (const PendingPod& p : c_.pending) add(p.json, p.loc);
  }

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

  // Whether the pod is bound; one bound to a node the input lacks is
  // reported (its requests count nowhere).
  // SetDefaults_StorageClass: volumeBindingMode Immediate (hand-written
  // manifests leave it out; the API server fills it in).
  static void DefaultBindingMode(const InputObject& sc) {
    if (Member(sc.json, "volumeBindingMode") != nullptr) return;
    SetString(sc.json, "volumeBindingMode", "Immediate");  // over an explicit null
  }

  bool HasNodeName(const cJSON* spec, const Loc& loc) {
    std::string node = OptString(Member(spec, "nodeName"), loc.Key("nodeName")).value_or("");
    if (node.empty()) return false;
    if (!nodes_.contains(node)) {
      diag_.Warn(loc.Key("nodeName"), "node \"" + node + "\" is not in the input");
    }
    return true;
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
    ResolvePriority(spec, spec_loc, classes_, diag_);
    if (HasNodeName(spec, spec_loc)) {
      AddBound(m.ns + "/" + m.name, obj);
      return;
    }
    if (!ForUs(spec, spec_loc, 1)) return;
    AddPending(PendingPod{m.ns + "/" + m.name, obj.json, obj.loc});
  }

  // Records `obj` under its controller ownerReference (kind/ns/name).
  void CountOwned(const InputObject& obj) {
    const cJSON* meta = Member(obj.json, "metadata");
    const cJSON* refs = Member(meta, "ownerReferences");
    for (const cJSON* r = cJSON_IsArray(refs) ? refs->child : nullptr; r; r = r->next) {
      if (!cJSON_IsTrue(Member(r, "controller"))) continue;
      const cJSON* kind = Member(r, "kind");
      const cJSON* name = Member(r, "name");
      const cJSON* ns = Member(meta, "namespace");
      const cJSON* own = Member(meta, "name");
      if (!cJSON_IsString(kind) || !cJSON_IsString(name)) return;
      Owned& o = owned_[OwnerKey(
          kind->valuestring, cJSON_IsString(ns) && *ns->valuestring ? ns->valuestring : "default",
          name->valuestring)];
      ++o.count;
      if (cJSON_IsString(own)) o.names.insert(own->valuestring);
      const cJSON* node = Member(Member(obj.json, "spec"), "nodeName");
      if (cJSON_IsString(node)) o.nodes.insert(node->valuestring);
      return;  // GetControllerOf: the first controller
    }
  }

  static std::string OwnerKey(const std::string& kind, const std::string& ns,
                              const std::string& name) {
    return kind + "/" + ns + "/" + name;
  }

  void AddWorkload(const InputObject& obj) {
    Meta m = ReadMeta(obj);
    const Owned& owned = owned_[OwnerKey(obj.kind, m.ns, m.name)];
    // A Deployment whose ReplicaSet is in the input (a dump) is that
    // ReplicaSet's to expand.
    if (obj.kind == "Deployment" && owned.count > 0) return;
    Loc tmpl_loc = obj.loc.Key("spec").Key("template");
    cJSON* spec = Member(PodTemplate(obj), "spec");
    ResolvePriority(spec, tmpl_loc.Key("spec"), classes_, diag_);
    bool bound = HasNodeName(spec, tmpl_loc.Key("spec"));
    Expansion e = ExpandWorkload(obj, m.ns, m.name, owned);
    std::vector<JsonPtr>& pods = e.pods;
    // The controller the engine's default spreading reads the selector of.
    if (obj.kind == "ReplicaSet" || obj.kind == "StatefulSet") others_.push_back(obj);
    if (e.replica_set) {
      others_.push_back(InputObject{e.replica_set.get(), "ReplicaSet", obj.loc});
      c_.generated.push_back(std::move(e.replica_set));
    }
    Loc claims_loc = obj.loc.Key("spec").Key("volumeClaimTemplates");
    for (JsonPtr& claim : e.claims) {
      // A dump holds the claims the controller made already.
      std::string key = m.ns + "/" + Member(Member(claim.get(), "metadata"), "name")->valuestring;
      if (claims_.contains(key)) continue;
      others_.push_back(InputObject{claim.get(), "PersistentVolumeClaim", claims_loc});
      c_.generated.push_back(std::move(claim));
    }
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

  void AddDaemonSet(const InputObject& obj) {
    Meta m = ReadMeta(obj);
    Loc tmpl_loc = obj.loc.Key("spec").Key("template");
    cJSON* spec = Member(PodTemplate(obj), "spec");
    ResolvePriority(spec, tmpl_loc.Key("spec"), classes_, diag_);
    if (!filter_) filter_ = std::make_unique<NodeFilter>(node_objects_);
    std::vector<JsonPtr> pods =
        ExpandDaemonSet(obj, m.ns, m.name, owned_[OwnerKey("DaemonSet", m.ns, m.name)], *filter_);
    if (!ForUs(spec, tmpl_loc.Key("spec"), static_cast<int64_t>(pods.size()))) return;
    for (JsonPtr& pod : pods) {
      std::string key = m.ns + "/" + Member(Member(pod.get(), "metadata"), "name")->valuestring;
      AddPending(PendingPod{key, pod.get(), tmpl_loc, true});
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
  Diagnostics& diag_;
  PriorityClasses classes_;
  std::set<std::string> nodes_;                   // every Node's name
  std::unordered_map<std::string, Owned> owned_;  // by OwnerKey of the controller
  std::vector<const cJSON*> node_objects_;        // every Node, in input order
  std::set<std::string> claims_;                  // the input's PVCs, "ns/name"
  std::unique_ptr<NodeFilter> filter_;            // made at the first DaemonSet
  ClaimController claim_controller_;              // claims from pods' templates
  std::vector<InputObject> daemon_sets_;          // expanded after the loop
  std::map<std::string, uint64_t> generated_;     // generateName counters
  std::unordered_map<std::string, PodDef> pods_;  // pod definitions by key
  // Bound pods and every kind the simulator does not consume, in input order.
  std::vector<InputObject> others_;
};

}  // namespace

Cluster BuildCluster(Input input, const std::set<std::string>& schedulers, Diagnostics& diag) {
  Cluster c;
  c.input = std::move(input);
  Builder(c, schedulers, diag).Build();
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
