// EqualPriority: the legacy priority that gives every node the same score,
// 1 (EqualPriorityMap of pkg/scheduler/algorithm/priorities, kube-scheduler
// v1.17; v1.19-v1.22 skipped the name in Policy configs, to the same
// effect on decisions). Kept so that Policy files naming it load.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_EQUAL_PRIORITY_H_
#define LIBSCHED_PLUGINS_EQUAL_PRIORITY_H_

#include <string_view>

#include "libsched/framework/plugin.h"

namespace sched {

class EqualPriority final : public ScorePlugin {
 public:
  static constexpr std::string_view kName = "EqualPriority";
  std::string_view Name() const override { return kName; }
  // Always 1.
  Status Score(const CycleState& /*state*/, const Pod& /*pod*/, const NodeInfo& /*node*/,
               int64_t* score) const override {
    *score = 1;
    return Status();
  }
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_EQUAL_PRIORITY_H_
