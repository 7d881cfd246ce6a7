#include "libsched/engine/scale_up.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_set>

#include "libsched/model/interner.h"
#include "libsched/plugins/dynamic_resources.h"
#include "libsched/plugins/volume_binding.h"

namespace sched {
namespace {

constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

// Pods that get the same verdicts: one profile, class and priority.
struct Group {
  Scheduler* scheduler;
  std::vector<size_t> pods;  // indexes, in order
};

std::vector<Group> Groups(const std::function<Scheduler&(const Pod&)>& scheduler_for,
                          std::span<const std::shared_ptr<const Pod>> pods,
                          std::vector<size_t>* group_of) {
  std::vector<Group> groups;
  std::map<std::tuple<Scheduler*, uint64_t, int32_t>, size_t> index;
  group_of->resize(pods.size());
  for (size_t i = 0; i < pods.size(); ++i) {
    Scheduler& s = scheduler_for(*pods[i]);
    auto [it, added] =
        index.try_emplace({&s, s.PodClass(*pods[i]), pods[i]->priority}, groups.size());
    if (added) groups.push_back({&s, {}});
    groups[it->second].pods.push_back(i);
    (*group_of)[i] = it->second;
  }
  return groups;
}

// CA's DecreasingPodOrderer score of a pod on the template.
double Score(const Pod& pod, const Node& tmpl) {
  double score = 0;
  if (tmpl.allocatable.milli_cpu > 0)
    score += static_cast<double>(pod.requests.milli_cpu) / tmpl.allocatable.milli_cpu;
  if (tmpl.allocatable.memory > 0)
    score += static_cast<double>(pod.requests.memory) / tmpl.allocatable.memory;
  return score;
}

// Adds and removes the estimate's pods and nodes; the holds keep the new
// nodes' interned names while any of them is in the state.
class Estimator {
 public:
  Estimator(ClusterState& state, const PodNominator* nominator, std::vector<AtomHold>& holds)
      : state_(state), nominator_(nominator), holds_(holds) {}

  void Assume(const std::shared_ptr<const Pod>& pod, const std::string& node) {
    auto placed = std::make_shared<Pod>(*pod);
    placed->node_name = node;
    AssumePodVolumes(*placed, node, &state_);
    AssumePodClaims(*placed, node, &state_);
    state_.AssumePod(std::move(placed));
  }

  // A fresh copy of `tmpl` named "<template>-scaleup-<i>".
  const NodeInfo& AddNode(const Node& tmpl, size_t i) {
    auto node = std::make_shared<Node>(tmpl);
    node->name = tmpl.name + std::string(kScaleUpNodeInfix) + std::to_string(i);
    Interner& in = state_.interner();
    AtomRecorder rec(in);
    node->name_atom = in.Intern(node->name);
    const Atom hostname = in.Intern(kHostnameLabel);
    std::vector<LabelSet::Entry> labels;
    for (const LabelSet::Entry& e : tmpl.labels.entries())
      if (e.first != hostname) labels.push_back(e);
    labels.emplace_back(hostname, node->name_atom);
    node->labels = LabelSet(std::move(labels));
    holds_.push_back(rec.Finish());
    const std::string name = node->name;
    // In NodeList() at once: PreFilter plugins walk it (topology spread).
    state_.AddNodeListed(std::move(node));
    return *state_.FindNode(name);
  }

  NodeFit Fits(Scheduler& s, const Pod& pod, std::span<const NodeInfo* const> nodes,
               size_t start) const {
    return s.FitsAnyNode(pod, state_, nodes, start, nominator_);
  }

