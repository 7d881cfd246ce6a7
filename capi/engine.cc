#include "capi/engine.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "capi/capacity_json.h"
#include "capi/decode.h"
#include "capi/drain_json.h"
#include "capi/explain_json.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/nodes_json.h"
#include "capi/queue_json.h"
#include "capi/result_json.h"
#include "capi/scale_up_json.h"
#include "capi/stats_json.h"
#include "sched/sched.h"

namespace sched::capi {
namespace {

constexpr uint32_t kKnownRunFlags = SCHED_SCHEDULE_NODE_STATUSES |
                                    SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE |
                                    SCHED_SCHEDULE_NODE_STATUS_GROUPS | SCHED_SCHEDULE_SCORES |
                                    SCHED_SCHEDULE_SCORE_TOTALS;
constexpr uint32_t kKnownScheduleFlags = kKnownRunFlags | SCHED_SCHEDULE_ASSUME;

ApiStatus CheckFlags(uint32_t flags, uint32_t known, const char* function) {
  if (const uint32_t unknown = flags & ~known; unknown != 0) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(unknown));
    return ApiStatus::InvalidCall(std::string("unknown flag bits ") + hex + " in " + function +
                                  " flags");
  }
  return ApiStatus();
}

ScheduleOptions Options(uint32_t flags) {
  ScheduleOptions o;
  o.assume = (flags & SCHED_SCHEDULE_ASSUME) != 0;
  o.node_statuses = (flags & SCHED_SCHEDULE_NODE_STATUSES) != 0;
  o.node_statuses_if_no_node = (flags & SCHED_SCHEDULE_NODE_STATUSES_IF_NO_NODE) != 0;
  o.scores = (flags & SCHED_SCHEDULE_SCORES) != 0;
  o.score_totals = (flags & SCHED_SCHEDULE_SCORE_TOTALS) != 0;
  return o;
}

// A pod object's "kind", if any, must be "Pod".
ApiStatus CheckPodKind(const cJSON* v, const JsonPath& at) {
  if (cJSON_IsObject(v)) {
    std::string_view kind;
    CAPI_RETURN_IF_ERROR(GetString(v, "kind", at, &kind));
    if (!kind.empty() && kind != "Pod") return Unsupported(at.Child("kind"), kind, {"Pod"});
  }
  return ApiStatus();
}

// A request object with only `fields`, one of them a required "pod" (a
// Pod object, if it has a kind); *pod points into *doc.
ApiStatus ParsePodRequest(std::string_view json, std::initializer_list<std::string_view> fields,
                          JsonDoc* doc, const cJSON** pod) {
  CAPI_RETURN_IF_ERROR(ParseJson(json, doc));
  const JsonPath root;
  CAPI_RETURN_IF_ERROR(CheckFields(doc->get(), root, fields));
  CAPI_RETURN_IF_ERROR(Member(doc->get(), "pod", root, pod));
  if (*pod == nullptr) return Required(root.Child("pod"));
  return CheckPodKind(*pod, root.Child("pod"));
}

// Decodes the pending pod at `at` with the session's interner; its
// spec.schedulerName must name a profile.
ApiStatus DecodeProfilePod(Engine::Session& s, const cJSON* v, const JsonPath& at,
                           DecodedPod* decoded) {
  CAPI_RETURN_IF_ERROR(DecodePod(v, at, s.interner(), decoded));
  if (!s.HasProfile(decoded->pod->scheduler_name)) {
    std::string msg = "no profile for schedulerName ";
    AppendJsonString(msg, decoded->pod->scheduler_name);
    return ApiStatus::Invalid(at.Child("spec").Child("schedulerName"), msg);
  }
  return ApiStatus();
}

// A request's "nodes" (under `root`): at least one name, each a non-empty
// string named once (path nodes[i]).
ApiStatus DecodeNodeNames(const cJSON* doc, const JsonPath& root, std::vector<std::string>* nodes) {
  std::unordered_set<std::string_view> seen;  // views into doc's strings
  CAPI_RETURN_IF_ERROR(ForEachElement(doc, "nodes", root, [&](const cJSON* v, const JsonPath& at) {
    std::string_view name;
    CAPI_RETURN_IF_ERROR(AsString(v, at, &name));
    if (name.empty()) return Required(at);
    if (!seen.insert(name).second) return ApiStatus::Invalid(at, "duplicate node name");
    nodes->emplace_back(name);
    return ApiStatus();
  }));
  if (nodes->empty()) return Required(root.Child("nodes"));
  return ApiStatus();
}

