// PodTopologySpread PreFilter / Filter and the PreFilter extensions,
// mirroring podtopologyspread/filtering.go, and the Filter's
// equivalence-cache opt-in (SignPod, FilterIsNodeLocal; upstream has no
// counterpart: docs/upstream-differences.md, the equivalence cache).
//
// Why the key suffices. Filter reads, for node N and each DoNotSchedule
// constraint in order: whether N has the topology key, and
// skew = matchNum(N's domain) + selfMatch - minMatchNum against maxSkew
// (filtering.go Filter; minMatchNum is 0 while fewer than minDomains
// domains are eligible). N's labels, hence N's domain, are covered by N's
// generation (a domain id stays while N holds its value). The rest
// depends on the cycle:
// - A key with a domain of two nodes or more (zones): the key lists the
//   domains (ids) where the skew test fails. Not the counts, which move
//   with every placement: a list of failing domains moves only when a
//   domain crosses minMatchNum + maxSkew - selfMatch, or the minimum
//   moves, so the rows stay valid over most cycles.
// - A key whose every domain is one node (hostnames;
//   TopologyDomains::Key::OneNodePerDomain): matchNum(N's domain) is N's
//   own count, covered by N's generation given what decides it: the
//   selector, P's namespace, and whether N is eligible (it has every
//   constraint's topology key, and passes the nodeAffinityPolicy /
//   nodeTaintsPolicy, which read P's nodeSelector, required node affinity
//   and tolerations). The key holds the topology keys, the selector, the
//   two policies and the threshold minMatchNum + maxSkew - selfMatch; a
//   listing of failing nodes would move with every placement.
// SignPod feeds P's namespace, the node-reading fields the policies honor,
// and P's own DoNotSchedule constraints (so spread templates stay apart);
// P's labels are read only through selfMatch, which the key holds, so pods
// that differ by labels alone stay one class.
// The Filter runs live (FilterRunsLive): the cache keeps the other
// Filters' verdicts under a key without this one and runs this Filter on
// every node it walks, because the failing domains change often (a domain
// crosses the threshold, the minimum moves) while the other verdicts stay.
// This key then guards only the failure memo (every node's verdict).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "libsched/plugins/internal/pod_topology_spread_common.h"
#include "libsched/plugins/pod_topology_spread.h"

namespace sched {
namespace {

using pts_internal::Constraint;

// criticalPaths: the two domains with the fewest matching pods, smallest
// first; update() is upstream's, so AddPod / RemovePod keep the same
// (approximate) second entry it does. Domains are ids of the constraint's
// TopologyDomains::Key.
struct CriticalPaths {
  struct Path {
    uint32_t domain;
    int64_t match_num = std::numeric_limits<int32_t>::max();
  };
  Path p[2];

  // `empty`: the domain of the value "" (upstream's initial paths hold that
  // value), or kNone.
  explicit CriticalPaths(uint32_t empty) : p{{empty}, {empty}} {}

  void Update(uint32_t domain, int64_t num) {
    int i = domain == p[0].domain ? 0 : domain == p[1].domain ? 1 : -1;
    if (i >= 0) {
      p[i].match_num = num;
      if (p[0].match_num > p[1].match_num) std::swap(p[0], p[1]);
    } else if (num < p[0].match_num) {
      p[1] = p[0];
      p[0] = {domain, num};
    } else if (num < p[1].match_num) {
      p[1] = {domain, num};
    }
  }
};

// Per constraint, upstream's tpValueToMatchNum as flat arrays by domain id.
struct DomainCounts {
  std::vector<int64_t> match_num;
  std::vector<uint8_t> present;  // the domain is a key of the map
  size_t num_domains = 0;        // len(map)

  explicit DomainCounts(size_t bound) : match_num(bound, 0), present(bound, 0) {}
  // REQUIRES: domain < match_num.size().
  int64_t& Register(uint32_t domain) {
    if (!present[domain]) {
      present[domain] = 1;
      ++num_domains;
    }
    return match_num[domain];
  }
};

struct PreFilterState : StateData {
  std::shared_ptr<const std::vector<Constraint>> constraints;
  std::vector<CriticalPaths> critical_paths;
  std::vector<DomainCounts> counts;  // per constraint
  std::vector<int64_t> self_match;   // per constraint: the selector matches P (1) or not
  const Interner* interner = nullptr;

