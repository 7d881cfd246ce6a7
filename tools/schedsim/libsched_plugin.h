// The kube-scheduler fork's LibSched plugin in a --config file
// (kube-scheduler/examples/config.yaml, config-algorithm.yaml). A profile
// that enables LibSched has an engine of its own in the fork, configured
// from the profile (kube-scheduler/plugin/profile.go, engineConfig; README
// "Configuration"); schedsim runs the profile as that engine's profile:
//  - LibSched's args.plugins are the profile's plugins (absent: the
//    defaults); the profile's own plugins say what upstream runs around
//    LibSched and are dropped;
//  - a pluginConfig entry reaches the engine when the fork passes it: its
//    plugin is not enabled in the profile and, in Plugin mode, is disabled
//    there (by name or "*"), i.e. LibSched stands in for it; others are
//    upstream's and dropped (in the simulation the engine runs those plugins
//    with its defaults);
//  - Algorithm mode: percentageOfNodesToScore is LibSched's arg (which must
//    agree with the profile's), else the profile's, else the top-level one;
//    Plugin mode keeps the profile's (upstream's own, which decides how many
//    nodes upstream asks the engine about);
//  - LibSched's seed becomes the config's seed unless it has one (--seed
//    overrides both).
// Each rewritten profile is named on stderr with what was dropped.
#ifndef TOOLS_SCHEDSIM_LIBSCHED_PLUGIN_H_
#define TOOLS_SCHEDSIM_LIBSCHED_PLUGIN_H_

#include <ostream>
#include <string>

#include "json.h"

namespace schedsim {

// Rewrites, in the KubeSchedulerConfiguration `config` (not a Policy), each
// profile that enables LibSched at any extension point, as above. Throws
// InputError (at `file` and the field) for args the fork refuses: a mode
// other than Plugin or Algorithm, a percentageOfNodesToScore outside 0..100
// or differing from the profile's, a seed that is no unsigned integer,
// plugins that are not an object.
void ResolveLibSchedProfiles(cJSON* config, const std::string& file, std::ostream& err);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_LIBSCHED_PLUGIN_H_
