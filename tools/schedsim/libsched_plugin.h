// The kube-scheduler fork's LibSched plugin in a --config file
// (kube-scheduler/examples/config.yaml, config-algorithm.yaml). A profile
// that enables LibSched has this engine decide: in either mode the fork
// runs the engine's default profile, configured by LibSched's args
// (kube-scheduler/plugin/args.go, engineConfig), for the plugins LibSched
// replaces, and the engine implements the rest of the default plugins too.
// So schedsim runs such a profile as the engine's default profile under its
// schedulerName: its plugins and pluginConfig are dropped (and named on
// stderr), LibSched's args kept where they mean something to the engine.
#ifndef TOOLS_SCHEDSIM_LIBSCHED_PLUGIN_H_
#define TOOLS_SCHEDSIM_LIBSCHED_PLUGIN_H_

#include <ostream>
#include <string>

#include "json.h"

namespace schedsim {

// Rewrites each profile of the KubeSchedulerConfiguration `config` (not a
// Policy) that enables LibSched at any extension point: drops its plugins
// and pluginConfig; in Algorithm mode sets its percentageOfNodesToScore to
// LibSched's (0, adaptive, by default), as the fork's engine config does;
// takes LibSched's seed as the config's "seed" when it has none (--seed
// still overrides). Names each rewritten profile on `err`. Throws
// InputError (at `file` and the field) for args the fork refuses: a mode
// other than Plugin or Algorithm, a percentageOfNodesToScore outside
// 0..100, a seed that is no unsigned integer.
void ResolveLibSchedProfiles(cJSON* config, const std::string& file, std::ostream& err);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_LIBSCHED_PLUGIN_H_
