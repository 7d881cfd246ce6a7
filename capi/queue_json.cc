#include "capi/queue_json.h"

#include <chrono>
#include <utility>

#include "capi/json_writer.h"

namespace sched::capi {
namespace {

int64_t Millis(Time t) { return std::chrono::duration_cast<std::chrono::milliseconds>(t).count(); }

}  // namespace

std::string QueueJson(const QueueReport& queue) {
  JsonWriter w;
  w.BeginObject();
  w.Key("nowMillis").Int(Millis(queue.now));
  w.Key("schedulingCycle").Int(queue.scheduling_cycle);
  w.Key("pods").BeginArray();
  for (const QueuedPodView& v : queue.pods) {
    w.BeginObject();
    w.Key("pod").String(PodKey(*v.pod));
    w.Key("queue").String(v.queue);
    w.Key("attempts").Int(v.attempts);
    w.Key("unschedulablePlugins").BeginArray();
    for (const std::string& p : v.unschedulable_plugins) w.String(p);
    w.EndArray();
    if (!v.gating_plugin.empty()) w.Key("gatingPlugin").String(v.gating_plugin);
    if (v.queue != kInFlight) w.Key("queuedAtMillis").Int(Millis(v.timestamp));
    if (v.backoff_expiration) w.Key("backoffExpiresAtMillis").Int(Millis(*v.backoff_expiration));
    if (!v.nominated_node_name.empty()) w.Key("nominatedNodeName").String(v.nominated_node_name);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
