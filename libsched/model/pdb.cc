#include "libsched/model/pdb.h"

#include <algorithm>

namespace sched {

bool PodDisruptionBudget::Covers(const Pod& pod, const Interner& interner) const {
  if (pod.ns != ns || !selector || selector->requirements.empty()) return false;
  return selector->Matches(pod.labels, interner);
}

bool PodDisruptionBudget::HasDisrupted(std::string_view pod_name) const {
  return std::binary_search(disrupted_pods.begin(), disrupted_pods.end(), pod_name);
}

}  // namespace sched
