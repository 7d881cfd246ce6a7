#include "capi/result_json.h"

#include <unordered_set>

#include "capi/json_writer.h"
#include "sched/sched.h"

namespace sched::capi {
namespace {

void WriteNodeStatus(JsonWriter& w, const NodeInfo& node, const Status& s) {
  w.BeginObject();
  w.Key("node").String(node.node()->name);
  w.Key("code").String(CodeName(s.code()));
  w.Key("plugin").String(s.plugin());
  w.Key("reasons").BeginArray();
  for (std::string_view reason : s.reasons()) w.String(reason);
  w.EndArray();
  w.EndObject();
}

// Every rejected node: Filter failures in evaluation order, then, when no
// node was chosen, each remaining node with the status PreFilter gave them
// all (NodeToStatus.AbsentNodesStatus).
void WriteNodeStatuses(JsonWriter& w, const ScheduleResult& r, const ClusterState& state) {
  w.Key("nodeStatuses").BeginArray();
  std::unordered_set<const NodeInfo*> listed;
  for (const NodeFailure& f : r.failures) {
    WriteNodeStatus(w, *f.node, f.status);
    listed.insert(f.node);
  }
  if (r.node.empty() && r.absent_status) {
    for (const NodeInfo* node : state.NodeList()) {
      if (!listed.count(node)) WriteNodeStatus(w, *node, *r.absent_status);
    }
  }
  w.EndArray();
}

void WriteScores(JsonWriter& w, const ScheduleResult& r) {
  w.Key("scores").BeginObject();
  w.Key("plugins").BeginArray();
  for (std::string_view plugin : r.score_plugins) w.String(plugin);
  w.EndArray();
  w.Key("nodes").BeginArray();
  for (size_t i = 0; i < r.scored_nodes.size(); ++i) {
    w.BeginObject();
    w.Key("node").String(r.scored_nodes[i]->node()->name);
    w.Key("totalScore").Int(r.total_scores[i]);
    w.Key("scores").BeginArray();
    for (size_t p = 0; p < r.score_plugins.size(); ++p) w.Int(r.PluginScore(p, i));
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string ApplySummaryJson(const ApplySummary& summary) {
  JsonWriter w;
  w.BeginObject();
  w.Key("applied").Int(summary.applied);
  w.Key("ignored").BeginObject();
  for (const auto& [kind, n] : summary.ignored) w.Key(kind).Int(n);
  w.EndObject();
  w.Key("pendingPods").Int(summary.pending_pods);
  w.EndObject();
  return w.str();
}

std::string ScheduleResultJson(const Pod& pod, const ScheduleResult& r,
                               const ClusterState& state, uint32_t flags, bool assumed) {
  const bool scheduled = !r.node.empty();
  // schedulingCycle reports ErrNoNodesAvailable as UnschedulableAndUnresolvable,
  // not as an error.
  const bool error = r.error && r.num_all_nodes > 0;
  JsonWriter w;
  w.BeginObject();
  w.Key("pod").String(PodKey(pod));
  w.Key("node");
  if (scheduled) {
    w.String(r.node);
  } else {
    w.Null();
  }
  w.Key("reason").String(scheduled ? "Scheduled" : error ? "SchedulerError" : "Unschedulable");
  if (!scheduled) w.Key("message").String(r.message);
  w.Key("numAllNodes").Int(r.num_all_nodes);
  w.Key("evaluatedNodes").Int(r.evaluated_nodes);
  w.Key("feasibleNodes").Int(r.feasible_nodes);
  w.Key("assumed").Bool(assumed);
  if (!r.nominated_node.empty()) {
    // Preemption: the caller deletes the victims and records the node in
    // the pod's status.nominatedNodeName; the engine changes neither.
    w.Key("nominatedNodeName").String(r.nominated_node);
    w.Key("victims").BeginArray();
    for (const auto& v : r.victims) {
      w.BeginObject();
      w.Key("namespace").String(v->ns);
      w.Key("name").String(v->name);
      w.Key("uid").String(v->uid);
      w.EndObject();
    }
    w.EndArray();
  }
  if (flags & SCHED_SCHEDULE_NODE_STATUSES) WriteNodeStatuses(w, r, state);
  if (flags & SCHED_SCHEDULE_SCORES) WriteScores(w, r);
  w.EndObject();
  return w.str();
}

}  // namespace sched::capi
