#include "libsched/plugins/scheduling_gates.h"

#include <string>

namespace sched {

Status SchedulingGates::PreEnqueue(const Pod& pod, const ClusterState& /*cluster*/) const {
  if (pod.scheduling_gates.empty()) return Status();
  std::string msg = "waiting for scheduling gates: [";
  for (size_t i = 0; i < pod.scheduling_gates.size(); ++i) {
    if (i > 0) msg += ' ';
    msg += pod.scheduling_gates[i];
  }
  msg += ']';
  return Status::Owned(Code::kUnschedulableAndUnresolvable, std::move(msg));
}

std::vector<ClusterEventWithHint> SchedulingGates::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  auto gates_eliminated = [](const Pod& pod, const EventObject& /*old_obj*/,
                             const EventObject& new_obj) {
    const Pod* modified = AsPod(new_obj);
    if (modified == nullptr) return QueueingHint::kQueue;
    return SamePod(pod, *modified) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  };
  return {{{EventResource::kPod, action::kUpdatePodSchedulingGatesEliminated, {}},
           gates_eliminated}};
}

}  // namespace sched
