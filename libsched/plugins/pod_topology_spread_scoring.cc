// PodTopologySpread PreScore / Score / NormalizeScore, mirroring
// podtopologyspread/scoring.go.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>
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
  // Per constraint (empty for hostname ones): topology value -> matching pods.
  std::vector<std::unordered_map<Atom, int64_t>> topology_value_to_pod_counts;
  std::vector<double> topology_normalizing_weight;
  bool require_all_topologies = false;
  Atom hostname = kNoAtom;
  Atom empty = kNoAtom;  // the value of a missing label ("")
  const Interner* interner = nullptr;

  Atom ValueOf(const LabelSet& labels, Atom key) const { return labels.Get(key).value_or(empty); }
  bool Ignored(const LabelSet& labels) const {
    return require_all_topologies && !pts_internal::NodeHasAllKeys(labels, constraints);
  }
};

constexpr const char* kNotFound = "reading \"PreScorePodTopologySpread\" from cycleState: not found";

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
  s->interner = &in;
  s->hostname = in.Find(kHostnameKey);
  s->empty = in.Find("");
  s->require_all_topologies = !pod.topology_spread_constraints.empty() || !args_.system_defaulting;

  // initPreScoreState: the domains of the feasible nodes.
  const size_t nc = s->constraints.size();
  s->topology_value_to_pod_counts.resize(nc);
  std::vector<int64_t> topo_size(nc, 0);
  s->ignored.assign(feasible.size(), false);
  int64_t num_ignored = 0;
  for (size_t n = 0; n < feasible.size(); ++n) {
    const LabelSet& labels = feasible[n]->node()->labels;
    if (s->Ignored(labels)) {
      s->ignored[n] = true;
      ++num_ignored;
      continue;
    }
    for (size_t i = 0; i < nc; ++i) {
      const Constraint& c = s->constraints[i];
      if (c.topology_key == s->hostname) continue;
      if (s->topology_value_to_pod_counts[i].emplace(s->ValueOf(labels, c.topology_key), 0).second) {
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

  // Matching pods over every node of the snapshot, in those domains.
  for (const NodeInfo* ni : all_nodes) {
    const Node& node = *ni->node();
    if (s->Ignored(node.labels)) continue;
    for (size_t i = 0; i < nc; ++i) {
      const Constraint& c = s->constraints[i];
      if (!c.MatchesNodeInclusionPolicies(pod, node, in)) continue;
      auto it = s->topology_value_to_pod_counts[i].find(s->ValueOf(node.labels, c.topology_key));
      if (it == s->topology_value_to_pod_counts[i].end()) continue;
      it->second += pts_internal::CountPodsMatchSelector(*ni, c.selector, pod.ns, in);
    }
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                int64_t* score) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  const LabelSet& labels = node.node()->labels;
  *score = 0;
  if (s->Ignored(labels)) return Status();
  double sum = 0;
  for (size_t i = 0; i < s->constraints.size(); ++i) {
    const Constraint& c = s->constraints[i];
    const std::optional<Atom> value = labels.Get(c.topology_key);
    if (!value) continue;
    int64_t cnt = 0;
    if (c.topology_key == s->hostname) {
      cnt = pts_internal::CountPodsMatchSelector(node, c.selector, pod.ns, *s->interner);
    } else {
      const auto& counts = s->topology_value_to_pod_counts[i];
      const auto it = counts.find(*value);
      if (it != counts.end()) cnt = it->second;
    }
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
