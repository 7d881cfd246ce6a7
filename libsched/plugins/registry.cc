#include "libsched/plugins/registry.h"

#include <array>
#include <map>
#include <memory>
#include <utility>

#include "libsched/plugins/default_preemption.h"
#include "libsched/plugins/dynamic_resources.h"
#include "libsched/plugins/equal_priority.h"
#include "libsched/plugins/image_locality.h"
#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/node_affinity.h"
#include "libsched/plugins/node_label.h"
#include "libsched/plugins/node_name.h"
#include "libsched/plugins/node_prefer_avoid_pods.h"
#include "libsched/plugins/node_ports.h"
#include "libsched/plugins/node_resources_balanced_allocation.h"
#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/node_unschedulable.h"
#include "libsched/plugins/node_volume_limits.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/plugins/scheduling_gates.h"
#include "libsched/plugins/selector_spread.h"
#include "libsched/plugins/service_affinity.h"
#include "libsched/plugins/taint_toleration.h"
#include "libsched/plugins/volume_binding.h"
#include "libsched/plugins/volume_restrictions.h"
#include "libsched/plugins/volume_zone.h"

namespace sched {
namespace {

using EP = ExtensionPoint;
constexpr ExtensionPoints kPreEnqueue = Bit(EP::kPreEnqueue);
constexpr ExtensionPoints kQueueSort = Bit(EP::kQueueSort);
constexpr ExtensionPoints kPreFilter = Bit(EP::kPreFilter);
constexpr ExtensionPoints kFilter = Bit(EP::kFilter);
constexpr ExtensionPoints kPostFilter = Bit(EP::kPostFilter);
constexpr ExtensionPoints kPreScore = Bit(EP::kPreScore);
constexpr ExtensionPoints kScore = Bit(EP::kScore);
constexpr ExtensionPoints kPermit = Bit(EP::kPermit);
constexpr ExtensionPoints kBind = Bit(EP::kBind);

template <class T>
std::unique_ptr<Plugin> Make(const PluginArgs&) {
  return std::make_unique<T>();
}

// One row per plugin. Rows without a factory are upstream plugins the
// engine does not run; their points are upstream's.
constexpr RegistryEntry kRegistry[] = {
    {"SchedulingGates", kPreEnqueue, Make<SchedulingGates>},
    {"PrioritySort", kQueueSort, nullptr},
    {"NodeUnschedulable", kPreFilter | kFilter, Make<NodeUnschedulable>},
    {"NodeName", kFilter, Make<NodeName>},
    {"TaintToleration", kFilter | kPreScore | kScore, Make<TaintToleration>},
    {"NodeAffinity", kPreFilter | kFilter | kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<NodeAffinity>(a.node_affinity);
     }},
    {"NodePorts", kPreFilter | kFilter, Make<NodePorts>},
    {"NodeResourcesFit", kPreFilter | kFilter | kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<NodeResourcesFit>(a.node_resources_fit);
     }},
    {"VolumeRestrictions", kPreFilter | kFilter, Make<VolumeRestrictions>},
    {"NodeVolumeLimits", kPreFilter | kFilter, Make<NodeVolumeLimits>},
    // Upstream's also has Reserve/PreBind (the caller binds) and a Score that
    // skips unless the StorageCapacityScoring gate is on (off in v1.36).
    {"VolumeBinding", kPreFilter | kFilter, Make<VolumeBinding>},
    {"VolumeZone", kPreFilter | kFilter, Make<VolumeZone>},
    {"PodTopologySpread", kPreFilter | kFilter | kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<PodTopologySpread>(a.pod_topology_spread);
     }},
    {"InterPodAffinity", kPreFilter | kFilter | kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<InterPodAffinity>(a.inter_pod_affinity);
     }},
    {"DefaultPreemption", kPostFilter,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<DefaultPreemption>(a.default_preemption);
     }},
    {"NodeResourcesBalancedAllocation", kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<NodeResourcesBalancedAllocation>(
           a.node_resources_balanced_allocation);
     }},
    {"ImageLocality", kPreScore | kScore, Make<ImageLocality>},
    {"DefaultBinder", kBind, nullptr},
    // Upstream's also has Reserve and PreBind; the engine assumes claims
    // where those run (AssumePodClaims, docs/dra.md).
    {"DynamicResources", kPreEnqueue | kPreFilter | kFilter | kPostFilter | kScore,
     Make<DynamicResources>},
    {"NodeDeclaredFeatures", kPreFilter | kFilter, nullptr},
    {"GangScheduling", kPreEnqueue | kPermit, nullptr},
    // Placement* points only, which the engine has none of.
    {"TopologyAware", 0, nullptr},
    {"PodGroupPodsCount", 0, nullptr},
    // Legacy plugins for v1.10 Policy users (docs/policy.md).
    {"NodeLabel", kPreFilter | kFilter | kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<NodeLabel>(a.node_label);
     }},
    {"EqualPriority", kScore, Make<EqualPriority>},
    {"ServiceAffinity", kPreFilter | kFilter | kPreScore | kScore,
     [](const PluginArgs& a) -> std::unique_ptr<Plugin> {
       return std::make_unique<ServiceAffinity>(a.service_affinity);
     }},
    {"SelectorSpread", kPreScore | kScore, Make<SelectorSpread>},
    {"NodePreferAvoidPods", kScore, Make<NodePreferAvoidPods>},
};

}  // namespace

std::span<const RegistryEntry> InTreeRegistry() { return kRegistry; }

const RegistryEntry* FindPlugin(std::string_view name) {
  for (const RegistryEntry& e : kRegistry) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

PluginsConfig DefaultPlugins() {
  PluginsConfig c;
  c.multi_point.enabled = {
      {"SchedulingGates"},
      {"PrioritySort"},
      {"NodeUnschedulable"},
      {"NodeName"},
      {"TaintToleration", 3},
      {"NodeAffinity", 2},
      {"NodePorts"},
      {"NodeResourcesFit", 1},
      {"VolumeRestrictions"},
      {"NodeVolumeLimits"},
      {"VolumeBinding"},
      {"VolumeZone"},
      {"PodTopologySpread", 2},
      {"InterPodAffinity", 2},
      // applyDynamicResources (DynamicResourceAllocation is on in v1.36).
      {"DynamicResources", 2},
      {"DefaultPreemption"},
      {"NodeResourcesBalancedAllocation", 1},
      {"ImageLocality", 1},
      {"DefaultBinder"},
  };
  return c;
}

Profile BuildProfile(std::string scheduler_name, const ExpandedPlugins& plugins,
                     const PluginArgs& args) {
  Profile p(std::move(scheduler_name));
  // pluginsNeeded: one instance per name, whatever points enable it,
  // created in order of first appearance.
  std::map<std::string_view, Plugin*> instances;
  for (size_t i = 0; i < kNumExtensionPoints; ++i) {
    for (const PluginRef& r : plugins[i]) {
      auto [it, added] = instances.try_emplace(r.name, nullptr);
      if (added) {
        const RegistryEntry* e = FindPlugin(r.name);
        if (e->factory != nullptr) it->second = p.Own(e->factory(args));
      }
      if (it->second != nullptr) p.Enable(static_cast<ExtensionPoint>(i), it->second, r.weight);
    }
  }
  return p;
}

Profile NewDefaultProfile(std::string scheduler_name, const PluginArgs& args) {
  return BuildProfile(
      std::move(scheduler_name),
      ExpandPlugins(DefaultPlugins(), [](std::string_view n) { return FindPlugin(n)->points; }),
      args);
}

}  // namespace sched
