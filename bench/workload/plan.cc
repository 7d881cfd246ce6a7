#include "plan.h"

#include <cjson/cJSON.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <sstream>

namespace bench {
namespace {

struct JsonDeleter {
  void operator()(cJSON* j) const { cJSON_Delete(j); }
};
using JsonPtr = std::unique_ptr<cJSON, JsonDeleter>;

struct Source {
  const char* file;      // corpus workloads/<file>.performance-config.json
  const char* testcase;  // the test case's name there
};

const std::map<std::string, Source>& Sources() {
  static const std::map<std::string, Source> sources = {
      {"SchedulingBasic", {"misc", "SchedulingBasic"}},
      {"SchedulingNodeAffinity", {"affinity", "SchedulingNodeAffinity"}},
      {"SchedulingPodAntiAffinity", {"affinity", "SchedulingPodAntiAffinity"}},
      {"SchedulingPodAffinity", {"affinity", "SchedulingPodAffinity"}},
      {"SchedulingPreferredPodAffinity", {"affinity", "SchedulingPreferredPodAffinity"}},
      {"TopologySpreading", {"topology_spreading", "TopologySpreading"}},
      {"Preemption", {"default_preemption", "PreemptionBasic"}},
      {"Unschedulable", {"default_preemption", "Unschedulable"}},
      {"SchedulingOwnedPods", {"libsched", "SchedulingOwnedPods"}},
      {"SchedulingOwnedChurn", {"libsched", "SchedulingOwnedChurn"}},
      {"SchedulingWithMixedChurn", {"misc", "SchedulingWithMixedChurn"}},
  };
  return sources;
}

JsonPtr ReadJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PlanError("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  JsonPtr j(cJSON_ParseWithLength(text.data(), text.size()));
  if (!j) throw PlanError(path + ": not JSON");
  return j;
}

cJSON* Get(const cJSON* obj, const char* key) {
  cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNull(v) ? nullptr : v;
}

std::string GetString(const cJSON* obj, const char* key) {
  cJSON* v = Get(obj, key);
  return cJSON_IsString(v) ? v->valuestring : "";
}

// Child object `key` of `obj`, created when absent.
cJSON* Child(cJSON* obj, const char* key) {
  cJSON* v = Get(obj, key);
  if (cJSON_IsObject(v)) return v;
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  return cJSON_AddObjectToObject(obj, key);
}

void SetString(cJSON* obj, const char* key, const std::string& value) {
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  cJSON_AddStringToObject(obj, key, value.c_str());
}

std::string Print(const cJSON* v) {
  char* s = cJSON_PrintUnformatted(v);
  std::string out(s);
  cJSON_free(s);
  return out;
}

// "../templates/pod-default.yaml" -> <corpus>/templates/pod-default.json;
// a template in another folder ("churn/x.yaml") is stored as churn__x.json.
JsonPtr ReadTemplate(const std::string& corpus, std::string path) {
  while (path.rfind("../", 0) == 0) path.erase(0, 3);
  if (path.rfind("templates/", 0) == 0) path.erase(0, 10);
  for (size_t p; (p = path.find('/')) != std::string::npos;) path.replace(p, 1, "__");
  if (path.size() > 5 && path.compare(path.size() - 5, 5, ".yaml") == 0) {
    path.replace(path.size() - 5, 5, ".json");
  }
  return ReadJson(corpus + "/templates/" + path);
}

std::string Indexed(const std::string& prefix, int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%05d", i);
  return prefix + buf;
}

// The pod of `tmpl` named generateName+index in `ns`, with what the API
// server defaults and the scheduler reads.
std::string MakePod(const cJSON* tmpl, const std::string& ns, const std::string& name) {
  JsonPtr pod(cJSON_Duplicate(tmpl, true));
  SetString(pod.get(), "apiVersion", "v1");
  SetString(pod.get(), "kind", "Pod");
  cJSON* meta = Child(pod.get(), "metadata");
  cJSON_DeleteItemFromObjectCaseSensitive(meta, "generateName");
  SetString(meta, "name", name);
  SetString(meta, "namespace", ns);
  SetString(meta, "uid", ns + "." + name);
  cJSON* spec = Child(pod.get(), "spec");
  if (Get(spec, "schedulerName") == nullptr) SetString(spec, "schedulerName", "default-scheduler");
  return Print(pod.get());
}

// A churn Node or Service of `tmpl` named `name`, with what the API server
// defaults and the scheduler reads (a Node's allocatable, as
// SetDefaults_NodeStatus; a Service's namespace and a uid). Unlike
// createNodes' nodes, no hostname label: nobody sets one on these.
std::string MakeChurnObject(const cJSON* tmpl, const std::string& ns, const std::string& name) {
  JsonPtr obj(cJSON_Duplicate(tmpl, true));
  cJSON* meta = Child(obj.get(), "metadata");
  cJSON_DeleteItemFromObjectCaseSensitive(meta, "generateName");
  SetString(meta, "name", name);
  if (GetString(obj.get(), "kind") == "Service") {
    SetString(meta, "namespace", ns);
    SetString(meta, "uid", ns + ".svc." + name);
  } else {
    cJSON* status = Child(obj.get(), "status");
    if (Get(status, "allocatable") == nullptr && Get(status, "capacity") != nullptr) {
      cJSON_AddItemToObject(status, "allocatable", cJSON_Duplicate(Get(status, "capacity"), true));
    }
  }
  return Print(obj.get());
}

std::string GenerateName(const cJSON* tmpl) {
  return GetString(Get(tmpl, "metadata"), "generateName");
}

bool HasLabel(const cJSON* entry, const char* label) {
  const cJSON* l;
  cJSON_ArrayForEach(l, Get(entry, "labels")) {
    if (cJSON_IsString(l) && std::string(l->valuestring) == label) return true;
  }
  return false;
}

// The entry kPerformanceEntry stands for (plan.h): the first labelled
// "performance" with a threshold, else the first labelled "performance",
// else "" (the default choice).
std::string PerformanceEntry(const cJSON* testcase) {
  std::string labelled;
  const cJSON* entry;
  cJSON_ArrayForEach(entry, Get(testcase, "workloads")) {
    if (!HasLabel(entry, "performance")) continue;
    if (Get(entry, "threshold") != nullptr) return GetString(entry, "name");
    if (labelled.empty()) labelled = GetString(entry, "name");
  }
  return labelled;
}

// The workload entry for `nodes` and the factor its counts are scaled by:
// the one named `name` when given, else as plan.h says.
const cJSON* PickEntry(const cJSON* testcase, int nodes, std::string name, double* scale) {
  if (name == kPerformanceEntry) name = PerformanceEntry(testcase);
  const cJSON* best = nullptr;
  double best_nodes = 0;
  const cJSON* entry;
  cJSON_ArrayForEach(entry, Get(testcase, "workloads")) {
    const std::string entry_name = GetString(entry, "name");
    if (name.empty() ? entry_name.find('_') != std::string::npos : entry_name != name) continue;
    cJSON* n = Get(Get(entry, "params"), "initNodes");
    if (!cJSON_IsNumber(n) || n->valuedouble <= 0) continue;
    if (n->valuedouble == nodes) {
      *scale = 1;
      return entry;
    }
    if (n->valuedouble > best_nodes) best = entry, best_nodes = n->valuedouble;
  }
  if (best == nullptr) {
    throw PlanError(name.empty() ? "no workload entry with initNodes"
                                 : "no workload entry " + name + " with initNodes");
  }
  *scale = nodes / best_nodes;
  return best;
}

// The value of `param` ("$name") in the entry's params, times `scale`.
int CountParam(const std::string& param, const cJSON* params, double scale) {
  if (param.empty() || param[0] != '$') throw PlanError("op without count or countParam");
  cJSON* v = Get(params, param.c_str() + 1);
  if (!cJSON_IsNumber(v)) throw PlanError("missing param " + param);
  return static_cast<int>(std::lround(v->valuedouble * scale));
}

int Count(const cJSON* op, const cJSON* params, double scale) {
  if (cJSON* c = Get(op, "count"); cJSON_IsNumber(c)) return c->valueint;
  return CountParam(GetString(op, "countParam"), params, scale);
}

// Makes the nodes of a createNodes op, numbered on from the plan's first
// node, and later a Rollover's replacements after them.
struct NodeMaker {
  JsonPtr tmpl;
  std::string key;  // labelNodePrepareStrategy
  const cJSON* values = nullptr;
  std::string prefix;
  int made = 0;

