// PodTopologySpread PreScore / Score / NormalizeScore, mirroring
// podtopologyspread/scoring.go.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
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
  // Per hostname constraint: matching pods by node index (empty for the
  // others).
  std::vector<std::vector<int64_t>> counts;
  // Per other constraint: scoreForCount of each domain id, from its
  // matching pods (upstream's topologyValueToPodCounts), computed once per
  // domain instead of once per node (empty for hostname ones).
  std::vector<std::vector<double>> domain_scores;
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

// scoreForCount: a node's share of one constraint's score.
double ScoreForCount(int64_t count, double normalizing_weight, int32_t max_skew) {
  return static_cast<double>(count) * normalizing_weight + static_cast<double>(max_skew - 1);
}

// The same selector (the pod groups it matches are the same).
bool SameSelector(const std::optional<LabelSelector>& a, const std::optional<LabelSelector>& b) {
  if (!a || !b) return !a && !b;
  return a->valid == b->valid && a->requirements == b->requirements;
}

constexpr const char* kNotFound =
    "reading \"PreScorePodTopologySpread\" from cycleState: not found";

}  // namespace

Status PodTopologySpread::PreScore(CycleState& state, const Pod& pod,
                                   std::span<const NodeInfo* const> feasible,
                                   const ClusterState& snapshot) const {
  const std::vector<const NodeInfo*>& all_nodes = snapshot.NodeList();
  if (all_nodes.empty()) return Status(Code::kSkip);
  auto s = std::make_unique<PreScoreState>();
  s->constraints = pts_internal::GetConstraints(pod, /*do_not_schedule=*/false, args_, snapshot,
                                                state.class_memo(slot()));
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
  // O(nodes) as upstream's walk of every node. The pod groups are matched
  // once per distinct selector (the system default constraints share one).
  std::vector<std::pair<const NodeInfo*, int64_t>> matches;
  const std::optional<LabelSelector>* matched = nullptr;
  for (size_t i = 0; i < nc; ++i) {
    const Constraint& c = s->constraints[i];
    if (matched == nullptr || !SameSelector(*matched, c.selector)) {
      matches.clear();
      pts_internal::ForEachPodsMatchSelector(
          c.selector, pod.ns, snapshot,
          [&](const NodeInfo& node, int64_t count) { matches.emplace_back(&node, count); });
      matched = &c.selector;
    }
    if (c.topology_key == s->hostname) {
      std::vector<int64_t>& by_node = s->counts.emplace_back(snapshot.NodeIndexBound(), 0);
      for (const auto& [node, count] : matches) by_node[node->index()] += count;
      s->domain_scores.emplace_back();
      continue;
    }
    s->counts.emplace_back();
    std::vector<int64_t> counts(present[i].size(), 0);
    const bool reads_node = c.PoliciesReadNode(pod);
    for (const auto& [node, count] : matches) {
      const uint32_t index = node->index();
      if (node->node() == nullptr || s->Ignored(index)) continue;
      if (reads_node && !c.MatchesNodeInclusionPolicies(pod, *node->node(), in)) continue;
      const uint32_t d = s->Domain(i, index);
      if (present[i][d]) counts[d] += count;
    }
    std::vector<double>& scores = s->domain_scores.emplace_back(counts.size());
    for (size_t d = 0; d < counts.size(); ++d) {
      scores[d] = ScoreForCount(counts[d], s->topology_normalizing_weight[i], c.max_skew);
    }
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::Score(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node,
                                int64_t* score) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  *score = 0;
  const uint32_t index = node.index();
  if (s->Ignored(index)) return Status();
  double sum = 0;
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const Constraint& c = s->constraints[i];
    const uint32_t d = c.DomainOf(index);
    if (d == TopologyDomains::kNone) continue;
    if (c.topology_key == s->hostname) {
      const std::vector<int64_t>& counts = s->counts[i];
      sum += ScoreForCount(index < counts.size() ? counts[index] : 0,
                           s->topology_normalizing_weight[i], c.max_skew);
    } else {
      sum += s->domain_scores[i][d];
    }
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
