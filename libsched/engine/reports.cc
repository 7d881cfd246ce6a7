#include "libsched/engine/reports.h"

#include <algorithm>
#include <unordered_set>

namespace sched {
namespace {

NodeVerdict Verdict(const NodeInfo& node, const Status& s) {
  NodeVerdict v{node.node()->name, s.code(), std::string(s.plugin()), {}};
  v.reasons.reserve(s.reasons().size());
  for (std::string_view reason : s.reasons()) v.reasons.emplace_back(reason);
  return v;
}

void AddNodeStatuses(const ScheduleResult& r, const ClusterState& state, PodResult& out) {
  // The nodes listed so far matter only when the absent ones follow.
  const bool with_absent = r.node.empty() && r.absent_status;
  std::unordered_set<const NodeInfo*> listed;
  out.node_statuses.reserve(with_absent ? state.NodeList().size() : r.failures.size());
  for (const NodeFailure& f : r.failures) {
    out.node_statuses.push_back(Verdict(*f.node, f.status));
    if (with_absent) listed.insert(f.node);
  }
  if (with_absent) {
    for (const NodeInfo* node : state.NodeList()) {
      if (!listed.count(node)) out.node_statuses.push_back(Verdict(*node, *r.absent_status));
    }
  }
}

// `per_plugin`: each plugin's weighted score too, not only the totals.
void AddScores(const ScheduleResult& r, bool per_plugin, PodResult& out) {
  if (per_plugin) out.score_plugins.assign(r.score_plugins.begin(), r.score_plugins.end());
  out.scores.reserve(r.scored_nodes.size());
  for (size_t i = 0; i < r.scored_nodes.size(); ++i) {
    NodeScores s{r.scored_nodes[i]->node()->name, r.total_scores[i], {}};
    if (!per_plugin) {
      out.scores.push_back(std::move(s));
      continue;
    }
    s.scores.reserve(r.score_plugins.size());
    for (size_t p = 0; p < r.score_plugins.size(); ++p) s.scores.push_back(r.PluginScore(p, i));
    out.scores.push_back(std::move(s));
  }
}

// Sorted by name, so a report does not depend on the order strings were
// interned in.
template <class Pairs, class Value>
auto ByName(const Pairs& pairs, const Interner& in, Value&& value) {
  std::vector<std::pair<std::string, decltype(value(pairs[0].second))>> out;
  out.reserve(pairs.size());
  for (const auto& [name, v] : pairs) out.emplace_back(in.Str(name), value(v));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

ResourceReport Report(const Resource& r, const Interner& in) {
  return {r.milli_cpu, r.memory, r.ephemeral_storage, r.allowed_pods,
          ByName(r.scalar, in, [](int64_t v) { return v; })};
}

}  // namespace

PodResult MakePodResult(std::string pod_key, const ScheduleResult& r, const ClusterState& state,
                        const ScheduleOptions& options, bool assumed) {
  PodResult out;
  out.pod = std::move(pod_key);
  out.outcome = !r.node.empty()                  ? Outcome::kScheduled
                : r.error && r.num_all_nodes > 0 ? Outcome::kError
                                                 : Outcome::kUnschedulable;
  out.node = r.node;
  if (out.outcome != Outcome::kScheduled) out.message = r.message;
  out.num_all_nodes = r.num_all_nodes;
  out.evaluated_nodes = r.evaluated_nodes;
  out.feasible_nodes = r.feasible_nodes;
  out.assumed = assumed;
  out.nominated_node = r.nominated_node;
  if (!r.nominated_node.empty()) out.victims = r.victims;
  out.with_node_statuses = options.node_statuses ||
                           (options.node_statuses_if_no_node && out.outcome != Outcome::kScheduled);
  if (out.with_node_statuses) AddNodeStatuses(r, state, out);
  if (options.scores || options.score_totals) AddScores(r, options.scores, out);
  return out;
}

NodeReport MakeNodeReport(const NodeInfo& ni, const Interner& in) {
  const Node& node = *ni.node();
  NodeReport out;
  out.name = node.name;
  out.labels = ByName(node.labels.entries(), in, [&](Atom v) { return in.Str(v); });
  out.allocatable = Report(node.allocatable, in);
  out.requested = Report(ni.requested(), in);
  out.non_zero_milli_cpu = ni.non_zero_requested().milli_cpu;
  out.non_zero_memory = ni.non_zero_requested().memory;
  out.pod_count = static_cast<int64_t>(ni.pods().size());
  return out;
}

}  // namespace sched
