// PodTopologySpread PreScore / Score / NormalizeScore, mirroring
// podtopologyspread/scoring.go.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/plugins/internal/pod_topology_spread_common.h"
#include "libsched/plugins/pod_topology_spread.h"

namespace sched {
namespace {

using pts_internal::Constraint;

constexpr std::string_view kHostnameKey = "kubernetes.io/hostname";  // v1.LabelHostname

struct PreScoreState : StateData {
  std::vector<Constraint> constraints;
  // Parallel to the feasible nodes: the node lacks a required key.
  std::vector<bool> ignored;
  // Per constraint: matching pods by domain id (upstream's
  // topologyValueToPodCounts) or, for hostname ones, by node index.
  std::vector<std::vector<int64_t>> counts;
  // Per constraint: the domain of a node without the key, which upstream
  // reads as the value "" (the id of "" or one past the domains).
  std::vector<uint32_t> missing;
  std::vector<double> topology_normalizing_weight;
  bool require_all_topologies = false;
  Atom hostname = kNoAtom;

  // By NodeInfo::index().
  uint32_t Domain(size_t i, uint32_t node_index) const {
    const uint32_t d = constraints[i].DomainOf(node_index);
    return d == TopologyDomains::kNone ? missing[i] : d;
  }
  bool Ignored(uint32_t node_index) const {
    return require_all_topologies && !pts_internal::NodeHasAllKeys(node_index, constraints);
  }
};

constexpr const char* kNotFound =
    "reading \"PreScorePodTopologySpread\" from cycleState: not found";

}  // namespace

Status PodTopologySpread::PreScore(CycleState& state, const Pod& pod,
                                   std::span<const NodeInfo* const> feasible,
                                   const ClusterState& snapshot) const {
  const std::vector<const NodeInfo*>& all_nodes = snapshot.NodeList();
  if (all_nodes.empty()) return Status(Code::kSkip);
  auto s = std::make_unique<PreScoreState>();
  s->constraints = pts_internal::GetConstraints(pod, /*do_not_schedule=*/false, args_, snapshot);
  if (s->constraints.empty()) return Status(Code::kSkip);
  const Interner& in = snapshot.interner();
  s->hostname = in.Find(kHostnameKey);
  s->require_all_topologies = !pod.topology_spread_constraints.empty() || !args_.system_defaulting;

  // initPreScoreState: the domains of the feasible nodes.
  const size_t nc = s->constraints.size();
  const Atom empty = in.Find("");
  std::vector<std::vector<uint8_t>> present(nc);  // by domain id
  for (const Constraint& c : s->constraints) {
    const uint32_t of_empty =
        c.domains == nullptr ? TopologyDomains::kNone : c.domains->Find(empty);
    s->missing.push_back(of_empty == TopologyDomains::kNone ? static_cast<uint32_t>(c.DomainBound())
                                                            : of_empty);
  }
  for (size_t i = 0; i < nc; ++i) present[i].assign(s->constraints[i].DomainBound() + 1, 0);
  std::vector<int64_t> topo_size(nc, 0);
  s->ignored.assign(feasible.size(), false);
  int64_t num_ignored = 0;
  for (size_t n = 0; n < feasible.size(); ++n) {
    const uint32_t index = feasible[n]->index();
    if (s->Ignored(index)) {
      s->ignored[n] = true;
      ++num_ignored;
      continue;
    }
    for (size_t i = 0; i < nc; ++i) {
      if (s->constraints[i].topology_key == s->hostname) continue;
      uint8_t& p = present[i][s->Domain(i, index)];
      if (!p) {
        p = 1;
        ++topo_size[i];
      }
    }
  }
  for (size_t i = 0; i < nc; ++i) {
    const int64_t size = s->constraints[i].topology_key == s->hostname
                             ? static_cast<int64_t>(feasible.size()) - num_ignored
                             : topo_size[i];
    s->topology_normalizing_weight.push_back(std::log(static_cast<double>(size + 2)));
  }

  // Matching pods: per node for hostname constraints (Score reads them);
  // otherwise summed into the domains of the feasible nodes over every
  // node of the snapshot, which is over the nodes holding matching pods
  // that have a Node object (NodeList()'s): O(matching pods' nodes), not
  // O(nodes) as upstream's walk of every node.
  for (size_t i = 0; i < nc; ++i) {
    const Constraint& c = s->constraints[i];
    if (c.topology_key == s->hostname) {
      s->counts.push_back(pts_internal::CountPodsMatchSelectorByNode(c.selector, pod.ns, snapshot));
      continue;
    }
    std::vector<int64_t>& counts = s->counts.emplace_back(present[i].size(), 0);
    const bool reads_node = c.PoliciesReadNode(pod);
    pts_internal::ForEachPodsMatchSelector(
        c.selector, pod.ns, snapshot, [&](const NodeInfo& node, int64_t count) {
          const uint32_t index = node.index();
          if (node.node() == nullptr || s->Ignored(index)) return;
          if (reads_node && !c.MatchesNodeInclusionPolicies(pod, *node.node(), in)) return;
          const uint32_t d = s->Domain(i, index);
          if (present[i][d]) counts[d] += count;
        });
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::Score(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node,
                                int64_t* score) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  *score = 0;
  if (s->Ignored(node.index())) return Status();
  double sum = 0;
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const Constraint& c = s->constraints[i];
    const uint32_t d = c.DomainOf(node);
    if (d == TopologyDomains::kNone) continue;
    const std::vector<int64_t>& counts = s->counts[i];
    const size_t at = c.topology_key == s->hostname ? node.index() : d;
    const int64_t cnt = at < counts.size() ? counts[at] : 0;
    // scoreForCount.
    sum += static_cast<double>(cnt) * s->topology_normalizing_weight[i] +
           static_cast<double>(c.max_skew - 1);
  }
  *score = std::llround(sum);  // math.Round: halves away from zero
  return Status();
}

Status PodTopologySpread::NormalizeScore(const CycleState& state, const Pod& /*pod*/,
                                         std::span<int64_t> scores) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  if (s->ignored.size() != scores.size()) {
    return Status::Error("PodTopologySpread: scores do not match the nodes of PreScore");
  }
  int64_t min_score = std::numeric_limits<int64_t>::max();
  int64_t max_score = 0;
  for (size_t n = 0; n < scores.size(); ++n) {
    if (s->ignored[n]) continue;
    min_score = std::min(min_score, scores[n]);
    max_score = std::max(max_score, scores[n]);
  }
  for (size_t n = 0; n < scores.size(); ++n) {
    if (s->ignored[n]) {
      scores[n] = 0;
    } else if (max_score == 0) {
      scores[n] = kMaxNodeScore;
    } else {
      scores[n] = kMaxNodeScore * (max_score + min_score - scores[n]) / max_score;
    }
  }
  return Status();
}

}  // namespace sched
