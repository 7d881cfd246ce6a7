// DefaultSelector: the selector of the pods a pod spreads against when it
// has no topology spread constraints of its own, mirroring
// pkg/scheduler/framework/plugins/helper/spread.go: the labels of every
// Service in the pod's namespace whose selector matches the pod, merged
// with the selector of its controlling ReplicationController, plus the
// requirements of its controlling ReplicaSet or StatefulSet. Beside it, the
// pieces the spreading plugins share: GetPodServices (spread.go) and
// counting the pods a selector matches on a node.
//
// Thread-safety: pure functions; they read `snapshot` / `node` only (the
// memo overload also writes its `memo`).
#ifndef LIBSCHED_PLUGINS_HELPER_DEFAULT_SELECTOR_H_
#define LIBSCHED_PLUGINS_HELPER_DEFAULT_SELECTOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libsched/framework/cycle_state.h"
#include "libsched/model/labels.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched {

// GetPodServices: the Services in the pod's namespace whose selector
// matches the pod's labels, in name order (upstream lists them in informer
// order); a Service with a nil selector matches nothing. The pointers stay
// valid while `snapshot` holds the Services.
std::vector<const Workload*> GetPodServices(const Pod& pod, const ClusterState& snapshot);

// The non-terminating pods on `node` in namespace `ns` that `selector`
// matches; 0 for a selector without requirements (selector.Empty()), as
// selectorspread's countMatchingPods and podtopologyspread's
// countPodsMatchSelector count.
int64_t CountMatchingPods(const NodeInfo& node, const LabelSelector& selector,
                          const std::string& ns, const Interner& interner);

// An empty result (no requirements) means no workload selects the pod.
// Services are merged in name order; a Service with a nil selector, a
// controller that is not in the snapshot, and a ReplicaSet / StatefulSet
// whose selector is nil or invalid add nothing, as upstream.
LabelSelector DefaultSelector(const Pod& pod, const ClusterState& snapshot);

// DefaultSelector through a class memo entry (CycleState::class_memo): the
// selector kept there when it was built for the pod's namespace, labels and
// controller (all it reads of the pod) at the snapshot's
// workload_generation() (all it reads of the snapshot); otherwise it is
// built and kept there. A null `memo` (the cycle has no class) builds it.
LabelSelector DefaultSelector(const Pod& pod, const ClusterState& snapshot,
                              std::unique_ptr<StateData>* memo);
// The same without a copy: the selector kept in `memo`, valid until the
// memo's next use.
const LabelSelector& KeptDefaultSelector(const Pod& pod, const ClusterState& snapshot,
                                         std::unique_ptr<StateData>& memo);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_DEFAULT_SELECTOR_H_