  std::string Make(Plan* plan) {
    JsonPtr node(cJSON_Duplicate(tmpl.get(), true));
    SetString(node.get(), "apiVersion", "v1");
    SetString(node.get(), "kind", "Node");
    cJSON* meta = Child(node.get(), "metadata");
    cJSON_DeleteItemFromObjectCaseSensitive(meta, "generateName");
    std::string name = Indexed(prefix, made);
    SetString(meta, "name", name);
    cJSON* labels = Child(meta, "labels");
    SetString(labels, "kubernetes.io/hostname", name);
    int nvalues = cJSON_GetArraySize(values);
    if (!key.empty() && nvalues > 0) {
      const char* value = cJSON_GetArrayItem(values, made % nvalues)->valuestring;
      SetString(labels, key.c_str(), value);
      plan->node_zone[name] = value;
    }
    cJSON* status = Child(node.get(), "status");
    if (Get(status, "allocatable") == nullptr && Get(status, "capacity") != nullptr) {
      cJSON_AddItemToObject(status, "allocatable", cJSON_Duplicate(Get(status, "capacity"), true));
    }
    ++made;
    return Print(node.get());
  }
};

NodeMaker AddNodes(const std::string& corpus, const cJSON* op, int count, Plan* plan) {
  std::string path = GetString(op, "nodeTemplatePath");
  NodeMaker m;
  m.tmpl = ReadTemplate(corpus, path.empty() ? "node-default.json" : path);
  const cJSON* strategy = Get(op, "labelNodePrepareStrategy");
  m.key = GetString(strategy, "labelKey");
  m.values = Get(strategy, "labelValues");
  if (!m.key.empty()) plan->zone_key = m.key;
  m.prefix = GenerateName(m.tmpl.get());
  m.made = static_cast<int>(plan->nodes.size());
  for (int i = 0; i < count; ++i) plan->nodes.push_back(m.Make(plan));
  return m;
}

// Deployment `k` of `replicas` pods of `tmpl` in `ns`: its Service,
// ReplicaSet and pods (plan.h).
PodBatch MakeDeployment(const cJSON* tmpl, const std::string& ns, int k, int replicas) {
  std::string d = Indexed("deploy-", k), hash = Indexed("h", k), rs = d + "-" + hash;
  std::string meta = R"("namespace":")" + ns + R"(","labels":{"app":")" + d +
                     R"(","pod-template-hash":")" + hash + "\"}";
  PodBatch b;
  b.objects.push_back(R"({"apiVersion":"v1","kind":"Service","metadata":{"name":")" + d +
                      R"(","namespace":")" + ns + R"(","uid":")" + ns + ".svc." + d +
                      R"("},"spec":{"selector":{"app":")" + d + R"("},"ports":[{"port":80}]}})");
  b.objects.push_back(R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"name":")" + rs +
                      R"(","uid":")" + ns + "." + rs + "\"," + meta + R"(},"spec":{"replicas":)" +
                      std::to_string(replicas) + R"(,"selector":{"matchLabels":{"app":")" + d +
                      R"(","pod-template-hash":")" + hash + "\"}}}}");
  JsonPtr pod(cJSON_Duplicate(tmpl, true));
  cJSON* pod_meta = Child(pod.get(), "metadata");
  cJSON* labels = Child(pod_meta, "labels");
  SetString(labels, "app", d);
  SetString(labels, "pod-template-hash", hash);
  cJSON_DeleteItemFromObjectCaseSensitive(pod_meta, "ownerReferences");
  cJSON* owners = cJSON_AddArrayToObject(pod_meta, "ownerReferences");
  cJSON* owner = cJSON_CreateObject();
  cJSON_AddStringToObject(owner, "apiVersion", "apps/v1");
  cJSON_AddStringToObject(owner, "kind", "ReplicaSet");
  cJSON_AddStringToObject(owner, "name", rs.c_str());
  cJSON_AddStringToObject(owner, "uid", (ns + "." + rs).c_str());
  cJSON_AddBoolToObject(owner, "controller", true);
  cJSON_AddBoolToObject(owner, "blockOwnerDeletion", true);
  cJSON_AddItemToArray(owners, owner);
  for (int i = 0; i < replicas; ++i) {
    std::string name = rs + Indexed("-", i);
    b.pods.push_back(MakePod(pod.get(), ns, name));
    b.names.push_back(ns + "/" + name);
  }
  return b;
}

