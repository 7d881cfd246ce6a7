// The --config file as schedsim hands it to the engine.
#ifndef TOOLS_SCHEDSIM_CONFIG_H_
#define TOOLS_SCHEDSIM_CONFIG_H_

#include <ostream>
#include <string>

#include "json.h"

namespace schedsim {

// KubeSchedulerConfiguration fields (kube-scheduler/config/v1 types.go, and
// the serving addresses of v1beta2 and older, which kube-scheduler-simulator
// exports still carry) that do not change where pods go: how the process
// talks to the API server and elects a leader, profiling, cache warm-up,
// where it serves health and metrics. The engine, which is strict about its
// config, never sees them.
inline constexpr const char* kIgnoredConfigFields[] = {
    "leaderElection",        "clientConnection",   "enableProfiling",   "enableContentionProfiling",
    "delayCacheUntilActive", "healthzBindAddress", "metricsBindAddress"};

// Removes kIgnoredConfigFields from a KubeSchedulerConfiguration (not from a
// Policy) and names those it removed on `err`, as ignored.
void DropIgnoredConfig(cJSON* config, const std::string& file, std::ostream& err);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_CONFIG_H_
