// PodTopologySpread PreFilter / Filter and the PreFilter extensions,
// mirroring podtopologyspread/filtering.go.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
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
  const Interner* interner = nullptr;

  // minMatchNum: 0 while fewer than minDomains domains exist.
  int64_t MinMatchNum(size_t i, int32_t min_domains) const {
    if (counts[i].num_domains < static_cast<size_t>(std::max(min_domains, 0))) return 0;
    return critical_paths[i].p[0].match_num;
  }
};

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
  std::vector<std::vector<int64_t>> by_node;  // matching pods per constraint, by node index
  std::vector<bool> reads_node;
  for (const Constraint& c : constraints) {
    s->counts.emplace_back(c.DomainBound());
    by_node.push_back(pts_internal::CountPodsMatchSelectorByNode(c.selector, pod.ns, snapshot));
    reads_node.push_back(c.PoliciesReadNode(pod));
  }
  const std::vector<const NodeInfo*>& nodes = snapshot.NodeList();
  const std::vector<uint32_t>& indexes = snapshot.NodeIndexList();
  for (size_t n = 0; n < nodes.size(); ++n) {
    const uint32_t index = indexes[n];
    if (!pts_internal::NodeHasAllKeys(index, constraints)) continue;
    for (size_t i = 0; i < constraints.size(); ++i) {
      const Constraint& c = constraints[i];
      if (reads_node[i] && !c.MatchesNodeInclusionPolicies(pod, *nodes[n]->node(), in)) continue;
      // Every eligible node registers its domain, even with no match.
      s->counts[i].Register(c.DomainOf(index)) += by_node[i][index];
    }
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

Status PodTopologySpread::Filter(const CycleState& state, const Pod& pod,
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
    const int64_t self_match = c.selector && c.selector->Matches(pod.labels, *s->interner);
    const int64_t match_num = s->counts[i].match_num[d];  // 0 when not present
    if (match_num + self_match - s->MinMatchNum(i, c.min_domains) > c.max_skew) {
      return Status(Code::kUnschedulable, kReasonConstraintsNotMatch);
    }
  }
  return Status();
}

}  // namespace sched
