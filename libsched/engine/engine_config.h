// EngineConfig: what an Engine is built from, in model types. capi decodes
// it from a KubeSchedulerConfiguration (or a legacy Policy) document.
#ifndef LIBSCHED_ENGINE_ENGINE_CONFIG_H_
#define LIBSCHED_ENGINE_ENGINE_CONFIG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "libsched/framework/plugins_config.h"
#include "libsched/plugins/registry.h"

namespace sched {

struct ProfileConfig {
  std::string scheduler_name;
  int32_t percentage_of_nodes_to_score = 0;  // 0 = adaptive
  PluginArgs plugin_args;                    // from pluginConfig
  // The plugins per extension point: the defaults merged with `plugins`
  // and expanded (ExpandPlugins), validated against the registry.
  ExpandedPlugins plugins;
  // Policy's alwaysCheckAllPredicates (Profile::run_all_filters).
  bool run_all_filters = false;
};

struct EngineConfig {
  std::vector<ProfileConfig> profiles;  // at least one, names unique
  uint64_t seed = 0;                    // seeds selectHost's random source
  // Threads a cycle's Filter and Score run on (the calling one included);
  // 0: std::thread::hardware_concurrency(). Capped at kMaxParallelismThreads.
  int32_t parallelism = 0;
  // The scheduling queue's backoff, in seconds: 1 <= initial <= max.
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 10;
  // "equivalenceCache": reuse per-node results across pods of one class
  // (libsched/ecache). Never changes a result.
  bool equivalence_cache = true;
};

// Threads an engine starts for `parallelism`: a larger value is accepted
// (upstream validates only > 0) and runs on this many, since every thread
// is started up front and results do not depend on the count.
inline constexpr int kMaxParallelismThreads = 256;

}  // namespace sched

#endif  // LIBSCHED_ENGINE_ENGINE_CONFIG_H_
