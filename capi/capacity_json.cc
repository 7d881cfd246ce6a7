#include "capi/capacity_json.h"

#include <utility>

#include "capi/json_writer.h"
#include "libsched/state/cluster_state.h"

namespace sched::capi {

std::string CapacityJson(const Pod& tmpl, const CapacityResult& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("pod").String(PodKey(tmpl));
  w.Key("replicas").Int(r.replicas);
  w.Key("capped").Bool(r.capped);
  w.Key("message").String(r.message);
  w.Key("nodes").BeginArray();
  for (const auto& [node, n] : r.nodes) {
    w.BeginObject();
    w.Key("node").String(node);
    w.Key("replicas").Int(n);
    w.EndObject();
  }
  w.EndArray();
  w.Key("placements").BeginArray();
  for (const std::string& node : r.placements) w.String(node);
  w.EndArray();
  w.EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
