#include "libsched/model/dra.h"

namespace sched {

const DraAttribute* DraDevice::FindAttribute(const std::string& driver,
                                             const std::string& name) const {
  for (const auto& [key, value] : attributes) {
    if (key == name) return &value;
  }
  // lookupAttribute: "driver/id" names the attribute "id" of that driver.
  const size_t slash = name.find('/');
  if (slash == std::string::npos || name.compare(0, slash, driver) != 0 || slash != driver.size()) {
    return nullptr;
  }
  const std::string_view id = std::string_view(name).substr(slash + 1);
  for (const auto& [key, value] : attributes) {
    if (key == id) return &value;
  }
  return nullptr;
}

}  // namespace sched
