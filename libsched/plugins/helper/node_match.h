// What a pod asks of a node, shared by the plugins that check it:
// nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)
// (component-helpers/scheduling/corev1/nodeaffinity) and
// v1helper.FindMatchingUntoleratedTaint with DoNotScheduleTaintsFilterFunc
// (component-helpers/scheduling/corev1/helpers.go, plugins/helper/taint.go).
//
// Thread-safety: pure functions of their arguments.
#ifndef LIBSCHED_PLUGINS_HELPER_NODE_MATCH_H_
#define LIBSCHED_PLUGINS_HELPER_NODE_MATCH_H_

#include <span>

#include "libsched/model/interner.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/model/taint.h"

namespace sched {

// The node matches the pod's spec.nodeSelector and its required node
// affinity (both must hold; either may be absent).
bool MatchesRequiredNodeAffinity(const Pod& pod, const Node& node, const Interner& interner);

// The node has a NoSchedule or NoExecute taint none of `tolerations`
// tolerates.
bool HasUntoleratedDoNotScheduleTaint(const Node& node, std::span<const Toleration> tolerations);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_NODE_MATCH_H_
