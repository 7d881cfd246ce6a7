// A PodNominator over a map from node name to the pods nominated there, for
// tests that set nominations directly instead of through the queue.
// Test-only.
#ifndef LIBSCHED_TESTING_MAP_NOMINATOR_H_
#define LIBSCHED_TESTING_MAP_NOMINATOR_H_

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/pod_nominator.h"

namespace sched::testing {

class MapNominator : public PodNominator {
 public:
  std::span<const std::shared_ptr<const Pod>> NominatedPodsOn(
      std::string_view node) const override {
    auto it = pods.find(node);
    if (it == pods.end()) return {};
    return it->second;
  }
  void ForEachNominatedNode(const NominationsFn& fn) const override {
    // Tests change `pods` directly: no versions (0), so nothing is cached.
    for (const auto& [node, list] : pods) fn(node, list, 0);
  }
  std::map<std::string, std::vector<std::shared_ptr<const Pod>>, std::less<>> pods;
};

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_MAP_NOMINATOR_H_