// Each of `nodes` is a node of the engine (with a Node object).
ApiStatus CheckNodesKnown(const Engine::Session& s, const std::vector<std::string>& nodes,
                          const JsonPath& root) {
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (s.HasNode(nodes[i])) continue;
    std::string msg = "no node named ";
    AppendJsonString(msg, nodes[i]);
    return ApiStatus::Invalid(root.Child("nodes").Index(i), msg);
  }
  return ApiStatus();
}

}  // namespace

ApiStatus EngineNew(std::string_view config_json, std::unique_ptr<Engine>* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(config_json, &doc));
  // Plugin args intern into the new engine's interner; a config that fails
  // to decode discards the engine.
  auto engine = std::make_unique<Engine>();
  EngineConfig config;
  CAPI_RETURN_IF_ERROR(DecodeConfig(doc.get(), engine->config_interner(), &config));
  engine->Configure(config);
  *out = std::move(engine);
  return ApiStatus();
}

ApiStatus EngineApply(Engine& e, std::string_view json, MallocString* summary) {
  ApplyDocument doc;
  CAPI_RETURN_IF_ERROR(ApplyDocument::Parse(json, &doc));
  Engine::Session s = e.Lock();
  ChangeSet changes;
  CAPI_RETURN_IF_ERROR(DecodeChanges(doc, s.interner(), &changes));
  // Allocate the output before mutating, so a failure leaves no trace.
  if (summary != nullptr) *summary = NewCString(ApplySummaryJson(changes.summary));
  s.Apply(changes.changes);
  return ApiStatus();
}

ApiStatus EngineSchedule(Engine& e, std::string_view pod_json, uint32_t flags,
                         MallocString* result) {
  CAPI_RETURN_IF_ERROR(CheckFlags(flags, kKnownScheduleFlags, "sched_engine_schedule"));
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(pod_json, &doc));
  CAPI_RETURN_IF_ERROR(CheckPodKind(doc.get(), JsonPath()));
  Engine::Session s = e.Lock();
  DecodedPod decoded;
  CAPI_RETURN_IF_ERROR(DecodeProfilePod(s, doc.get(), JsonPath(), &decoded));
  // Rendered before the engine commits, so a failure leaves no trace.
  s.Schedule(std::move(decoded.pod), Options(flags), [&](std::span<const PodResult> r) {
    *result = NewCString(ScheduleResultJson(r[0], flags));
  });
  return ApiStatus();
}

ApiStatus EngineExplain(Engine& e, std::string_view pod_json, MallocString* result) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(pod_json, &doc));
  CAPI_RETURN_IF_ERROR(CheckPodKind(doc.get(), JsonPath()));
  Engine::Session s = e.Lock();  // keeps nothing: the pod's strings go with it
  DecodedPod decoded;
  CAPI_RETURN_IF_ERROR(DecodeProfilePod(s, doc.get(), JsonPath(), &decoded));
  *result = NewCString(ExplainJson(*decoded.pod, s.Explain(*decoded.pod)));
  return ApiStatus();
}

ApiStatus EngineCapacity(Engine& e, std::string_view request_json, MallocString* result) {
  JsonDoc doc;
  const cJSON* pod_json = nullptr;
  CAPI_RETURN_IF_ERROR(ParsePodRequest(request_json, {"pod", "maxReplicas"}, &doc, &pod_json));
  const JsonPath root;
  int64_t max_replicas = kMaxCapacityReplicas;
  if (const cJSON* m = cJSON_GetObjectItemCaseSensitive(doc.get(), "maxReplicas");
      m != nullptr && !cJSON_IsNull(m)) {
    CAPI_RETURN_IF_ERROR(
        AsInt(m, root.Child("maxReplicas"), 1, kMaxCapacityReplicas, &max_replicas));
  }
  Engine::Session s = e.Lock();  // keeps nothing
  DecodedPod decoded;
  CAPI_RETURN_IF_ERROR(DecodeProfilePod(s, pod_json, root.Child("pod"), &decoded));
  if (!decoded.pod->node_name.empty()) {
    return ApiStatus::Invalid(root.Child("pod").Child("spec").Child("nodeName"),
                              "must be empty: a template of pending replicas");
  }
  *result = NewCString(CapacityJson(*decoded.pod, s.Capacity(*decoded.pod, max_replicas)));
  return ApiStatus();
}

