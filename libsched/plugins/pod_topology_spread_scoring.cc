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
using pts_internal::SameSelector;

constexpr std::string_view kHostnameKey = "kubernetes.io/hostname";  // v1.LabelHostname

// Per node index scratch that PreScore fills for its feasible nodes only
// (the other entries hold whatever an earlier cycle left: never read).
struct NodeBuffers {
  std::vector<int64_t> raw;                       // the raw score
  std::vector<std::vector<int64_t>> host_counts;  // per hostname constraint
  // PreScore's own scratch, by feasible node n: its NodeInfo::index(),
  // and its domain per constraint i at i * feasible + n (kNone: it lacks
  // the key).
  std::vector<uint32_t> indexes;
  std::vector<uint32_t> domains;
  std::vector<double> sums;  // by feasible node n: its raw score before rounding
};

// What PreScore keeps per equivalence class (CycleState::class_memo): the
// default selector's memo; the buffers, which the class's next cycle
// reuses once no CycleState of an earlier one holds them (no allocation,
// no zeroing of NodeIndexBound() entries a cycle); and per constraint the
// pod groups its selector matched, so a cycle does not match every group
// of the cluster again while no group came or went.
struct ClassMemo : StateData {
  std::unique_ptr<StateData> default_selector;
  std::shared_ptr<NodeBuffers> buffers;
  std::vector<pts_internal::GroupMatches> groups;
};

struct PreScoreState : StateData {
  // Parallel to the feasible nodes: 1 when the node lacks a required key.
  std::vector<uint8_t> ignored;
  bool any_ignored = false;
  // The raw score of each feasible node, by NodeInfo::index().
  std::shared_ptr<const NodeBuffers> buffers;
};

// scoreForCount: a node's share of one constraint's score.
double ScoreForCount(int64_t count, double normalizing_weight, int32_t max_skew) {
  return static_cast<double>(count) * normalizing_weight + static_cast<double>(max_skew - 1);
}

// The class memo entry of this plugin (made on first use), or null when
// the cycle has no class.
ClassMemo* TakeClassMemo(std::unique_ptr<StateData>* entry) {
  if (entry == nullptr) return nullptr;
  if (auto* memo = dynamic_cast<ClassMemo*>(entry->get())) return memo;
  auto memo = std::make_unique<ClassMemo>();
  ClassMemo* out = memo.get();
  *entry = std::move(memo);
  return out;
}

// Buffers of at least `bound` entries per array: the class's own when no
// earlier cycle's state still holds them, else new ones.
std::shared_ptr<NodeBuffers> TakeBuffers(ClassMemo* memo, size_t bound, size_t num_hostname) {
  std::shared_ptr<NodeBuffers> b;
  if (memo != nullptr && memo->buffers != nullptr && memo->buffers.use_count() == 1) {
    b = memo->buffers;
  } else {
    b = std::make_shared<NodeBuffers>();
    if (memo != nullptr) memo->buffers = b;
  }
  if (b->raw.size() < bound) b->raw.resize(bound);
  b->host_counts.resize(std::max(b->host_counts.size(), num_hostname));
  for (size_t h = 0; h < num_hostname; ++h) {
    if (b->host_counts[h].size() < bound) b->host_counts[h].resize(bound);
  }
  return b;
}

constexpr const char* kNotFound =
    "reading \"PreScorePodTopologySpread\" from cycleState: not found";

}  // namespace

