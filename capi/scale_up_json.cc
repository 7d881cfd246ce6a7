#include "capi/scale_up_json.h"

#include <string_view>
#include <utility>
#include <vector>

#include "capi/json_writer.h"
#include "libsched/state/cluster_state.h"

namespace sched::capi {
namespace {

void Placements(JsonWriter& w, std::span<const std::shared_ptr<const Pod>> pods,
                const std::vector<std::pair<size_t, std::string>>& placed) {
  w.BeginArray();
  for (const auto& [pod, node] : placed) {
    w.BeginObject();
    w.Key("pod").String(PodKey(*pods[pod]));
    w.Key("node").String(node);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

std::string ScaleUpJson(std::span<const std::shared_ptr<const Pod>> pods,
                        std::span<const NodeTemplate> templates, const ScaleUpResult& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("existing");
  Placements(w, pods, r.existing);
  // Per template, the kNoFit message of each pod (for "unhelped").
  std::vector<std::vector<std::string_view>> no_fit(templates.size());
  w.Key("templates").BeginArray();
  for (size_t t = 0; t < r.templates.size(); ++t) {
    const TemplateEstimate& e = r.templates[t];
    no_fit[t].resize(pods.size());
    w.BeginObject();
    w.Key("template").String(templates[t].node->name);
    w.Key("nodes").Int(e.nodes);
    w.Key("newNodes").BeginArray();
    for (const auto& [node, n] : e.new_nodes) {
      w.BeginObject();
      w.Key("node").String(node);
      w.Key("pods").Int(n);
      w.EndObject();
    }
    w.EndArray();
    w.Key("placements");
    Placements(w, pods, e.placements);
    w.Key("pending").BeginArray();
    for (const ScaleUpPending& p : e.pending) {
      w.BeginObject();
      w.Key("pod").String(PodKey(*pods[p.pod]));
      w.Key("reason").String(ScaleUpReasonName(p.reason));
      w.Key("message").String(p.message);
      w.EndObject();
      if (p.reason == ScaleUpReason::kNoFit) no_fit[t][p.pod] = p.message;
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.Key("unhelped").BeginArray();
  for (size_t pod : r.unhelped) {
    w.BeginObject();
    w.Key("pod").String(PodKey(*pods[pod]));
    w.Key("reasons").BeginArray();
    for (size_t t = 0; t < templates.size(); ++t) {
      w.BeginObject();
      w.Key("template").String(templates[t].node->name);
      w.Key("message").String(no_fit[t][pod]);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