// Moves `from`'s objects, pods and names to the end of `to`'s.
void Append(PodBatch&& from, PodBatch* to) {
  for (auto v : {&PodBatch::objects, &PodBatch::pods, &PodBatch::names}) {
    auto& src = from.*v;
    (to->*v).insert((to->*v).end(), std::make_move_iterator(src.begin()),
                    std::make_move_iterator(src.end()));
  }
}

// The `count` Deployments of a createDeployments op (plan.h), numbered on
// from *deployments: init batches, the measured batch, or a Rollover's
// rounds (with their spare nodes from `nodes`).
void AddDeployments(const cJSON* op, const cJSON* params, const cJSON* tmpl, const std::string& ns,
                    int count, bool measured, NodeMaker* nodes, int* deployments, Plan* plan) {
  int replicas = CountParam(GetString(op, "replicasParam"), params, 1);
  if (measured && Get(op, "replaceNodesParam") != nullptr) {
    if (nodes == nullptr) {
      throw PlanError("createDeployments with replaceNodesParam before createNodes");
    }
    Rollover& r = plan->rollover.emplace();
    r.replace_nodes = CountParam(GetString(op, "replaceNodesParam"), params, plan->scale);
    for (int i = 0; i < count * r.replace_nodes; ++i) r.spare_nodes.push_back(nodes->Make(plan));
  }
  for (int i = 0; i < count; ++i) {
    PodBatch b = MakeDeployment(tmpl, ns, (*deployments)++, replicas);
    if (!measured) {
      plan->init.push_back(std::move(b));
    } else if (plan->rollover) {
      PodBatch copy = b;
      Append(std::move(copy), &plan->measured);
      plan->rollover->rounds.push_back(std::move(b));
    } else {
      Append(std::move(b), &plan->measured);
    }
  }
}