Status PodTopologySpread::PreScore(CycleState& state, const Pod& pod,
                                   std::span<const NodeInfo* const> feasible,
                                   const ClusterState& snapshot) const {
  if (snapshot.NodeList().empty()) return Status(Code::kSkip);
  ClassMemo* memo = TakeClassMemo(state.class_memo(slot()));
  const std::vector<Constraint> constraints =
      pts_internal::GetConstraints(pod, /*do_not_schedule=*/false, args_, snapshot,
                                   memo != nullptr ? &memo->default_selector : nullptr);
  if (constraints.empty()) return Status(Code::kSkip);
  auto s = std::make_unique<PreScoreState>();
  const Interner& in = snapshot.interner();
  const Atom hostname = in.Find(kHostnameKey);
  const bool require_all_topologies =
      !pod.topology_spread_constraints.empty() || !args_.system_defaulting;

  // Per constraint: its hostname counts (hostname constraints), or the
  // domain of a node without the key, which upstream reads as the value ""
  // (the id of "" or one past the domains).
  const size_t nc = constraints.size();
  std::vector<size_t> host(nc, 0);  // index into host_counts
  std::vector<uint8_t> is_host(nc, 0);
  std::vector<uint32_t> missing(nc, 0);
  size_t num_hostname = 0;
  const Atom empty = in.Find("");
  for (size_t i = 0; i < nc; ++i) {
    const Constraint& c = constraints[i];
    if (c.topology_key == hostname) {
      is_host[i] = 1;
      host[i] = num_hostname++;
      continue;
    }
    const uint32_t of_empty =
        c.domains == nullptr ? TopologyDomains::kNone : c.domains->Find(empty);
    missing[i] = of_empty == TopologyDomains::kNone ? static_cast<uint32_t>(c.DomainBound())
                                                    : of_empty;
  }
  const std::shared_ptr<NodeBuffers> buffers =
      TakeBuffers(memo, snapshot.NodeIndexBound(), num_hostname);
  auto domain = [&](size_t i, uint32_t node_index) {
    const uint32_t d = constraints[i].DomainOf(node_index);
    return d == TopologyDomains::kNone ? missing[i] : d;
  };

  // initPreScoreState: the domains of the feasible nodes (their hostname
  // counts start at 0).
  std::vector<std::vector<uint8_t>> present(nc);  // by domain id
  for (size_t i = 0; i < nc; ++i) {
    if (constraints[i].topology_key != hostname) {
      present[i].assign(constraints[i].DomainBound() + 1, 0);
    }
  }
  // Constraint by constraint over the feasible nodes, through flat arrays:
  // each node's index and its domain per constraint are read once, for
  // both passes (initPreScoreState here, the raw scores below).
  const size_t nf = feasible.size();
  std::vector<uint32_t>& indexes = buffers->indexes;
  indexes.resize(nf);
  for (size_t n = 0; n < nf; ++n) indexes[n] = feasible[n]->index();
  std::vector<uint32_t>& node_domains = buffers->domains;  // constraint i, node n at i * nf + n
  node_domains.resize(nc * nf);
  s->ignored.assign(nf, 0);
  uint8_t* const ignored = s->ignored.data();
  for (size_t i = 0; i < nc; ++i) {
    uint32_t* const doms = node_domains.data() + i * nf;
    const Constraint& c = constraints[i];
    for (size_t n = 0; n < nf; ++n) doms[n] = c.DomainOf(indexes[n]);
    if (!require_all_topologies) continue;
    // nodeLabelsMatchSpreadConstraints: every key.
    for (size_t n = 0; n < nf; ++n) ignored[n] |= doms[n] == TopologyDomains::kNone ? 1 : 0;
  }
  int64_t num_ignored = 0;
  if (require_all_topologies) {
    for (size_t n = 0; n < nf; ++n) num_ignored += ignored[n];
  }
  std::vector<int64_t> topo_size(nc, 0);
  for (size_t i = 0; i < nc; ++i) {
    const uint32_t* const doms = node_domains.data() + i * nf;
    if (is_host[i]) {
      int64_t* const counts = buffers->host_counts[host[i]].data();
      for (size_t n = 0; n < nf; ++n) {
        if (!ignored[n]) counts[indexes[n]] = 0;
      }
      continue;
    }
    uint8_t* const seen = present[i].data();
    const uint32_t of_missing = missing[i];
    int64_t size = 0;
    for (size_t n = 0; n < nf; ++n) {
      if (ignored[n]) continue;
      const uint32_t d = doms[n] == TopologyDomains::kNone ? of_missing : doms[n];
      size += seen[d] == 0 ? 1 : 0;
      seen[d] = 1;
    }
    topo_size[i] = size;
  }
  s->any_ignored = num_ignored > 0;
  std::vector<double> weight(nc);  // topologyNormalizingWeight
  for (size_t i = 0; i < nc; ++i) {
    const int64_t size = constraints[i].topology_key == hostname
                             ? static_cast<int64_t>(feasible.size()) - num_ignored
                             : topo_size[i];
    weight[i] = std::log(static_cast<double>(size + 2));
  }

  // Matching pods: per node for hostname constraints (into the feasible
  // nodes' entries; others get ignored sums); otherwise summed into the
  // domains of the feasible nodes over every node of the snapshot, which
  // is over the nodes holding matching pods that have a Node object
  // (NodeList()'s): O(matching pods' nodes), not O(nodes) as upstream's
  // walk of every node. The pod groups are matched once per distinct
  // selector (the system default constraints share one). Each other
  // constraint's scoreForCount is taken once per domain (upstream's
  // topologyValueToPodCounts), not once per node.
  std::vector<std::pair<const NodeInfo*, int64_t>> matches;
  const std::optional<LabelSelector>* matched = nullptr;
  std::vector<std::vector<double>> domain_scores(nc);
  for (size_t i = 0; i < nc; ++i) {
    const Constraint& c = constraints[i];
    if (matched == nullptr || !SameSelector(*matched, c.selector)) {
      matches.clear();
      auto add = [&](const NodeInfo& node, int64_t count) { matches.emplace_back(&node, count); };
      if (memo != nullptr) {
        if (memo->groups.size() < nc) memo->groups.resize(nc);
        pts_internal::ForEachPodsMatchSelector(c.selector, pod.ns, snapshot, memo->groups[i], add);
      } else {
        pts_internal::ForEachPodsMatchSelector(c.selector, pod.ns, snapshot, add);
      }
      matched = &c.selector;
    }
    if (c.topology_key == hostname) {
      std::vector<int64_t>& by_node = buffers->host_counts[host[i]];
      for (const auto& [node, count] : matches) by_node[node->index()] += count;
      continue;
    }
    std::vector<int64_t> counts(present[i].size(), 0);
    const bool reads_node = c.PoliciesReadNode(pod);
    for (const auto& [node, count] : matches) {
      const uint32_t index = node->index();
      if (node->node() == nullptr) continue;
      if (require_all_topologies && !pts_internal::NodeHasAllKeys(index, constraints)) continue;
      if (reads_node && !c.MatchesNodeInclusionPolicies(pod, *node->node(), in)) continue;
      const uint32_t d = domain(i, index);
      if (present[i][d]) counts[d] += count;
    }
    std::vector<double>& scores = domain_scores[i];
    scores.resize(counts.size());
    for (size_t d = 0; d < counts.size(); ++d) {
      scores[d] = ScoreForCount(counts[d], weight[i], c.max_skew);
    }
  }

  // Score's raw value of each feasible node: Σ over the constraints whose
  // key the node has, in their order, then math.Round (halves away from
  // zero). Ignored nodes get 0. Summed constraint by constraint into
  // per-node sums: the same additions, in the same order, per node.
  std::vector<double>& sums = buffers->sums;
  sums.assign(nf, 0.0);
  double* const sum = sums.data();
  for (size_t i = 0; i < nc; ++i) {
    const uint32_t* const doms = node_domains.data() + i * nf;
    if (is_host[i]) {
      const int64_t* const counts = buffers->host_counts[host[i]].data();
      const double w = weight[i];
      const int32_t max_skew = constraints[i].max_skew;
      for (size_t n = 0; n < nf; ++n) {
        if (doms[n] != TopologyDomains::kNone) {
          sum[n] += ScoreForCount(counts[indexes[n]], w, max_skew);
        }
      }
      continue;
    }
    const double* const scores = domain_scores[i].data();
    for (size_t n = 0; n < nf; ++n) {
      if (doms[n] != TopologyDomains::kNone) sum[n] += scores[doms[n]];
    }
  }
  int64_t* const raw = buffers->raw.data();
  for (size_t n = 0; n < nf; ++n) {
    raw[indexes[n]] = ignored[n] ? 0 : pts_internal::RoundHalfAwayFromZero(sum[n]);
  }
  s->buffers = buffers;
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::Score(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node,
                                int64_t* score) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  *score = s->buffers->raw[node.index()];
  return Status();
}

bool PodTopologySpread::ScoreAll(const CycleState& state, const Pod& /*pod*/,
                                 std::span<const NodeInfo* const> nodes,
                                 std::span<const char> which, std::span<int64_t> scores) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return false;
  const int64_t* const raw = s->buffers->raw.data();
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (which[i]) scores[i] = raw[nodes[i]->index()];
  }
  return true;
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
    if (s->any_ignored && s->ignored[n]) continue;
    min_score = std::min(min_score, scores[n]);
    max_score = std::max(max_score, scores[n]);
  }
  for (size_t n = 0; n < scores.size(); ++n) {
    if (s->any_ignored && s->ignored[n]) {
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
