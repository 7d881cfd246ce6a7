#include "libsched/plugins/node_ports.h"

#include <memory>

namespace sched {
namespace {

// The pod's host ports, gathered when it was decoded (util.GetHostPorts);
// the pod outlives its cycle, so a view suffices.
struct PreFilterState : StateData {
  explicit PreFilterState(std::span<const HostPort> p) : ports(p) {}
  std::span<const HostPort> ports;
};

bool IsBindAll(std::string_view ip) { return ip.empty() || ip == "0.0.0.0"; }

// HostPortInfo.CheckConflict for one wanted port.
bool Conflicts(const HostPort& want, std::span<const HostPort> used) {
  const bool want_any = IsBindAll(want.ip);
  for (const HostPort& u : used) {
    if (u.port != want.port || u.protocol != want.protocol) continue;
    if (want_any || IsBindAll(u.ip) || u.ip == want.ip) return true;
  }
  return false;
}

}  // namespace

bool NodePorts::FitsPorts(std::span<const HostPort> want, std::span<const HostPort> used) {
  // Decoded host ports are all > 0, so HostPortInfo's port <= 0 case is moot.
  for (const HostPort& w : want) {
    if (Conflicts(w, used)) return false;
  }
  return true;
}

std::vector<ClusterEventWithHint> NodePorts::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  auto pod_deleted = [](const Pod& pod, const EventObject& old_obj,
                        const EventObject& /*new_obj*/) {
    const Pod* deleted = AsPod(old_obj);
    if (deleted == nullptr) return QueueingHint::kQueue;
    // A pod neither bound nor nominated held no port anywhere.
    if (deleted->node_name.empty() && deleted->nominated_node_name.empty()) {
      return QueueingHint::kQueueSkip;
    }
    if (deleted->host_ports.empty() || FitsPorts(pod.host_ports, deleted->host_ports)) {
      return QueueingHint::kQueueSkip;
    }
    return QueueingHint::kQueue;
  };
  return {
      {{EventResource::kPod, action::kDelete, {}}, pod_deleted},
      {{EventResource::kNode, action::kAdd, {}}, nullptr},
  };
}

Status NodePorts::PreFilter(CycleState& state, const Pod& pod,
                            const ClusterState& /*snapshot*/,
                            PreFilterResult* /*result*/) const {
  if (pod.host_ports.empty()) return Status(Code::kSkip);
  state.Write(slot(), std::make_shared<PreFilterState>(pod.host_ports));
  return Status();
}

Status NodePorts::Filter(const CycleState& state, const Pod& /*pod*/,
                         const NodeInfo& node) const {
  const auto* s = state.Read<PreFilterState>(slot());
  if (s == nullptr) {
    return Status::Error("reading \"PreFilterNodePorts\" from cycleState: not found");
  }
  if (!FitsPorts(s->ports, node.used_ports())) return Status(Code::kUnschedulable, kReason);
  return Status();
}

void NodePorts::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.AddAll(std::span<const HostPort>(pod.host_ports));
}

}  // namespace sched
