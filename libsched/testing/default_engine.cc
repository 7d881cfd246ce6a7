#include "libsched/testing/default_engine.h"

#include <string_view>
#include <utility>

#include "libsched/plugins/registry.h"

namespace sched::testing {

std::unique_ptr<Engine> NewDefaultEngine(uint64_t seed) {
  auto e = std::make_unique<Engine>();
  ProfileConfig profile;
  profile.scheduler_name = kDefaultSchedulerName;
  profile.plugins =
      ExpandPlugins(DefaultPlugins(), [](std::string_view n) { return FindPlugin(n)->points; });
  EngineConfig config;
  config.profiles.push_back(std::move(profile));
  config.seed = seed;
  config.parallelism = 1;
  e->Configure(config);
  return e;
}

}  // namespace sched::testing