  // minMatchNum: 0 while fewer than minDomains domains exist.
  int64_t MinMatchNum(size_t i, int32_t min_domains) const {
    if (counts[i].num_domains < static_cast<size_t>(std::max(min_domains, 0))) return 0;
    return critical_paths[i].p[0].match_num;
  }
};

// Terminates a list of failing domains (ids >= 0).
constexpr int64_t kEnd = -1;
// Stands for a key whose every domain is one node (or that no node has).
constexpr int64_t kOneNodePerDomain = -2;

constexpr const char* kNotFound =
    "reading \"PreFilterPodTopologySpread\" from cycleState: not found";

// updateWithPod.
void UpdateWithPod(PreFilterState& s, const Pod& updated, const Pod& preemptor,
                   const NodeInfo& node_info, int64_t delta) {
  const Node* node = node_info.node();
  if (updated.ns != preemptor.ns || node == nullptr) return;
  const std::vector<Constraint>& constraints = *s.constraints;
  if (!pts_internal::NodeHasAllKeys(node_info, constraints)) return;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    if (!c.selector || !c.selector->Matches(updated.labels, *s.interner)) continue;
    if (!c.MatchesNodeInclusionPolicies(preemptor, *node, *s.interner)) continue;
    const uint32_t d = c.DomainOf(node_info);
    int64_t& n = s.counts[i].Register(d);
    n += delta;
    s.critical_paths[i].Update(d, n);
  }
}

}  // namespace

Status PodTopologySpread::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                                    PreFilterResult* /*result*/) const {
  std::vector<Constraint> constraints =
      pts_internal::GetConstraints(pod, /*do_not_schedule=*/true, args_, snapshot);
  if (constraints.empty()) return Status(Code::kSkip);
  const Interner& in = snapshot.interner();
  auto s = std::make_unique<PreFilterState>();
  s->interner = &in;
  std::vector<bool> reads_node;
  for (const Constraint& c : constraints) {
    s->counts.emplace_back(c.DomainBound());
    s->self_match.push_back(c.selector && c.selector->Matches(pod.labels, in));
    reads_node.push_back(c.PoliciesReadNode(pod));
  }
  // Which nodes count for each constraint (they have every topology key and
  // pass its inclusion policies): "has the key" for one constraint whose
  // policies read no node, else by node index.
  const bool by_key = constraints.size() == 1 && !reads_node[0];
  std::vector<std::vector<uint8_t>> eligible(
      constraints.size(), std::vector<uint8_t>(by_key ? 0 : snapshot.NodeIndexBound(), 0));
  // Every eligible node registers its domain, even with no match.
  const std::vector<const NodeInfo*>& nodes = snapshot.NodeList();
  const std::vector<uint32_t>& indexes = snapshot.NodeIndexList();
  if (by_key) {
    // Once every domain id is registered the rest of the walk would add
    // none (zones: a few nodes in); with freed ids it runs to the end.
    const Constraint& c = constraints[0];
    DomainCounts& counts = s->counts[0];
    const size_t bound = c.DomainBound();
    for (size_t n = 0; n < indexes.size() && counts.num_domains < bound; ++n) {
      const uint32_t d = c.DomainOf(indexes[n]);
      if (d != TopologyDomains::kNone) counts.Register(d);
    }
  } else {
    for (size_t n = 0; n < nodes.size(); ++n) {
      const uint32_t index = indexes[n];
      if (!pts_internal::NodeHasAllKeys(index, constraints)) continue;
      for (size_t i = 0; i < constraints.size(); ++i) {
        const Constraint& c = constraints[i];
        if (reads_node[i] && !c.MatchesNodeInclusionPolicies(pod, *nodes[n]->node(), in)) continue;
        s->counts[i].Register(c.DomainOf(index));
        eligible[i][index] = 1;
      }
    }
  }
  // The matching pods of the eligible nodes, by domain (a node without a
  // Node object, or without the key, has no domain).
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    std::vector<int64_t>& match_num = s->counts[i].match_num;
    pts_internal::ForEachGroupMatchSelector(
        c.selector, pod.ns, snapshot, [&](const PodLabelIndex::Group& group) {
          for (const auto& [index, count] : group.nodes) {
            const uint32_t d = c.DomainOf(index);
            if (d == TopologyDomains::kNone || (!by_key && !eligible[i][index])) {
              continue;
            }
            match_num[d] += count;
          }
        });
  }
  const Atom empty = in.Find("");
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    const DomainCounts& counts = s->counts[i];
    CriticalPaths& paths = s->critical_paths.emplace_back(
        c.domains == nullptr ? TopologyDomains::kNone : c.domains->Find(empty));
    for (uint32_t d = 0; d < counts.present.size(); ++d) {
      if (counts.present[d]) paths.Update(d, counts.match_num[d]);
    }
  }
  s->constraints = std::make_shared<const std::vector<Constraint>>(std::move(constraints));
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                                 const NodeInfo& node) const {
  PreFilterState* s = state.CopyOnWrite<PreFilterState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  UpdateWithPod(*s, pod_to_add, pod, node, 1);
  return Status();
}