ApiStatus EngineDrain(Engine& e, std::string_view request_json, MallocString* result) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(request_json, &doc));
  const JsonPath root;
  CAPI_RETURN_IF_ERROR(CheckFields(doc.get(), root, {"nodes"}));
  std::vector<std::string> nodes;
  CAPI_RETURN_IF_ERROR(DecodeNodeNames(doc.get(), root, &nodes));
  Engine::Session s = e.Lock();  // keeps nothing
  CAPI_RETURN_IF_ERROR(CheckNodesKnown(s, nodes, root));
  *result = NewCString(DrainJson(s.Drain(nodes)));
  return ApiStatus();
}

ApiStatus EngineScore(Engine& e, std::string_view request_json, MallocString* result) {
  JsonDoc doc;
  const cJSON* pod_json = nullptr;
  CAPI_RETURN_IF_ERROR(ParsePodRequest(request_json, {"pod", "nodes"}, &doc, &pod_json));
  const JsonPath root;
  std::vector<std::string> nodes;
  CAPI_RETURN_IF_ERROR(DecodeNodeNames(doc.get(), root, &nodes));
  Engine::Session s = e.Lock();
  CAPI_RETURN_IF_ERROR(CheckNodesKnown(s, nodes, root));
  DecodedPod decoded;
  CAPI_RETURN_IF_ERROR(DecodeProfilePod(s, pod_json, root.Child("pod"), &decoded));
  const ScheduleResult r = s.PrioritizeNodes(*decoded.pod, nodes);
  JsonWriter w;
  w.BeginObject().Key("error").Bool(r.error).Key("message").String(r.error ? r.message : "");
  w.Key("totalScores").BeginArray();
  if (!r.error) {
    for (int64_t t : r.total_scores) w.Int(t);
  }
  w.EndArray().EndObject();
  *result = NewCString(w.str());
  return ApiStatus();
}

ApiStatus EnginePreempt(Engine& e, std::string_view request_json, MallocString* result) {
  JsonDoc doc;
  const cJSON* pod_json = nullptr;
  CAPI_RETURN_IF_ERROR(ParsePodRequest(request_json, {"pod"}, &doc, &pod_json));
  const JsonPath root;
  Engine::Session s = e.Lock();  // keeps nothing
  DecodedPod decoded;
  CAPI_RETURN_IF_ERROR(DecodeProfilePod(s, pod_json, root.Child("pod"), &decoded));
  *result = NewCString(ScheduleResultJson(s.Preempt(*decoded.pod), 0));
  return ApiStatus();
}

ApiStatus EngineScaleUp(Engine& e, std::string_view request_json, MallocString* result) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(request_json, &doc, kMaxApplyBytes));
  const JsonPath root;
  CAPI_RETURN_IF_ERROR(CheckFields(doc.get(), root, {"pods", "nodeTemplates"}));
  for (const char* field : {"pods", "nodeTemplates"}) {
    const cJSON* m = nullptr;
    CAPI_RETURN_IF_ERROR(GetArray(doc.get(), field, root, &m));
    if (m == nullptr) return Required(root.Child(field));
  }
  Engine::Session s = e.Lock();  // keeps nothing
  std::vector<std::shared_ptr<const Pod>> pods;
  std::map<std::string, size_t, std::less<>> keys;  // pod key -> index
  CAPI_RETURN_IF_ERROR(ForEachElement(
      doc.get(), "pods", root,
      [&](const cJSON* v, const JsonPath& at) {
        CAPI_RETURN_IF_ERROR(CheckPodKind(v, at));
        DecodedPod decoded;
        CAPI_RETURN_IF_ERROR(DecodeProfilePod(s, v, at, &decoded));
        if (!decoded.pod->node_name.empty())
          return ApiStatus::Invalid(at.Child("spec").Child("nodeName"),
                                    "must be empty: a pending pod");
        std::string key = PodKey(*decoded.pod);
        if (s.HasPod(key))
          return ApiStatus::Invalid(at.Child("metadata").Child("name"), "names a bound pod " + key);
        if (auto [it, added] = keys.try_emplace(std::move(key), pods.size()); !added)
          return ApiStatus::Invalid(at.Child("metadata").Child("name"),
                                    "duplicate of pods[" + std::to_string(it->second) + "]");
        pods.push_back(std::move(decoded.pod));
        return ApiStatus();
      },
      kMaxScaleUpPods));
  std::vector<NodeTemplate> templates;
  std::map<std::string, size_t, std::less<>> names;
  CAPI_RETURN_IF_ERROR(ForEachElement(
      doc.get(), "nodeTemplates", root,
      [&](const cJSON* v, const JsonPath& at) {
        CAPI_RETURN_IF_ERROR(CheckFields(v, at, {"node", "maxNodes"}));
        NodeTemplate t;
        const cJSON* node = nullptr;
        CAPI_RETURN_IF_ERROR(GetObject(v, "node", at, &node));
        if (node == nullptr) return Required(at.Child("node"));
        const JsonPath node_at = at.Child("node");
        std::string_view kind;
        CAPI_RETURN_IF_ERROR(GetString(node, "kind", node_at, &kind));
        if (!kind.empty() && kind != "Node")
          return Unsupported(node_at.Child("kind"), kind, {"Node"});
        CAPI_RETURN_IF_ERROR(DecodeNode(node, node_at, s.interner(), &t.node));
        const JsonPath meta_at = node_at.Child("metadata");
        const JsonPath name_at = meta_at.Child("name");
        if (auto [it, added] = names.try_emplace(t.node->name, templates.size()); !added)
          return ApiStatus::Invalid(
              name_at, "duplicate of nodeTemplates[" + std::to_string(it->second) + "]");
        if (const cJSON* m = cJSON_GetObjectItemCaseSensitive(v, "maxNodes");
            m != nullptr && !cJSON_IsNull(m)) {
          CAPI_RETURN_IF_ERROR(AsInt(m, at.Child("maxNodes"), 1, kMaxScaleUpNodes, &t.max_nodes));
        }
        for (int64_t i = 0; i < t.max_nodes; ++i) {
          const std::string n = t.node->name + std::string(kScaleUpNodeInfix) + std::to_string(i);
          if (s.NodeNameTaken(n))
            return ApiStatus::Invalid(name_at, "new node name " + n + " exists");
        }
        templates.push_back(std::move(t));
        return ApiStatus();
      },
      kMaxScaleUpTemplates));
  *result = NewCString(ScaleUpJson(pods, templates, s.ScaleUp(pods, templates)));
  return ApiStatus();
}

