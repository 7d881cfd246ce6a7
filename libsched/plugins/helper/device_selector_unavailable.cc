// DeviceSelector in a build without a CEL evaluator: nothing compiles, and
// the message says why, so the DynamicResources plugin refuses claims with
// selectors by name instead of guessing (docs/dra.md).
#include "libsched/plugins/helper/device_selector.h"

namespace sched {

bool DeviceSelector::Available() { return false; }

std::unique_ptr<DeviceSelector> DeviceSelector::Compile(std::string_view /*expression*/,
                                                        std::string* error) {
  *error = "CEL device selectors are not supported by this build of libsched";
  return nullptr;
}

}  // namespace sched
