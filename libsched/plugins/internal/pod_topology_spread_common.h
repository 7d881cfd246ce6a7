// What PodTopologySpread's Filter and Score halves share: the constraints
// of one cycle and the pod counting of podtopologyspread/common.go.
// Internal to the plugin.
#ifndef LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_COMMON_H_
#define LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_COMMON_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/cycle_state.h"
#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"
#include "libsched/state/pod_label_index.h"
#include "libsched/state/topology_domains.h"

namespace sched::pts_internal {

// topologySpreadConstraint: a constraint as one cycle uses it.
struct Constraint {
  int32_t max_skew = 1;
  Atom topology_key = kNoAtom;            // kNoAtom: a key no node has
  std::optional<LabelSelector> selector;  // nullopt matches no pod
  int32_t min_domains = 1;
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;
  // The snapshot's domains of topology_key; null when no node has the key.
  const TopologyDomains::Key* domains = nullptr;

  // The node's domain (its value of topology_key), or TopologyDomains::kNone
  // when it lacks the key. REQUIRES: `node` is (a copy of) a NodeInfo of
  // the snapshot GetConstraints read.
  uint32_t DomainOf(const NodeInfo& node) const { return DomainOf(node.index()); }
  // The same by NodeInfo::index().
  uint32_t DomainOf(uint32_t node_index) const {
    return domains == nullptr ? TopologyDomains::kNone : domains->DomainOf(node_index);
  }
  // One past the largest domain id.
  size_t DomainBound() const { return domains == nullptr ? 0 : domains->bound(); }

  // matchNodeInclusionPolicies: the node counts for this constraint.
  bool MatchesNodeInclusionPolicies(const Pod& pod, const Node& node,
                                    const Interner& interner) const;
  // Whether MatchesNodeInclusionPolicies can be false for `pod`: it honors
  // node affinity and the pod has a nodeSelector or required node
  // affinity, or it honors taints. When not, a walk need not read nodes.
  bool PoliciesReadNode(const Pod& pod) const;
};

// The id of a fixed string (a topology key) kept across a class's cycles:
// found again while it is not interned, and when the interner may have
// given ids to other strings since (Interner::reuse_epoch; a reverted
// transaction clears the class memos with the equivalence cache).
struct KeptAtom {
  const Interner* interner = nullptr;
  uint64_t reuse_epoch = 0;
  Atom atom = kNoAtom;