// A churn op's templates and mode (plan.h, Churn).
Churn MakeChurn(const std::string& corpus, const cJSON* op, int op_index) {
  Churn churn;
  const std::string mode = GetString(op, "mode");
  if (mode != "create" && mode != "recreate") throw PlanError("churn mode " + mode);
  churn.recreate = mode == "recreate";
  if (cJSON* n = Get(op, "number"); cJSON_IsNumber(n)) churn.number = n->valueint;
  if (churn.recreate && churn.number < 1) throw PlanError("recreate churn with number < 1");
  churn.namespace_name = "namespace-" + std::to_string(op_index);
  const cJSON* path;
  cJSON_ArrayForEach(path, Get(op, "templatePaths")) {
    JsonPtr tmpl = ReadTemplate(corpus, cJSON_IsString(path) ? path->valuestring : "");
    const std::string kind = GetString(tmpl.get(), "kind");
    if (kind != "Pod" && kind != "Node" && kind != "Service") {
      throw PlanError("churn template of kind " + kind);
    }
    churn.templates.push_back(Print(tmpl.get()));
  }
  if (churn.templates.empty()) throw PlanError("churn op without templatePaths");
  cJSON* interval = Get(op, "intervalMilliseconds");
  // scheduler_perf's default interval (executor.go runChurnOp).
  churn.interval_ms = cJSON_IsNumber(interval) ? interval->valueint : 500;
  return churn;
}

}  // namespace

const std::vector<std::string>& KnownWorkloads() {
  static const std::vector<std::string> names = {
      "SchedulingBasic",
      "SchedulingNodeAffinity",
      "SchedulingPodAntiAffinity",
      "SchedulingPodAffinity",
      "SchedulingPreferredPodAffinity",
      "TopologySpreading",
      "Preemption",
      "Unschedulable",
      "SchedulingOwnedPods",
      "SchedulingOwnedChurn",
      "SchedulingWithMixedChurn",
  };
  return names;
}

