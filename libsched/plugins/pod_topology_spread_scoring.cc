// PodTopologySpread PreScore / Score / NormalizeScore, mirroring
// podtopologyspread/scoring.go.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/plugins/internal/pod_topology_spread_buffers.h"
#include "libsched/plugins/internal/pod_topology_spread_common.h"
#include "libsched/plugins/internal/pod_topology_spread_normalize.h"
#include "libsched/plugins/pod_topology_spread.h"

namespace sched {
namespace {

using pts_internal::Constraint;
using pts_internal::NodeBuffers;
using pts_internal::SameSelector;

constexpr std::string_view kHostnameKey = "kubernetes.io/hostname";  // v1.LabelHostname

// What PreScore keeps per equivalence class (CycleState::class_memo): the
// default constraints and the ids of the strings it looks up; the
// buffers, which the class's next cycle reuses once no CycleState of an
// earlier one holds them (no allocation, no zeroing of NodeIndexBound()
// entries a cycle); per constraint the pod groups its selector matched,
// so a cycle does not match every group of the cluster again while no
// group came or went; and scratch whose capacity the next cycle reuses.
struct ClassMemo : StateData {
  pts_internal::ConstraintsMemo constraints;
  pts_internal::KeptAtom hostname;
  pts_internal::KeptAtom empty;
  std::shared_ptr<NodeBuffers> buffers;
  std::vector<pts_internal::GroupMatches> groups;
  // PreScore's scratch: the nodes of the matching pods, each with a count.
  std::vector<std::pair<const NodeInfo*, int64_t>> matches;
};

// One constraint as Score reads it.
struct Term {
  const TopologyDomains::Key* domains = nullptr;  // null: no node has the key
  const int64_t* host_counts = nullptr;           // hostname: by node index
  std::vector<double> domain_scores;              // otherwise: by domain id
  double weight = 0;                              // topologyNormalizingWeight
  int32_t max_skew = 1;
};

// scoreForCount: a node's share of one constraint's score.
double ScoreForCount(int64_t count, double normalizing_weight, int32_t max_skew) {
  return static_cast<double>(count) * normalizing_weight + static_cast<double>(max_skew - 1);
}

struct PreScoreState : StateData {
  // Per constraint whose key some node has, in order (the others add
  // nothing to any node).
  std::vector<Term> terms;
  bool require_all_topologies = false;
  bool every_node_ignored = false;  // a required key no node has
  size_t num_feasible = 0;
  // With require_all_topologies, parallel to the feasible nodes: 1 when the
  // node lacks a key (IgnoredNodes); else empty.
  std::vector<uint8_t> ignored;
  bool any_ignored = false;
  std::shared_ptr<const NodeBuffers> buffers;  // holds the host counts
  // The system defaults' shape: two terms, one of them hostname with the
  // key on every node. Then, by domain of the other term (the last entry:
  // a node without its key), RawScore of a node with no matching pod, and
  // the index of the hostname term; else empty. ScoreAll looks a node up
  // there unless it holds matching pods.
  std::vector<int64_t> no_match_scores;
  size_t host_term = 0;

  // Score's raw value of a feasible node: Σ scoreForCount over the
  // constraints whose key the node has, in their order, then math.Round
  // (halves away from zero); 0 for an ignored node. Computed where it is
  // read: PreScore leaves per-domain scores and per-node counts only.
  // kTerms: terms.size() when known at compile time (the loop unrolled, the
  // terms' fields kept across a walk's nodes), else 0.
  template <size_t kTerms = 0>
  int64_t RawScore(uint32_t node_index) const {
    if (every_node_ignored) return 0;
    double sum = 0;
    const size_t n = kTerms != 0 ? kTerms : terms.size();
    for (size_t i = 0; i < n; ++i) {
      const Term& t = terms[i];
      const uint32_t d = t.domains->DomainOf(node_index);
      if (d == TopologyDomains::kNone) {
        if (require_all_topologies) return 0;
        continue;
      }
      sum += t.host_counts != nullptr ? ScoreForCount(t.host_counts[node_index], t.weight, t.max_skew)
                                      : t.domain_scores[d];
    }
    return pts_internal::RoundHalfAwayFromZero(sum);
  }

