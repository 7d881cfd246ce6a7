#include "libsched/plugins/registry.h"

#include <memory>

#include "libsched/plugins/default_preemption.h"
#include "libsched/plugins/image_locality.h"
#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/node_affinity.h"
#include "libsched/plugins/node_name.h"
#include "libsched/plugins/node_ports.h"
#include "libsched/plugins/node_resources_balanced_allocation.h"
#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/node_unschedulable.h"
#include "libsched/plugins/node_volume_limits.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/plugins/scheduling_gates.h"
#include "libsched/plugins/taint_toleration.h"
#include "libsched/plugins/volume_binding.h"
#include "libsched/plugins/volume_restrictions.h"
#include "libsched/plugins/volume_zone.h"

namespace sched {

Profile NewDefaultProfile(std::string scheduler_name, const PluginArgs& args) {
  Profile p(std::move(scheduler_name));
  // MultiPoint order and weights of default_plugins.go (v1.36.3).
  p.Add(std::make_unique<SchedulingGates>());
  p.Add(std::make_unique<NodeUnschedulable>());
  p.Add(std::make_unique<NodeName>());
  p.Add(std::make_unique<TaintToleration>(), 3);
  p.Add(std::make_unique<NodeAffinity>(args.node_affinity), 2);
  p.Add(std::make_unique<NodePorts>());
  p.Add(std::make_unique<NodeResourcesFit>(args.node_resources_fit), 1);
  p.Add(std::make_unique<VolumeRestrictions>());
  p.Add(std::make_unique<NodeVolumeLimits>());
  p.Add(std::make_unique<VolumeBinding>());
  p.Add(std::make_unique<VolumeZone>());
  p.Add(std::make_unique<PodTopologySpread>(args.pod_topology_spread), 2);
  p.Add(std::make_unique<InterPodAffinity>(args.inter_pod_affinity), 2);
  p.Add(std::make_unique<DefaultPreemption>(args.default_preemption));
  p.Add(std::make_unique<NodeResourcesBalancedAllocation>(
                args.node_resources_balanced_allocation), 1);
  p.Add(std::make_unique<ImageLocality>(), 1);
  return p;
}

}  // namespace sched
