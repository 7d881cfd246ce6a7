#include "capi/result_json.h"

#include <functional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "capi/json_writer.h"
#include "sched/sched.h"

namespace sched::capi {
namespace {

void WriteNodeStatuses(JsonWriter& w, const PodResult& r) {
  w.Key("nodeStatuses").BeginArray();
  for (const NodeVerdict& v : r.node_statuses) {
    w.BeginObject();
    w.Key("node").String(v.node);
    w.Key("code").String(CodeName(v.code));
    w.Key("plugin").String(v.plugin);
    w.Key("reasons").BeginArray();
    for (const std::string& reason : v.reasons) w.String(reason);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

// A verdict without its node: what nodeStatusGroups groups by.
struct SameVerdict {
  size_t operator()(const NodeVerdict* v) const {
    size_t h = std::hash<std::string_view>()(v->plugin) ^ static_cast<size_t>(v->code);
    for (const std::string& reason : v->reasons) {
      h = h * 31 + std::hash<std::string_view>()(reason);
    }
    return h;
  }
  bool operator()(const NodeVerdict* a, const NodeVerdict* b) const {
    return a->code == b->code && a->plugin == b->plugin && a->reasons == b->reasons;
  }
};

void WriteNodeStatusGroups(JsonWriter& w, const PodResult& r) {
  // Each group's verdicts (indexes into node_statuses), groups in order of
  // their first verdict.
  std::vector<std::vector<size_t>> groups;
  std::unordered_map<const NodeVerdict*, size_t, SameVerdict, SameVerdict> group_of;
  for (size_t i = 0; i < r.node_statuses.size(); ++i) {
    auto [it, added] = group_of.try_emplace(&r.node_statuses[i], groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  w.Key("nodeStatusGroups").BeginArray();
  for (const std::vector<size_t>& members : groups) {
    const NodeVerdict& v = r.node_statuses[members.front()];
    w.BeginObject();
    w.Key("code").String(CodeName(v.code));
    w.Key("plugin").String(v.plugin);
    w.Key("reasons").BeginArray();
    for (const std::string& reason : v.reasons) w.String(reason);
    w.EndArray();
    w.Key("nodes").BeginArray();
    for (size_t i : members) w.String(r.node_statuses[i].node);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

void WriteScoreTotals(JsonWriter& w, const PodResult& r) {
  // Each group's nodes (indexes into r.scores), groups in order of their
  // first node.
  std::vector<std::vector<size_t>> groups;
  std::unordered_map<int64_t, size_t> group_of;
  for (size_t i = 0; i < r.scores.size(); ++i) {
    auto [it, added] = group_of.try_emplace(r.scores[i].total, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(i);
  }
  w.Key("scoreTotals").BeginArray();
  for (const std::vector<size_t>& members : groups) {
    w.BeginObject();
    w.Key("totalScore").Int(r.scores[members.front()].total);
    w.Key("nodes").BeginArray();
    for (size_t i : members) w.String(r.scores[i].node);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

void WriteScores(JsonWriter& w, const PodResult& r) {
  w.Key("scores").BeginObject();
  w.Key("plugins").BeginArray();
  for (const std::string& plugin : r.score_plugins) w.String(plugin);
  w.EndArray();
  w.Key("nodes").BeginArray();
  for (const NodeScores& n : r.scores) {
    w.BeginObject();
    w.Key("node").String(n.node);
    w.Key("totalScore").Int(n.total);
    w.Key("scores").BeginArray();
    for (int64_t s : n.scores) w.Int(s);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

std::string_view ReasonName(Outcome o) {
  switch (o) {
    case Outcome::kScheduled:
      return "Scheduled";
    case Outcome::kError:
      return "SchedulerError";
    case Outcome::kUnschedulable:
      break;
  }
  return "Unschedulable";
}

// Writes one ScheduleResultJson object into `w`.
void WriteScheduleResult(JsonWriter& w, const PodResult& r, uint32_t flags) {
  const bool scheduled = r.outcome == Outcome::kScheduled;
  w.BeginObject();
  w.Key("pod").String(r.pod);
  w.Key("node");
  if (scheduled) {
    w.String(r.node);
  } else {
    w.Null();
  }
  w.Key("reason").String(ReasonName(r.outcome));
  if (!scheduled) w.Key("message").String(r.message);
  w.Key("numAllNodes").Int(r.num_all_nodes);
  w.Key("evaluatedNodes").Int(r.evaluated_nodes);
  w.Key("feasibleNodes").Int(r.feasible_nodes);
  w.Key("assumed").Bool(r.assumed);
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
  if (r.with_node_statuses) {
    if (flags & SCHED_SCHEDULE_NODE_STATUS_GROUPS) {
      WriteNodeStatusGroups(w, r);
    } else {
      WriteNodeStatuses(w, r);
    }
  }
  if (flags & SCHED_SCHEDULE_SCORES) WriteScores(w, r);
  if (flags & SCHED_SCHEDULE_SCORE_TOTALS) WriteScoreTotals(w, r);
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
  return std::move(w).str();
}

std::string ScheduleResultJson(const PodResult& r, uint32_t flags) {
  JsonWriter w;
  WriteScheduleResult(w, r, flags);
  return std::move(w).str();
}

std::string RunResultJson(std::span<const PodResult> results, uint32_t flags) {
  JsonWriter w;
  w.BeginObject().Key("results").BeginArray();
  for (const PodResult& r : results) WriteScheduleResult(w, r, flags);
  w.EndArray().EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