ApiStatus EngineRun(Engine& e, uint32_t max_cycles, uint32_t flags, MallocString* result) {
  CAPI_RETURN_IF_ERROR(CheckFlags(flags, kKnownRunFlags, "sched_engine_run"));
  Engine::Session s = e.Lock();
  s.Run(max_cycles, Options(flags), [&](std::span<const PodResult> results) {
    *result = NewCString(RunResultJson(results, flags));
  });
  return ApiStatus();
}

ApiStatus EngineAdvanceClock(Engine& e, uint64_t millis) {
  if (!e.Lock().AdvanceClock(millis)) {
    return ApiStatus::InvalidCall("sched_engine_advance_clock: the clock would pass " +
                                  std::to_string(Engine::kMaxClockMillis) + " ms");
  }
  return ApiStatus();
}

ApiStatus EngineQueue(Engine& e, MallocString* result) {
  Engine::Session s = e.Lock();  // the report's pods are released under the lock
  *result = NewCString(QueueJson(s.Queue()));
  return ApiStatus();
}

ApiStatus EngineStatistics(Engine& e, MallocString* result) {
  *result = NewCString(StatsJson(e.Lock().Stats()));
  return ApiStatus();
}

ApiStatus EngineNodes(Engine& e, std::string_view query, MallocString* result) {
  JsonDoc doc;
  if (!query.empty()) CAPI_RETURN_IF_ERROR(ParseJson(query, &doc));
  // Never kept: the selector's strings go when the session ends (after
  // `atoms`, declared later), so a query leaves the interner as it was.
  Engine::Session s = e.Lock();
  NodeQuery q;
  AtomHold atoms;
  if (doc != nullptr) CAPI_RETURN_IF_ERROR(DecodeNodeQuery(doc.get(), s.interner(), &q, &atoms));
  *result = NewCString(NodesJson(s.Nodes(q)));
  return ApiStatus();
}

ApiStatus EngineBegin(Engine& e) {
  e.Lock().Begin();
  return ApiStatus();
}

ApiStatus EngineCommit(Engine& e) {
  if (!e.Lock().Commit())
    return ApiStatus::InvalidCall("sched_engine_commit: no transaction is open");
  return ApiStatus();
}

ApiStatus EngineRevert(Engine& e) {
  if (!e.Lock().Revert())
    return ApiStatus::InvalidCall("sched_engine_revert: no transaction is open");
  return ApiStatus();
}

ApiStatus EngineFork(Engine& e, std::unique_ptr<Engine>* child) {
  *child = e.Lock().Fork();
  return ApiStatus();
}

}  // namespace sched::capi
