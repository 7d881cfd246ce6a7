#include "libsched/plugins/internal/pod_topology_spread_common.h"

#include <span>
#include <string_view>

#include "libsched/plugins/helper/default_selector.h"
#include "libsched/plugins/helper/node_match.h"

namespace sched::pts_internal {
namespace {

// systemDefaultConstraints (plugin.go).
const PodTopologySpreadArgs::Constraint kSystemDefaults[] = {
    {.max_skew = 3, .topology_key = "kubernetes.io/hostname"},
    {.max_skew = 5, .topology_key = "topology.kubernetes.io/zone"},
};

}  // namespace

bool Constraint::MatchesNodeInclusionPolicies(const Pod& pod, const Node& node,
                                              const Interner& interner) const {
  if (node_affinity_policy == NodeInclusionPolicy::kHonor &&
      !MatchesRequiredNodeAffinity(pod, node, interner)) {
    return false;
  }
  return node_taints_policy != NodeInclusionPolicy::kHonor ||
         !HasUntoleratedDoNotScheduleTaint(node, pod.tolerations);
}

std::vector<Constraint> GetConstraints(const Pod& pod, bool do_not_schedule,
                                       const PodTopologySpreadArgs& args,
                                       const ClusterState& snapshot) {
  std::vector<Constraint> out;
  if (!pod.topology_spread_constraints.empty()) {
    for (const TopologySpreadConstraint& c : pod.topology_spread_constraints) {
      if (c.do_not_schedule != do_not_schedule) continue;
      out.push_back({c.max_skew, c.topology_key, c.selector, c.min_domains,
                     c.node_affinity_policy, c.node_taints_policy});
    }
    return out;
  }
  // buildDefaultConstraints.
  const std::span<const PodTopologySpreadArgs::Constraint> defaults =
      args.system_defaulting ? std::span<const PodTopologySpreadArgs::Constraint>(kSystemDefaults)
                             : std::span<const PodTopologySpreadArgs::Constraint>(
                                   args.default_constraints);
  for (const PodTopologySpreadArgs::Constraint& c : defaults) {
    if (c.do_not_schedule != do_not_schedule) continue;
    out.push_back({c.max_skew, snapshot.interner().Find(c.topology_key), std::nullopt,
                   c.min_domains, c.node_affinity_policy, c.node_taints_policy});
  }
  if (out.empty()) return out;
  LabelSelector selector = DefaultSelector(pod, snapshot);
  if (selector.requirements.empty()) return {};
  for (Constraint& c : out) c.selector = selector;
  return out;
}

bool NodeHasAllKeys(const LabelSet& labels, const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (!labels.Has(c.topology_key)) return false;
  }
  return true;
}

int64_t CountPodsMatchSelector(const NodeInfo& node, const std::optional<LabelSelector>& selector,
                               const std::string& ns, const Interner& interner) {
  return selector ? CountMatchingPods(node, *selector, ns, interner) : 0;
}

}  // namespace sched::pts_internal
