#include "libsched/plugins/pod_topology_spread.h"

#include <utility>

namespace sched {

PodTopologySpread::PodTopologySpread(PodTopologySpreadArgs args) : args_(std::move(args)) {}

}  // namespace sched
