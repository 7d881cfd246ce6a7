// Registry: builds profiles from upstream plugin names, mirroring
// pkg/scheduler/framework/plugins/registry.go and the default MultiPoint
// list in pkg/scheduler/apis/config/v1/default_plugins.go.
#ifndef LIBSCHED_PLUGINS_REGISTRY_H_
#define LIBSCHED_PLUGINS_REGISTRY_H_

#include <string>

#include "libsched/framework/profile.h"
#include "libsched/plugins/default_preemption.h"
#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/node_affinity.h"
#include "libsched/plugins/node_resources_balanced_allocation.h"
#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/plugins/service_affinity.h"

namespace sched {

inline constexpr const char* kDefaultSchedulerName = "default-scheduler";

// The default profile's plugins that the engine implements, in upstream's
// MultiPoint order with upstream's score weights: SchedulingGates
// (PreEnqueue only: the queue runs it), NodeUnschedulable,
// NodeName, TaintToleration (3), NodeAffinity (2), NodePorts,
// NodeResourcesFit (1), VolumeRestrictions, NodeVolumeLimits,
// VolumeBinding (Filter only: no score in v1.36), VolumeZone,
// PodTopologySpread (2), InterPodAffinity (2),
// NodeResourcesBalancedAllocation (1), ImageLocality (1).
// The plugin arguments a profile may set (pluginConfig); defaults as
// upstream's v1 defaults.
// REQUIRES: valid as upstream validates them (the config decoder checks;
// NodeAffinityArgs atoms come from the engine's Interner).
struct PluginArgs {
  InterPodAffinityArgs inter_pod_affinity;
  PodTopologySpreadArgs pod_topology_spread;
  NodeResourcesFitArgs node_resources_fit;
  NodeResourcesBalancedAllocationArgs node_resources_balanced_allocation;
  NodeAffinityArgs node_affinity;
  DefaultPreemptionArgs default_preemption;
  // For the legacy ServiceAffinity plugin, which no default profile runs.
  ServiceAffinityArgs service_affinity;
};

Profile NewDefaultProfile(std::string scheduler_name = kDefaultSchedulerName,
                          const PluginArgs& args = {});

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_REGISTRY_H_
