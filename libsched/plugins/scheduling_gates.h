// SchedulingGates: keeps a pod with spec.schedulingGates out of activeQ
// until the last gate is removed. Mirrors
// pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_SCHEDULING_GATES_H_
#define LIBSCHED_PLUGINS_SCHEDULING_GATES_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"

namespace sched {

class SchedulingGates final : public PreEnqueuePlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "SchedulingGates";

  std::string_view Name() const override { return kName; }
  // UnschedulableAndUnresolvable "waiting for scheduling gates: [a b]" while
  // the pod has gates (names in spec order, as Go prints a []string).
  Status PreEnqueue(const Pod& pod, const ClusterState& cluster) const override;
  // Pod UpdatePodSchedulingGatesEliminated: Queue for the pod's own update.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_SCHEDULING_GATES_H_
