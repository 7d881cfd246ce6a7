#include "libsched/model/pod_affinity.h"

#include <algorithm>

#include "libsched/model/pod.h"

namespace sched {

bool AffinityTerm::Matches(const Pod& pod, const LabelSet& ns_labels,
                           const Interner& interner) const {
  const bool ns_match =
      std::binary_search(namespaces.begin(), namespaces.end(), pod.ns_atom) ||
      (namespace_selector && namespace_selector->Matches(ns_labels, interner));
  return ns_match && selector && selector->Matches(pod.labels, interner);
}

}  // namespace sched
