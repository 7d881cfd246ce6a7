// DefaultSelector: the selector of the pods a pod spreads against when it
// has no topology spread constraints of its own, mirroring
// pkg/scheduler/framework/plugins/helper/spread.go: the labels of every
// Service in the pod's namespace whose selector matches the pod, merged
// with the selector of its controlling ReplicationController, plus the
// requirements of its controlling ReplicaSet or StatefulSet.
//
// Thread-safety: reads `snapshot` only.
#ifndef LIBSCHED_PLUGINS_HELPER_DEFAULT_SELECTOR_H_
#define LIBSCHED_PLUGINS_HELPER_DEFAULT_SELECTOR_H_

#include "libsched/model/labels.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"

namespace sched {

// An empty result (no requirements) means no workload selects the pod.
// Services are merged in name order; a Service with a nil selector, a
// controller that is not in the snapshot, and a ReplicaSet / StatefulSet
// whose selector is nil or invalid add nothing, as upstream.
LabelSelector DefaultSelector(const Pod& pod, const ClusterState& snapshot);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_DEFAULT_SELECTOR_H_
