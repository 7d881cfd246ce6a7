// Registry: the in-tree plugins by name, mirroring
// pkg/scheduler/framework/plugins/registry.go, and the profiles built from
// them: the default MultiPoint list of pkg/scheduler/apis/config/v1/
// default_plugins.go, or any PluginsConfig.
//
// Thread-safety: the table is immutable; the functions are pure.
#ifndef LIBSCHED_PLUGINS_REGISTRY_H_
#define LIBSCHED_PLUGINS_REGISTRY_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "libsched/framework/plugin.h"
#include "libsched/framework/plugins_config.h"
#include "libsched/framework/profile.h"
#include "libsched/plugins/default_preemption.h"
#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/node_affinity.h"
#include "libsched/plugins/node_label.h"
#include "libsched/plugins/node_resources_balanced_allocation.h"
#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/plugins/service_affinity.h"

namespace sched {

inline constexpr const char* kDefaultSchedulerName = "default-scheduler";

// The plugin arguments a profile may set (pluginConfig); defaults as
// upstream's v1 defaults. Each factory reads its own member.
struct PluginArgs {
  InterPodAffinityArgs inter_pod_affinity;
  PodTopologySpreadArgs pod_topology_spread;
  NodeResourcesFitArgs node_resources_fit;
  NodeResourcesBalancedAllocationArgs node_resources_balanced_allocation;
  NodeAffinityArgs node_affinity;
  DefaultPreemptionArgs default_preemption;
  // For the legacy plugins, which no default profile runs.
  ServiceAffinityArgs service_affinity;
  NodeLabelArgs node_label;
};

// Makes one plugin instance from the profile's arguments.
using PluginFactory = std::unique_ptr<Plugin> (*)(const PluginArgs& args);

// One row of the registry.
struct RegistryEntry {
  std::string_view name;   // upstream's plugin name
  ExtensionPoints points;  // the points the engine's plugin implements
  // Null for a valid upstream plugin the engine has no use for (PrioritySort:
  // the queue's order is built in; DefaultBinder: the caller binds): the
  // name is accepted in a config and nothing runs.
  PluginFactory factory;
};

// Every plugin a config may name, in no particular order.
std::span<const RegistryEntry> InTreeRegistry();
// The row of `name`, or null when neither upstream nor the engine has it.
const RegistryEntry* FindPlugin(std::string_view name);

// getDefaultPlugins: the default profile's MultiPoint list, in upstream's
// order with upstream's score weights.
PluginsConfig DefaultPlugins();

// A profile running `plugins` (expanded by ExpandPlugins), each plugin
// instantiated once from `args`. REQUIRES: every name is in the registry
// and implements the points it is enabled at (the config decoder checks).
Profile BuildProfile(std::string scheduler_name, const ExpandedPlugins& plugins,
                     const PluginArgs& args);

// BuildProfile of DefaultPlugins().
Profile NewDefaultProfile(std::string scheduler_name = kDefaultSchedulerName,
                          const PluginArgs& args = {});

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_REGISTRY_H_
