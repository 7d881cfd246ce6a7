// PodDisruptionBudget: the parts of a policy/v1 PodDisruptionBudget that
// preemption reads (defaultpreemption filterPodsWithPDBViolation): the
// namespace, spec.selector, status.disruptionsAllowed and the pod names in
// status.disruptedPods. Other fields (minAvailable, maxUnavailable) are the
// disruption controller's business: it folds them into disruptionsAllowed.
#ifndef LIBSCHED_MODEL_PDB_H_
#define LIBSCHED_MODEL_PDB_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/pod.h"

namespace sched {

struct PodDisruptionBudget {
  std::string ns;  // metadata.namespace ("default" when empty)
  std::string name;
  // spec.selector; nullopt when nil. A nil, empty or invalid selector
  // matches no pod (metav1.LabelSelectorAsSelector then selector.Empty()).
  std::optional<LabelSelector> selector;
  int32_t disruptions_allowed = 0;          // status.disruptionsAllowed
  std::vector<std::string> disrupted_pods;  // keys of status.disruptedPods, sorted

  // The budget covers `pod`: same namespace and a non-empty selector that
  // matches the pod's labels.
  bool Covers(const Pod& pod, const Interner& interner) const;
  // `pod_name` is in status.disruptedPods (already being evicted).
  bool HasDisrupted(std::string_view pod_name) const;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_PDB_H_
