// What PodTopologySpread's Filter and Score halves share: the constraints
// of one cycle and the pod counting of podtopologyspread/common.go.
// Internal to the plugin.
#ifndef LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_COMMON_H_
#define LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_COMMON_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched::pts_internal {

// topologySpreadConstraint: a constraint as one cycle uses it.
struct Constraint {
  int32_t max_skew = 1;
  Atom topology_key = kNoAtom;  // kNoAtom: a key no node has
  std::optional<LabelSelector> selector;  // nullopt matches no pod
  int32_t min_domains = 1;
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;

  // matchNodeInclusionPolicies: the node counts for this constraint.
  bool MatchesNodeInclusionPolicies(const Pod& pod, const Node& node,
                                    const Interner& interner) const;
};

// The pod's constraints with this whenUnsatisfiable, or, when it has none,
// the default ones with DefaultSelector (none if that selector is empty):
// getConstraints / initPreScoreState.
std::vector<Constraint> GetConstraints(const Pod& pod, bool do_not_schedule,
                                       const PodTopologySpreadArgs& args,
                                       const ClusterState& snapshot);

// nodeLabelsMatchSpreadConstraints: the node has every topology key.
bool NodeHasAllKeys(const LabelSet& labels, const std::vector<Constraint>& constraints);

// countPodsMatchSelector: non-terminating pods in namespace `ns` that the
// selector matches; 0 for an empty selector.
int64_t CountPodsMatchSelector(const NodeInfo& node, const std::optional<LabelSelector>& selector,
                               const std::string& ns, const Interner& interner);

}  // namespace sched::pts_internal

#endif  // LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_COMMON_H_
