#include "libsched/plugins/dynamic_resources.h"

namespace sched {

std::vector<ClusterEventWithHint> DynamicResources::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  return {};
}

Status DynamicResources::PreFilter(CycleState& /*state*/, const Pod& pod,
                                   const ClusterState& /*snapshot*/,
                                   PreFilterResult* /*result*/) const {
  if (!!pod.resource_claims.empty()) return Status(Code::kSkip);
  return Status(Code::kUnschedulableAndUnresolvable, kUnsupported);
}

void DynamicResources::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.Add(static_cast<int64_t>(!pod.resource_claims.empty()));
}

}  // namespace sched
