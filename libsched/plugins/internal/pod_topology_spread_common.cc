#include "libsched/plugins/internal/pod_topology_spread_common.h"

#include <algorithm>
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
                                       const ClusterState& snapshot) {
  ConstraintsMemo fresh;
  GetConstraints(pod, do_not_schedule, args, snapshot, fresh);
  return std::move(fresh.constraints);
}

const std::vector<Constraint>& GetConstraints(const Pod& pod, bool do_not_schedule,
                                              const PodTopologySpreadArgs& args,
                                              const ClusterState& snapshot,
                                              ConstraintsMemo& memo) {
  std::vector<Constraint>& out = memo.constraints;
  if (!pod.topology_spread_constraints.empty()) {
    memo.kept = false;
    out.clear();
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
  const auto applies = [&](const PodTopologySpreadArgs::Constraint& c) {
    return c.do_not_schedule == do_not_schedule;
  };
  const LabelSelector* selector =
      std::any_of(defaults.begin(), defaults.end(), applies)
          ? &KeptDefaultSelector(pod, snapshot, memo.default_selector)
          : nullptr;
  if (selector == nullptr || selector->requirements.empty()) {
    memo.kept = false;
    out.clear();
    return out;
  }
  if (!memo.kept || memo.do_not_schedule != do_not_schedule ||
      out.front().selector->valid != selector->valid ||
      out.front().selector->requirements != selector->requirements) {
    out.clear();
    for (const PodTopologySpreadArgs::Constraint& c : defaults) {
      if (!applies(c)) continue;
      out.push_back({c.max_skew, kNoAtom, *selector, c.min_domains, c.node_affinity_policy,
                     c.node_taints_policy, nullptr});
    }
    memo.keys.assign(out.size(), KeptAtom());
    memo.kept = true;
    memo.do_not_schedule = do_not_schedule;
  }
  size_t i = 0;
  for (const PodTopologySpreadArgs::Constraint& c : defaults) {
    if (!applies(c)) continue;
    Constraint& k = out[i];
    k.topology_key = memo.keys[i++].Find(snapshot.interner(), c.topology_key);
    k.domains = snapshot.topology_domains().Find(k.topology_key);
  }
  return out;
}

bool NodeHasAllKeys(uint32_t node_index, const std::vector<Constraint>& constraints) {
  for (const Constraint& c : constraints) {
    if (c.DomainOf(node_index) == TopologyDomains::kNone) return false;
  }
  return true;
}

}  // namespace sched::pts_internal