  Atom Find(const Interner& in, std::string_view s) {
    if (atom == kNoAtom || interner != &in || reuse_epoch != in.reuse_epoch()) {
      atom = in.Find(s);
      interner = &in;
      reuse_epoch = in.reuse_epoch();
    }
    return atom;
  }
};

// What GetConstraints keeps in a class memo: the default constraints with
// their selector, rebuilt when DefaultSelector's result changes; their
// keys' ids and domains are refreshed every cycle.
struct ConstraintsMemo {
  std::unique_ptr<StateData> default_selector;  // KeptDefaultSelector's memo
  bool kept = false;                            // `constraints` are defaults
  bool do_not_schedule = false;                 // ... of this whenUnsatisfiable
  std::vector<Constraint> constraints;
  std::vector<KeptAtom> keys;  // per default constraint
};

// The pod's constraints with this whenUnsatisfiable, or, when it has none,
// the default ones with DefaultSelector (none if that selector is empty):
// getConstraints / initPreScoreState. Their `domains` point into
// `snapshot`, so they are valid for one cycle.
std::vector<Constraint> GetConstraints(const Pod& pod, bool do_not_schedule,
                                       const PodTopologySpreadArgs& args,
                                       const ClusterState& snapshot);
// The same through the plugin's class memo entry: for default constraints
// no copy of the selector and no lookup of a key's string while the class
// keeps them. The result lives in `memo` until its next use.
const std::vector<Constraint>& GetConstraints(const Pod& pod, bool do_not_schedule,
                                              const PodTopologySpreadArgs& args,
                                              const ClusterState& snapshot,
                                              ConstraintsMemo& memo);

// nodeLabelsMatchSpreadConstraints: the node has every topology key.
// REQUIRES: as Constraint::DomainOf.
bool NodeHasAllKeys(uint32_t node_index, const std::vector<Constraint>& constraints);
inline bool NodeHasAllKeys(const NodeInfo& node, const std::vector<Constraint>& constraints) {
  return NodeHasAllKeys(node.index(), constraints);
}

// math.Round (std::llround: halves away from zero) for |x| < 2^63, inline:
// the libm call was a tenth of PreScore, one per feasible node. The
// fraction x - trunc(x) is exact in double, so the comparison with 0.5 is
// too. REQUIRES: x is finite and |x| < 2^63.
inline int64_t RoundHalfAwayFromZero(double x) {
  int64_t t = static_cast<int64_t>(x);  // truncates toward zero
  const double frac = x - static_cast<double>(t);
  if (frac >= 0.5) ++t;
  if (frac <= -0.5) --t;
  return t;
}

// The same selector (it matches the same pods).
inline bool SameSelector(const std::optional<LabelSelector>& a,
                         const std::optional<LabelSelector>& b) {
  if (!a || !b) return !a && !b;
  return a->valid == b->valid && a->requirements == b->requirements;
}

// Calls fn(const PodLabelIndex::Group& group) for each group of
// non-terminating pods in namespace `ns` that the selector matches (none
// for a nullopt or empty selector): countPodsMatchSelector, matching the
// selector once per group, not once per pod. O(groups); a group is matched
// by its key (interned namespace, labels), and only a matching group's own
// data is read.
template <class Fn>
void ForEachGroupMatchSelector(const std::optional<LabelSelector>& selector, const std::string& ns,
                               const ClusterState& snapshot, Fn&& fn) {
  if (!selector || selector->requirements.empty()) return;
  const Atom ns_atom = snapshot.interner().Find(ns);  // kNoAtom: no pod is in `ns`
  if (ns_atom == kNoAtom) return;
  for (const auto& [key, group] : snapshot.pod_label_index().groups()) {
    if (key.terminating || key.ns != ns_atom ||
        !selector->Matches(key.labels, snapshot.interner())) {
      continue;
    }
    fn(*group);
  }
}

// Calls fn(const NodeInfo& node, int64_t count) for each node holding
// non-terminating pods in namespace `ns` that the selector matches,
// possibly several times per node (once per PodLabelIndex group: the
// counts add up). Includes nodes without a Node object. O(groups +
// matching groups' nodes), not O(nodes).
template <class Fn>
void ForEachPodsMatchSelector(const std::optional<LabelSelector>& selector, const std::string& ns,
                              const ClusterState& snapshot, Fn&& fn) {
  ForEachGroupMatchSelector(selector, ns, snapshot, [&](const PodLabelIndex::Group& group) {
    for (const auto& [index, count] : group.nodes) fn(*snapshot.NodeAt(index), count);
  });
}

// The keys of the groups ForEachGroupMatchSelector visits for one selector
// and namespace, kept across cycles (in a class memo) while the snapshot's
// group keys are the same (PodLabelIndex::version()).
struct GroupMatches {
  uint64_t version = 0;  // 0: nothing kept yet (versions start at 1)
  std::string ns;
  std::optional<LabelSelector> selector;
  std::vector<PodLabelIndex::Key> keys;
};

// ForEachPodsMatchSelector through `memo`: when it was kept for the same
// selector, namespace and group keys, only the matching groups are looked
// up (O(matching groups' nodes)); otherwise the groups are walked and
// matched, and `memo` is refilled. The same calls, possibly in another
// order (counts add up the same).
template <class Fn>
void ForEachPodsMatchSelector(const std::optional<LabelSelector>& selector, const std::string& ns,
                              const ClusterState& snapshot, GroupMatches& memo, Fn&& fn) {
  const PodLabelIndex& index = snapshot.pod_label_index();
  if (memo.version != index.version() || memo.ns != ns || !SameSelector(memo.selector, selector)) {
    memo.version = 0;  // stays unset if the refill throws
    memo.keys.clear();
    ForEachGroupMatchSelector(selector, ns, snapshot, [&](const PodLabelIndex::Group& group) {
      memo.keys.push_back({group.sample.ns_atom, group.sample.labels, false});
    });
    memo.ns = ns;
    memo.selector = selector;
    memo.version = index.version();
  }
  for (const PodLabelIndex::Key& key : memo.keys) {
    const PodLabelIndex::Group& group = *index.groups().at(key);
    for (const auto& [node, count] : group.nodes) fn(*snapshot.NodeAt(node), count);
  }
}

}  // namespace sched::pts_internal

#endif  // LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_COMMON_H_
