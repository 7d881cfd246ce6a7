#include "capi/nodes_json.h"

#include <utility>

#include "capi/json_writer.h"

namespace sched::capi {
namespace {

void WriteResource(JsonWriter& w, const ResourceReport& r) {
  w.BeginObject();
  w.Key("milliCPU").Int(r.milli_cpu);
  w.Key("memory").Int(r.memory);
  w.Key("ephemeralStorage").Int(r.ephemeral_storage);
  w.Key("allowedPodNumber").Int(r.allowed_pods);
  w.Key("scalarResources").BeginObject();
  for (const auto& [name, v] : r.scalar) w.Key(name).Int(v);
  w.EndObject();
  w.EndObject();
}

}  // namespace

std::string NodesJson(const std::vector<NodeReport>& nodes) {
  JsonWriter w;
  w.BeginObject().Key("nodes").BeginArray();
  for (const NodeReport& n : nodes) {
    w.BeginObject();
    w.Key("name").String(n.name);
    w.Key("labels").BeginObject();
    for (const auto& [k, v] : n.labels) w.Key(k).String(v);
    w.EndObject();
    w.Key("allocatable");
    WriteResource(w, n.allocatable);
    w.Key("requested");
    WriteResource(w, n.requested);
    w.Key("nonZeroRequested").BeginObject();
    w.Key("milliCPU").Int(n.non_zero_milli_cpu);
    w.Key("memory").Int(n.non_zero_memory);
    w.EndObject();
    w.Key("podCount").Int(n.pod_count);
    w.EndObject();
  }
  w.EndArray().EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