  // Fills no_match_scores when the terms have its shape. `every_node`:
  // the number of listed nodes. The sums are RawScore's, in term order.
  void TabulateNoMatchScores(size_t every_node) {
    if (terms.size() != 2 || every_node_ignored) return;
    host_term = terms[0].host_counts != nullptr ? 0 : 1;
    const Term& host = terms[host_term];
    const Term& other = terms[1 - host_term];
    if (host.host_counts == nullptr || other.host_counts != nullptr ||
        host.domains->num_nodes() < every_node) {
      return;
    }
    const size_t bound = other.domains->bound();
    no_match_scores.resize(bound + 1, 0);
    for (size_t d = 0; d <= bound; ++d) {
      if (d == bound && require_all_topologies) break;  // RawScore's 0
      double sum = 0;
      for (const Term& t : terms) {
        if (&t == &host) {
          sum += ScoreForCount(0, t.weight, t.max_skew);
        } else if (d < bound) {
          sum += t.domain_scores[d];
        }
      }
      no_match_scores[d] = pts_internal::RoundHalfAwayFromZero(sum);
    }
  }
};

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

constexpr const char* kNotFound =
    "reading \"PreScorePodTopologySpread\" from cycleState: not found";

}  // namespace

Status PodTopologySpread::PreScore(CycleState& state, const Pod& pod,
                                   std::span<const NodeInfo* const> feasible,
                                   const ClusterState& snapshot) const {
  if (snapshot.NodeList().empty()) return Status(Code::kSkip);
  ClassMemo* memo = TakeClassMemo(state.class_memo(slot()));
  std::vector<Constraint> unkept;  // the constraints when the cycle has no class
  const std::vector<Constraint>& constraints =
      memo != nullptr
          ? pts_internal::GetConstraints(pod, /*do_not_schedule=*/false, args_, snapshot,
                                         memo->constraints)
          : (unkept = pts_internal::GetConstraints(pod, /*do_not_schedule=*/false, args_,
                                                   snapshot));
  if (constraints.empty()) return Status(Code::kSkip);
  auto s = std::make_unique<PreScoreState>();
  const Interner& in = snapshot.interner();
  const Atom hostname =
      memo != nullptr ? memo->hostname.Find(in, kHostnameKey) : in.Find(kHostnameKey);
  s->require_all_topologies =
      !pod.topology_spread_constraints.empty() || !args_.system_defaulting;
  const bool require_all = s->require_all_topologies;
  const size_t nc = constraints.size();
  const size_t nf = feasible.size();
  s->num_feasible = nf;
  size_t num_hostname = 0;
  for (const Constraint& c : constraints) num_hostname += c.topology_key == hostname ? 1 : 0;
  const std::shared_ptr<NodeBuffers> buffers =
      pts_internal::TakeBuffers(memo != nullptr ? &memo->buffers : nullptr,
                                snapshot.NodeIndexBound(), num_hostname);

  // initPreScoreState: the ignored nodes (they lack a key; none when every
  // node has every key), then per constraint other than hostname the
  // number of domains of the other feasible nodes. A node without the key
  // is in the domain of the value "" (upstream reads a missing label as
  // ""): the id of "" or one past the domains.
  const size_t num_nodes = snapshot.NodeList().size();
  auto some_node_lacks = [&](const Constraint& c) {
    return c.domains == nullptr || c.domains->num_nodes() < num_nodes;
  };
  int64_t num_ignored = 0;
  if (require_all && std::any_of(constraints.begin(), constraints.end(), some_node_lacks)) {
    s->ignored.resize(nf);
    for (size_t n = 0; n < nf; ++n) {
      s->ignored[n] = pts_internal::NodeHasAllKeys(*feasible[n], constraints) ? 0 : 1;
      num_ignored += s->ignored[n];
    }
  }
  s->any_ignored = num_ignored > 0;
  const Atom empty = memo != nullptr ? memo->empty.Find(in, "") : in.Find("");
  std::vector<uint32_t> missing(nc, 0);
  std::vector<int64_t*> host_counts(nc, nullptr);  // hostname constraints' counts
  s->terms.resize(nc);
  size_t next_host = 0;
  for (size_t i = 0; i < nc; ++i) {
    const Constraint& c = constraints[i];
    Term& t = s->terms[i];
    t.domains = c.domains;
    t.max_skew = c.max_skew;
    if (c.topology_key == hostname) {
      host_counts[i] = buffers->host_counts[next_host++].data();
      t.host_counts = host_counts[i];
      t.weight = std::log(static_cast<double>(static_cast<int64_t>(nf) - num_ignored + 2));
      continue;
    }
    const uint32_t of_empty =
        c.domains == nullptr ? TopologyDomains::kNone : c.domains->Find(empty);
    missing[i] = of_empty == TopologyDomains::kNone ? static_cast<uint32_t>(c.DomainBound())
                                                    : of_empty;
    // The walk stops once it met every domain a node can be in.
    const size_t reachable =
        c.domains == nullptr
            ? 1
            : c.domains->num_domains() + (of_empty == TopologyDomains::kNone && some_node_lacks(c));
    std::vector<uint8_t>& seen = buffers->seen;
    seen.assign(c.DomainBound() + 1, 0);
    size_t size = 0;
    for (size_t n = 0; n < nf && size < reachable; ++n) {
      if (s->any_ignored && s->ignored[n]) continue;
      const uint32_t d = c.DomainOf(*feasible[n]);
      uint8_t& was = seen[d == TopologyDomains::kNone ? missing[i] : d];
      size += was == 0 ? 1 : 0;
      was = 1;
    }
    t.weight = std::log(static_cast<double>(size + 2));
  }

  // Matching pods: per node for hostname constraints (every node that
  // holds one; Score reads the feasible ones); otherwise summed into
  // domains over every node of the snapshot, which is over the nodes
  // holding matching pods that have a Node object (NodeList()'s):
  // O(matching pods' nodes), not O(nodes) as upstream's walk of every node.
  // The pod groups are matched once per distinct selector (the system
  // default constraints share one). Each other constraint's scoreForCount
  // is taken once per domain (upstream's topologyValueToPodCounts), not
  // once per node: Score reads the domains of feasible nodes only.
  std::vector<std::pair<const NodeInfo*, int64_t>> unkept_matches;
  std::vector<std::pair<const NodeInfo*, int64_t>>& matches =
      memo != nullptr ? memo->matches : unkept_matches;
  const std::optional<LabelSelector>* matched = nullptr;
  for (size_t i = 0; i < nc; ++i) {
    const Constraint& c = constraints[i];
    Term& t = s->terms[i];
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
    if (int64_t* const by_node = host_counts[i]; by_node != nullptr) {
      for (const auto& [node, count] : matches) {
        buffers->counted.push_back(node->index());
        by_node[node->index()] += count;
      }
      continue;
    }
    std::vector<int64_t> counts(c.DomainBound() + 1, 0);
    const bool reads_node = c.PoliciesReadNode(pod);
    for (const auto& [node, count] : matches) {
      const uint32_t index = node->index();
      if (node->node() == nullptr) continue;
      if (require_all && !pts_internal::NodeHasAllKeys(index, constraints)) continue;
      if (reads_node && !c.MatchesNodeInclusionPolicies(pod, *node->node(), in)) continue;
      const uint32_t d = c.DomainOf(index);
      counts[d == TopologyDomains::kNone ? missing[i] : d] += count;
    }
    t.domain_scores.resize(counts.size());
    for (size_t d = 0; d < counts.size(); ++d) {
      t.domain_scores[d] = ScoreForCount(counts[d], t.weight, c.max_skew);
    }
  }
  s->every_node_ignored =
      require_all && std::any_of(constraints.begin(), constraints.end(),
                                 [](const Constraint& c) { return c.domains == nullptr; });
  std::erase_if(s->terms, [](const Term& t) { return t.domains == nullptr; });
  s->TabulateNoMatchScores(num_nodes);
  s->buffers = buffers;
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::Score(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node,
                                int64_t* score) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  *score = s->RawScore(node.index());
  return Status();
}

bool PodTopologySpread::ScoreAll(const CycleState& state, const Pod& /*pod*/,
                                 std::span<const NodeInfo* const> nodes,
                                 std::span<const char> which, std::span<int64_t> scores) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return false;
  // The system defaults' shape by table; other two-term ones unrolled.
  const auto walk = [&](auto raw_score) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (which[i]) scores[i] = raw_score(nodes[i]->index());
    }
  };
  if (!s->no_match_scores.empty()) {
    const int64_t* const host_counts = s->terms[s->host_term].host_counts;
    const TopologyDomains::Key& other = *s->terms[1 - s->host_term].domains;
    const std::span<const int64_t> table = s->no_match_scores;
    const uint32_t last = static_cast<uint32_t>(table.size() - 1);  // kNone's entry
    walk([&](uint32_t index) {
      return host_counts[index] != 0 ? s->RawScore<2>(index)
                                     : table[std::min(other.DomainOf(index), last)];
    });
  } else if (s->terms.size() == 2) {
    walk([s](uint32_t index) { return s->RawScore<2>(index); });
  } else {
    walk([s](uint32_t index) { return s->RawScore(index); });
  }
  return true;
}

Status PodTopologySpread::NormalizeScore(const CycleState& state, const Pod& /*pod*/,
                                         std::span<int64_t> scores) const {
  const PreScoreState* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  if (s->num_feasible != scores.size()) {
    return Status::Error("PodTopologySpread: scores do not match the nodes of PreScore");
  }
  pts_internal::ReverseNormalize(
      scores, s->any_ignored ? std::span<const uint8_t>(s->ignored) : std::span<const uint8_t>());
  return Status();
}

}  // namespace sched
