// NodePorts: rejects nodes where a host port the pod asks for is already in
// use. Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go and
// the conflict rule of fwk.HostPortInfo.CheckConflict
// (staging/src/k8s.io/kube-scheduler/framework/types.go): same protocol and
// port, and either IP is 0.0.0.0 (an empty IP counts as 0.0.0.0) or the IPs
// are equal.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_PORTS_H_
#define LIBSCHED_PLUGINS_NODE_PORTS_H_

#include <span>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class NodePorts final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodePorts";
  // ErrReason.
  static constexpr std::string_view kReason =
      "node(s) didn't have free ports for the requested pod ports";

  std::string_view Name() const override { return kName; }
  // Pod Delete: Queue when the deleted pod was bound or nominated and held
  // a host port that conflicts with the pod's; Node Add without a hint.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // Skip when the pod requests no host port.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // Unschedulable (preemption may free the port) on a conflict.
  // REQUIRES: PreFilter returned Success in this cycle (else Error, as
  // upstream).
  Status Filter(const CycleState& state, const Pod& pod,
                const NodeInfo& node) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the verdict reads only the node and the pod.
  bool FilterIsNodeLocal(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }

  // Whether every wanted port is free given the ports in use (fitsPorts).
  static bool FitsPorts(std::span<const HostPort> want, std::span<const HostPort> used);
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_PORTS_H_
