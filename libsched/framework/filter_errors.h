// How the framework words Filter Errors: RunFilterPlugins' wrapping of one
// plugin's error, and utilerrors.NewAggregate's joining of several (as
// DefaultPreemption's dry run returns them).
#ifndef LIBSCHED_FRAMEWORK_FILTER_ERRORS_H_
#define LIBSCHED_FRAMEWORK_FILTER_ERRORS_H_

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/status.h"

namespace sched {

// RunFilterPlugins wraps a Filter plugin's Error as "running %q filter
// plugin: %w"; an error with no plugin (adding nominated pods) is not
// wrapped.
inline std::string FilterErrorMessage(const Status& s) {
  if (s.plugin().empty()) return s.Message();
  return "running \"" + std::string(s.plugin()) + "\" filter plugin: " + s.Message();
}

// utilerrors.NewAggregate(errs).Error(): the one message, or the distinct
// messages in order, joined by ", " in brackets; empty for none.
inline std::string AggregateErrorMessages(const std::vector<std::string>& messages) {
  if (messages.size() == 1) return messages[0];
  std::vector<std::string_view> seen;
  std::string out;
  for (const std::string& m : messages) {
    if (std::find(seen.begin(), seen.end(), m) != seen.end()) continue;
    if (!seen.empty()) out += ", ";
    seen.push_back(m);
    out += m;
  }
  return seen.size() > 1 ? "[" + out + "]" : out;
}

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_FILTER_ERRORS_H_
