#include "libsched/plugins/internal/pod_topology_spread_common.h"

#include <span>
#include <string_view>
#include <utility>

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

bool Constraint::PoliciesReadNode(const Pod& pod) const {
  return (node_affinity_policy == NodeInclusionPolicy::kHonor &&
          (!pod.node_selector.empty() || pod.required_node_affinity)) ||
         node_taints_policy == NodeInclusionPolicy::kHonor;
}

std::vector<Constraint> GetConstraints(const Pod& pod, bool do_not_schedule,
                                       const PodTopologySpreadArgs& args,
                                       const ClusterState& snapshot,
                                       std::unique_ptr<StateData>* memo) {
  std::vector<Constraint> out;
  if (!pod.topology_spread_constraints.empty()) {
    for (const TopologySpreadConstraint& c : pod.topology_spread_constraints) {
      if (c.do_not_schedule != do_not_schedule) continue;
      out.push_back({c.max_skew, c.topology_key, c.selector, c.min_domains, c.node_affinity_policy,
                     c.node_taints_policy, snapshot.topology_domains().Find(c.topology_key)});
    }
    return out;
  }
  // buildDefaultConstraints.
  const std::span<const PodTopologySpreadArgs::Constraint> defaults =
      args.system_defaulting
          ? std::span<const PodTopologySpreadArgs::Constraint>(kSystemDefaults)
          : std::span<const PodTopologySpreadArgs::Constraint>(args.default_constraints);
  out.reserve(defaults.size());
  for (const PodTopologySpreadArgs::Constraint& c : defaults) {
    if (c.do_not_schedule != do_not_schedule) continue;
    const Atom key = snapshot.interner().Find(c.topology_key);
    out.push_back({c.max_skew, key, std::nullopt, c.min_domains, c.node_affinity_policy,
                   c.node_taints_policy, snapshot.topology_domains().Find(key)});
  }
  if (out.empty()) return out;
  LabelSelector selector = DefaultSelector(pod, snapshot, memo);
  if (selector.requirements.empty()) return {};
  for (size_t i = 0; i + 1 < out.size(); ++i) out[i].selector = selector;
  out.back().selector = std::move(selector);
  return out;
}

bool NodeHasAllKeys(uint32_t node_index, const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (c.DomainOf(node_index) == TopologyDomains::kNone) return false;
  }
  return true;
}

}  // namespace sched::pts_internal
