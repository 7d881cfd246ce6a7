// Workload: an object whose selector picks a pod's spreading peers for the
// system default topology spread constraints (helper.DefaultSelector,
// pkg/scheduler/framework/plugins/helper/spread.go): a core/v1 Service or
// ReplicationController, an apps/v1 ReplicaSet or StatefulSet. Only the
// namespace, the name and the selector are kept.
#ifndef LIBSCHED_MODEL_WORKLOAD_H_
#define LIBSCHED_MODEL_WORKLOAD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

enum class WorkloadKind : uint8_t { kService, kReplicationController, kReplicaSet, kStatefulSet };
inline constexpr int kNumWorkloadKinds = 4;

// The Kubernetes kind name ("Service", "ReplicaSet", ...).
std::string_view WorkloadKindName(WorkloadKind k);

struct Workload {
  WorkloadKind kind = WorkloadKind::kService;
  std::string ns;  // metadata.namespace ("default" when empty)
  std::string name;
  // Service, ReplicationController: spec.selector (a map); nullopt when nil.
  std::optional<LabelSet> match_labels;
  // ReplicaSet, StatefulSet: spec.selector (a metav1.LabelSelector);
  // nullopt when nil. An invalid one has valid == false.
  std::optional<LabelSelector> selector;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_WORKLOAD_H_