Status PodTopologySpread::RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                                    const NodeInfo& node) const {
  PreFilterState* s = state.CopyOnWrite<PreFilterState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  UpdateWithPod(*s, pod_to_remove, pod, node, -1);
  return Status();
}

Status PodTopologySpread::Filter(const CycleState& state, const Pod& /*pod*/,
                                 const NodeInfo& node) const {
  const PreFilterState* s = state.Read<PreFilterState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  const std::vector<Constraint>& constraints = *s->constraints;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    const uint32_t d = c.DomainOf(node);
    if (d == TopologyDomains::kNone) {
      return Status(Code::kUnschedulableAndUnresolvable, kReasonNodeLabelNotMatch);
    }
    const int64_t match_num = s->counts[i].match_num[d];  // 0 when not present
    if (match_num + s->self_match[i] - s->MinMatchNum(i, c.min_domains) > c.max_skew) {
      return Status(Code::kUnschedulable, kReasonConstraintsNotMatch);
    }
  }
  return Status();
}

void PodTopologySpread::SignPod(const Pod& pod, PodSigner& sig) const {
  // The constraints Filter uses: the pod's DoNotSchedule ones, or, when it
  // has none, the default DoNotSchedule ones (GetConstraints).
  bool any = false, honor_affinity = false, honor_taints = false;
  auto note = [&](NodeInclusionPolicy affinity, NodeInclusionPolicy taints) {
    any = true;
    honor_affinity = honor_affinity || affinity == NodeInclusionPolicy::kHonor;
    honor_taints = honor_taints || taints == NodeInclusionPolicy::kHonor;
  };
  sig.Section(Name());
  if (!pod.topology_spread_constraints.empty()) {
    for (const TopologySpreadConstraint& c : pod.topology_spread_constraints) {
      if (!c.do_not_schedule) continue;
      note(c.node_affinity_policy, c.node_taints_policy);
      sig.Add(static_cast<int64_t>(c.max_skew));
      sig.Add(static_cast<int64_t>(c.topology_key));
      sig.Add(static_cast<int64_t>(c.selector.has_value()));
      if (c.selector) sig.Add(*c.selector);
      sig.Add(static_cast<int64_t>(c.min_domains));
      sig.Add(static_cast<int64_t>(c.node_affinity_policy));
      sig.Add(static_cast<int64_t>(c.node_taints_policy));
    }
  } else if (!args_.system_defaulting) {
    for (const PodTopologySpreadArgs::Constraint& c : args_.default_constraints) {
      if (c.do_not_schedule) note(c.node_affinity_policy, c.node_taints_policy);
    }
  }
  if (!any) return;  // Filter skips
  sig.Add(pod.ns);
  if (honor_affinity) {
    sig.AddAll(std::span<const Requirement>(pod.node_selector));
    sig.Add(pod.required_node_affinity);
  }
  if (honor_taints) sig.AddAll(std::span<const Toleration>(pod.tolerations));
}

bool PodTopologySpread::FilterIsNodeLocal(const CycleState& state, PodSigner& key) const {
  const PreFilterState* s = state.Read<PreFilterState>(slot());
  if (s == nullptr) return false;
  const std::vector<Constraint>& constraints = *s->constraints;
  key.Add(static_cast<int64_t>(constraints.size()));
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    // A node fails when its domain's count exceeds this.
    const int64_t threshold = c.max_skew + s->MinMatchNum(i, c.min_domains) - s->self_match[i];
    key.Add(static_cast<int64_t>(c.topology_key));
    if (c.domains == nullptr || c.domains->OneNodePerDomain()) {
      key.Add(kOneNodePerDomain);
      key.Add(static_cast<int64_t>(c.selector.has_value()));
      if (c.selector) key.Add(*c.selector);
      key.Add(static_cast<int64_t>(c.node_affinity_policy));
      key.Add(static_cast<int64_t>(c.node_taints_policy));
      key.Add(threshold);
      continue;
    }
    const std::vector<int64_t>& match_num = s->counts[i].match_num;
    for (size_t d = 0; d < match_num.size(); ++d) {
      if (match_num[d] > threshold) key.Add(static_cast<int64_t>(d));
    }
    key.Add(kEnd);
  }
  return true;
}

}  // namespace sched