Plan LoadPlan(const std::string& corpus, const std::string& workload, int nodes,
              const std::string& entry_name) {
  auto it = Sources().find(workload);
  if (it == Sources().end()) throw PlanError("unknown workload " + workload);
  JsonPtr file = ReadJson(corpus + "/workloads/" + it->second.file + ".performance-config.json");
  const cJSON* testcase = nullptr;
  const cJSON* tc;
  cJSON_ArrayForEach(tc, file.get()) {
    if (GetString(tc, "name") == it->second.testcase) testcase = tc;
  }
  if (testcase == nullptr) throw PlanError("no test case " + std::string(it->second.testcase));

  Plan plan;
  plan.workload = workload;
  const cJSON* entry = PickEntry(testcase, nodes, entry_name, &plan.scale);
  plan.entry = GetString(entry, "name");
  const cJSON* params = Get(entry, "params");
  std::string default_pod = GetString(testcase, "defaultPodTemplatePath");

  std::optional<NodeMaker> node_maker;
  int deployments = 0;
  int op_index = 0;
  const cJSON* op;
  cJSON_ArrayForEach(op, Get(testcase, "workloadTemplate")) {
    std::string opcode = GetString(op, "opcode");
    if (opcode == "createNodes") {
      node_maker = AddNodes(corpus, op, nodes, &plan);
    } else if (opcode == "createNamespaces") {
      for (int i = 0; i < Count(op, params, 1); ++i) {
        std::string name = GetString(op, "prefix") + "-" + std::to_string(i);
        plan.namespaces.push_back(R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" +
                                  name + "\"}}");
      }
    } else if (opcode == "createPods" || opcode == "createDeployments") {
      std::string path = GetString(op, "podTemplatePath");
      if (path.empty()) path = default_pod.empty() ? "pod-default.json" : default_pod;
      JsonPtr tmpl = ReadTemplate(corpus, path);
      std::string ns = GetString(op, "namespace");
      if (ns.empty()) ns = "namespace-" + std::to_string(op_index);
      const int count = Count(op, params, plan.scale);
      const bool measured = cJSON_IsTrue(Get(op, "collectMetrics"));
      if (opcode == "createDeployments") {
        AddDeployments(op, params, tmpl.get(), ns, count, measured,
                       node_maker ? &*node_maker : nullptr, &deployments, &plan);
      } else {
        std::string prefix = GenerateName(tmpl.get());
        PodBatch batch;
        for (int i = 0; i < count; ++i) {
          std::string name = Indexed(prefix, i);
          batch.pods.push_back(MakePod(tmpl.get(), ns, name));
          batch.names.push_back(ns + "/" + name);
        }
        if (measured) {
          plan.measured = std::move(batch);
        } else {
          plan.init.push_back(std::move(batch));
        }
      }
    } else if (opcode == "churn") {
      plan.churn = MakeChurn(corpus, op, op_index);
    } else {
      throw PlanError("unsupported opcode " + opcode);
    }
    ++op_index;
  }
  if (plan.measured.pods.empty()) throw PlanError("no createPods op with collectMetrics");
  return plan;
}

std::vector<ChurnEvent> ChurnTick(const Churn& churn, int tick) {
  // Slot tick % number; its rounds alternate create (even) and delete
  // (odd), and the object deleted is the one its previous round made.
  const int slot = churn.recreate ? tick % churn.number : 0;
  const int round = churn.recreate ? tick / churn.number : 0;
  const bool deleted = churn.recreate && round % 2 == 1;
  const int index = churn.recreate ? round / 2 * churn.number + slot : tick;
  std::vector<ChurnEvent> events;
  for (const std::string& t : churn.templates) {
    JsonPtr tmpl(cJSON_Parse(t.c_str()));
    ChurnEvent e;
    e.deleted = deleted;
    e.kind = GetString(tmpl.get(), "kind");
    const std::string name = Indexed(GenerateName(tmpl.get()), index);
    if (e.kind == "Pod") {
      e.name = churn.namespace_name + "/" + name;
      e.object = MakePod(tmpl.get(), churn.namespace_name, name);
    } else {
      e.name = name;
      e.object = MakeChurnObject(tmpl.get(), churn.namespace_name, name);
    }
    events.push_back(std::move(e));
  }
  return events;
}

}  // namespace bench
