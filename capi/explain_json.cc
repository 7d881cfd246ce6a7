#include "capi/explain_json.h"

#include <utility>

#include "capi/json_writer.h"
#include "libsched/state/cluster_state.h"

namespace sched::capi {
namespace {

// "plugin", "code", "reasons" of one verdict, inside an open object.
void WriteVerdictFields(JsonWriter& w, const PluginVerdict& v) {
  w.Key("plugin").String(v.plugin);
  w.Key("code").String(CodeName(v.code));
  w.Key("reasons").BeginArray();
  for (const std::string& r : v.reasons) w.String(r);
  w.EndArray();
}

void WriteNearMiss(JsonWriter& w, const NearMiss& m) {
  w.BeginObject();
  w.Key("plugin").String(m.plugin);
  w.Key("reasons").BeginArray();
  for (const std::string& r : m.reasons) w.String(r);
  w.EndArray();
  if (!m.taint.empty()) w.Key("taint").String(m.taint);
  if (!m.shortfalls.empty()) {
    w.Key("shortfalls").BeginArray();
    for (const Shortfall& s : m.shortfalls) {
      w.BeginObject();
      w.Key("resource").String(s.resource);
      w.Key("amount").Int(s.amount);
      w.Key("quantity").String(FormatShortfall(s));
      w.EndObject();
    }
    w.EndArray();
  }
  w.Key("nodes").Int(m.nodes);
  w.Key("exampleNode").String(m.example_node);
  w.Key("text").String(m.text);
  w.EndObject();
}

void WriteNode(JsonWriter& w, const NodeExplanation& n) {
  w.BeginObject();
  w.Key("node").String(n.node);
  w.Key("feasible").Bool(n.verdict.code == Code::kSuccess);
  WriteVerdictFields(w, n.verdict);
  w.Key("filters").BeginArray();
  for (const PluginVerdict& v : n.filters) {
    w.BeginObject();
    WriteVerdictFields(w, v);
    w.EndObject();
  }
  w.EndArray();
  w.Key("scores").BeginArray();
  for (const PluginScore& s : n.scores) {
    w.BeginObject();
    w.Key("raw").Int(s.raw);
    w.Key("normalized").Int(s.normalized);
    w.Key("weighted").Int(s.weighted);
    w.EndObject();
  }
  w.EndArray();
  w.Key("totalScore").Int(n.total_score);
  w.EndObject();
}

}  // namespace

std::string ExplainJson(const Pod& pod, const Explanation& e) {
  JsonWriter w;
  w.BeginObject();
  w.Key("pod").String(PodKey(pod));
  w.Key("error").Bool(e.error);
  w.Key("message").String(e.message);
  w.Key("summary").String(e.summary);
  w.Key("numAllNodes").Int(e.num_all_nodes);
  w.Key("feasibleNodes").Int(e.feasible_nodes);
  if (e.pre_filter_rejected) {
    w.Key("preFilter").BeginObject();
    WriteVerdictFields(w, e.pre_filter);
    w.EndObject();
  }
  w.Key("reasons").BeginArray();
  for (const ReasonCount& r : e.reasons) {
    w.BeginObject();
    w.Key("reason").String(r.reason);
    w.Key("nodes").Int(r.nodes);
    w.EndObject();
  }
  w.EndArray();
  w.Key("nearestMisses").BeginArray();
  for (const NearMiss& m : e.nearest_misses) WriteNearMiss(w, m);
  w.EndArray();
  w.Key("scorePlugins").BeginArray();
  for (size_t p = 0; p < e.score_plugins.size(); ++p) {
    w.BeginObject();
    w.Key("name").String(e.score_plugins[p]);
    w.Key("weight").Int(e.score_weights[p]);
    w.EndObject();
  }
  w.EndArray();
  w.Key("nodes").BeginArray();
  for (const NodeExplanation& n : e.nodes) WriteNode(w, n);
  w.EndArray();
  w.EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