 private:
  ClusterState& state_;
  const PodNominator* nominator_;
  std::vector<AtomHold>& holds_;
};

TemplateEstimate Estimate(Estimator& est, ClusterState& state,
                          std::span<const std::shared_ptr<const Pod>> pods,
                          const std::vector<Group>& groups, const std::vector<char>& on_existing,
                          const NodeTemplate& t) {
  TemplateEstimate out;
  const Node& tmpl = *t.node;
  std::vector<std::optional<ScaleUpPending>> why(pods.size());
  // 2a: which groups a fresh node of the template helps.
  std::vector<size_t> helped;  // group indexes
  {
    ClusterState::Batch check(state);  // never committed
    const NodeInfo* fresh = &est.AddNode(tmpl, 0);
    for (size_t g = 0; g < groups.size(); ++g) {
      const std::vector<size_t>& members = groups[g].pods;
      auto first =
          std::find_if(members.begin(), members.end(), [&](size_t i) { return !on_existing[i]; });
      if (first == members.end()) continue;
      NodeFit f = est.Fits(*groups[g].scheduler, *pods[*first], {&fresh, 1}, 0);
      if (f.index) {
        helped.push_back(g);
        continue;
      }
      for (size_t i : members)
        if (!on_existing[i]) why[i] = ScaleUpPending{i, ScaleUpReason::kNoFit, f.message};
    }
  }
  // Opened after `check` closed: ClusterState saves its node tree once per
  // Batch, at the Batch's first node change, so the estimate's nodes must
  // not be the first change of a Batch that had a nested one before.
  ClusterState::Batch estimate(state);  // never committed
  // 2b.
  std::stable_sort(helped.begin(), helped.end(), [&](size_t a, size_t b) {
    return Score(*pods[groups[a].pods[0]], tmpl) > Score(*pods[groups[b].pods[0]], tmpl);
  });
  // 2c.
  std::vector<const NodeInfo*> nodes;  // the new ones, in creation order
  std::vector<int64_t> counts;
  auto place = [&](size_t i, size_t n) {
    est.Assume(pods[i], nodes[n]->node()->name);
    nodes[n] = state.FindNode(nodes[n]->node()->name);  // the NodeInfo may be a new one
    ++counts[n];
    out.placements.emplace_back(i, nodes[n]->node()->name);
  };
  for (size_t g : helped) {
    Scheduler& s = *groups[g].scheduler;
    std::vector<size_t> rest;
    for (size_t i : groups[g].pods)
      if (!on_existing[i]) rest.push_back(i);
    size_t k = 0;
    for (size_t from = 0; k < rest.size() && !nodes.empty(); ++k) {
      NodeFit f = est.Fits(s, *pods[rest[k]], nodes, from);
      if (!f.index) break;
      from = *f.index;
      place(rest[k], from);
    }
    for (; k < rest.size(); ++k) {
      const size_t i = rest[k];
      std::string message;
      if (!nodes.empty()) {
        NodeFit f = est.Fits(s, *pods[i], {&nodes.back(), 1}, 0);
        if (f.index) {
          place(i, nodes.size() - 1);
          continue;
        }
        message = std::move(f.message);
        if (counts.back() == 0) {
          for (; k < rest.size(); ++k)
            why[rest[k]] = ScaleUpPending{rest[k], ScaleUpReason::kNewNode, message};
          break;
        }
      }
      if (static_cast<int64_t>(nodes.size()) >= t.max_nodes) {
        for (; k < rest.size(); ++k)
          why[rest[k]] = ScaleUpPending{rest[k], ScaleUpReason::kMaxNodes, ""};
        break;
      }
      nodes.push_back(&est.AddNode(tmpl, nodes.size()));
      counts.push_back(0);
      NodeFit f = est.Fits(s, *pods[i], {&nodes.back(), 1}, 0);
      if (!f.index) {
        for (; k < rest.size(); ++k)
          why[rest[k]] = ScaleUpPending{rest[k], ScaleUpReason::kNewNode, f.message};
        break;
      }
      place(i, nodes.size() - 1);
    }
  }
  for (size_t n = 0; n < nodes.size(); ++n) {
    out.new_nodes.emplace_back(nodes[n]->node()->name, counts[n]);
    if (counts[n] > 0) ++out.nodes;
  }
  for (auto& w : why)
    if (w) out.pending.push_back(std::move(*w));
  return out;
}

}  // namespace

std::string_view ScaleUpReasonName(ScaleUpReason r) {
  switch (r) {
    case ScaleUpReason::kNoFit:
      return "NoFit";
    case ScaleUpReason::kNewNode:
      return "NewNode";
    case ScaleUpReason::kMaxNodes:
      return "MaxNodes";
  }
  return "";
}

ScaleUpResult ScaleUp(const std::function<Scheduler&(const Pod&)>& scheduler_for,
                      ClusterState& state, const PodNominator* nominator,
                      std::span<const std::shared_ptr<const Pod>> pods,
                      std::span<const NodeTemplate> templates) {
  ScaleUpResult out;
  std::vector<AtomHold> holds;  // outlives the Batches: the new nodes go first
  std::vector<size_t> group_of;
  const std::vector<Group> groups = Groups(scheduler_for, pods, &group_of);
  std::vector<char> on_existing(pods.size(), 0);
  ClusterState::Batch batch(state);  // never committed
  Estimator est(state, nominator, holds);
  // 1: existing nodes.
  std::vector<char> group_failed(groups.size(), 0);
  for (size_t i = 0; i < pods.size(); ++i) {
    if (group_failed[group_of[i]]) continue;
    const ScheduleResult r = groups[group_of[i]].scheduler->Schedule(*pods[i], state, nominator);
    state.SnapshotTaken();
    if (r.node.empty()) {
      group_failed[group_of[i]] = 1;
      continue;
    }
    est.Assume(pods[i], r.node);
    on_existing[i] = 1;
    out.existing.emplace_back(i, r.node);
  }
  // 2: each template on what step 1 left.
  std::vector<int64_t> no_fit(pods.size(), 0);
  for (const NodeTemplate& t : templates) {
    out.templates.push_back(Estimate(est, state, pods, groups, on_existing, t));
    for (const ScaleUpPending& p : out.templates.back().pending)
      if (p.reason == ScaleUpReason::kNoFit) ++no_fit[p.pod];
  }
  for (size_t i = 0; i < pods.size(); ++i)
    if (!on_existing[i] && no_fit[i] == static_cast<int64_t>(templates.size()))
      out.unhelped.push_back(i);
  return out;
}

}  // namespace sched
