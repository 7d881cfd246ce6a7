#include "libsched/plugins/service_affinity.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>

#include "libsched/plugins/helper/default_selector.h"

namespace sched {
namespace {

// A placed pod the pod's labels select, and the node it is on.
struct MatchingPod {
  const Pod* pod;
  const Node* node;
};

// preFilterState, plus what Filter needs from the pod and the args.
// Copyable: AddPod / RemovePod copy it on write.
struct FilterData {
  std::vector<MatchingPod> matching_pods;  // matchingPodList
  bool has_services = false;               // len(matchingPodServices) > 0
  size_t num_affinity_labels = 0;          // len(args.AffinityLabels), repeats included
  // findLabelsInSet(affinityLabels, nodeSelector): the labels the pod fixes.
  std::vector<std::pair<Atom, Atom>> fixed;
  // The other affinity labels, in args order (kNoAtom: a key no node has).
  std::vector<Atom> missing;
};

// The first Service's selector and the preference labels' values on the
// feasible nodes (values[label][node]).
struct ScoreData {
  LabelSelector selector;
  std::vector<std::vector<std::optional<Atom>>> values;
};

// The plugin's one CycleState slot: PreFilter fills `filter`; PreScore
// replaces the slot with one holding `score`.
struct State final : StateData {
  std::optional<FilterData> filter;
  std::optional<ScoreData> score;
  const Interner* interner = nullptr;
};

// createSelectorFromLabels(pod.Labels).Matches(other.Labels): every label of
// the pod, with its value, is on `other` (no labels select every pod).
bool LabelsSelect(const LabelSet& selector, const LabelSet& labels) {
  for (const auto& [key, value] : selector.entries()) {
    if (labels.Get(key) != value) return false;
  }
  return true;
}

// nodeInfo.FilterOutPods then [0]: the first matching pod that is not on
// this node, or is on it and still among its pods (preemption may have
// removed it from this NodeInfo).
const MatchingPod* FirstPresent(const std::vector<MatchingPod>& pods, const NodeInfo& node) {
  for (const MatchingPod& m : pods) {
    if (m.node->name != node.node()->name) return &m;
    for (const auto& p : node.pods()) {
      if (SamePod(*p, *m.pod)) return &m;
    }
  }
  return nullptr;
}

constexpr const char* kFilterStateMissing =
    "error reading \"PreFilterServiceAffinity\" from cycleState: not found";

}  // namespace

Status ServiceAffinity::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                                  PreFilterResult* /*result*/) const {
  if (args_.affinity_labels.empty()) return Status(Code::kSkip);
  auto s = std::make_shared<State>();
  s->interner = &snapshot.interner();
  FilterData& f = s->filter.emplace();
  f.has_services = !GetPodServices(pod, snapshot).empty();
  f.num_affinity_labels = args_.affinity_labels.size();
  for (const std::string& label : args_.affinity_labels) {
    const Atom key = snapshot.interner().Find(label);
    const auto in_selector = std::find_if(pod.node_selector.begin(), pod.node_selector.end(),
                                          [&](const Requirement& r) { return r.key == key; });
    const bool seen = std::any_of(f.fixed.begin(), f.fixed.end(),
                                  [&](const auto& kv) { return kv.first == key; });
    if (key != kNoAtom && in_selector != pod.node_selector.end()) {
      if (!seen) f.fixed.emplace_back(key, in_selector->values.front());
    } else {
      f.missing.push_back(key);
    }
  }
  for (const NodeInfo* n : snapshot.NodeList()) {
    for (const auto& p : n->pods()) {
      if (p->ns == pod.ns && LabelsSelect(pod.labels, p->labels)) {
        f.matching_pods.push_back({p.get(), n->node()});
      }
    }
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status ServiceAffinity::AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                               const NodeInfo& node) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->filter) return Status::Error(kFilterStateMissing);
  if (pod_to_add.ns != pod.ns || !LabelsSelect(pod.labels, pod_to_add.labels)) return Status();
  state.CopyOnWrite<State>(slot())->filter->matching_pods.push_back({&pod_to_add, node.node()});
  return Status();
}

Status ServiceAffinity::RemovePod(CycleState& state, const Pod& /*pod*/, const Pod& pod_to_remove,
                                  const NodeInfo& /*node*/) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->filter) return Status::Error(kFilterStateMissing);
  const std::vector<MatchingPod>& pods = s->filter->matching_pods;
  const auto it = std::find_if(pods.begin(), pods.end(), [&](const MatchingPod& m) {
    return SamePod(*m.pod, pod_to_remove);
  });
  if (it == pods.end()) return Status();
  const auto index = it - pods.begin();
  auto& mutable_pods = state.CopyOnWrite<State>(slot())->filter->matching_pods;
  mutable_pods.erase(mutable_pods.begin() + index);
  return Status();
}

Status ServiceAffinity::Filter(const CycleState& state, const Pod& /*pod*/,
                               const NodeInfo& node) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->filter) return Status::Error(kFilterStateMissing);
  const FilterData& f = *s->filter;
  std::vector<std::pair<Atom, Atom>> labels = f.fixed;
  // Step 1: back-fill the labels the pod does not fix from the node of a
  // placed pod of the same Service.
  if (f.num_affinity_labels > labels.size() && f.has_services) {
    if (const MatchingPod* m = FirstPresent(f.matching_pods, node)) {
      for (Atom key : f.missing) {
        const bool seen = std::any_of(labels.begin(), labels.end(),
                                      [&](const auto& kv) { return kv.first == key; });
        const std::optional<Atom> value = m->node->labels.Get(key);
        if (!seen && value) labels.emplace_back(key, *value);
      }
    }
  }
  // Step 2: the node must carry them all.
  for (const auto& [key, value] : labels) {
    if (node.node()->labels.Get(key) != value) return Status(Code::kUnschedulable, kReason);
  }
  return Status();
}

Status ServiceAffinity::PreScore(CycleState& state, const Pod& pod,
                                 std::span<const NodeInfo* const> feasible,
                                 const ClusterState& snapshot) const {
  auto s = std::make_shared<State>();
  s->interner = &snapshot.interner();
  ScoreData& d = s->score.emplace();
  const std::vector<const Workload*> services = GetPodServices(pod, snapshot);
  if (!services.empty()) {  // labels.SelectorFromSet(services[0].Spec.Selector)
    for (const auto& [key, value] : services.front()->match_labels->entries()) {
      Requirement& r = d.selector.requirements.emplace_back();
      r.key = key;
      r.values = {value};
    }
  }
  for (const std::string& label : args_.anti_affinity_labels_preference) {
    const Atom key = snapshot.interner().Find(label);
    std::vector<std::optional<Atom>>& values = d.values.emplace_back();
    values.reserve(feasible.size());
    for (const NodeInfo* n : feasible) values.push_back(n->node()->labels.Get(key));
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status ServiceAffinity::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                              int64_t* score) const {
  *score = 0;
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->score) {
    return Status::Error("reading \"PreScoreServiceAffinity\" from cycleState: not found");
  }
  *score = CountMatchingPods(node, s->score->selector, pod.ns, *s->interner);
  return Status();
}

Status ServiceAffinity::NormalizeScore(const CycleState& state, const Pod& /*pod*/,
                                       std::span<int64_t> scores) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr || !s->score) {
    return Status::Error("reading \"PreScoreServiceAffinity\" from cycleState: not found");
  }
  const double max_priority = static_cast<double>(kMaxNodeScore);
  const double num_labels = static_cast<double>(s->score->values.size());
  std::vector<double> reduced(scores.size(), 0.0);
  // updateNodeScoresForLabel, one label at a time over the same raw scores.
  for (const std::vector<std::optional<Atom>>& values : s->score->values) {
    int64_t num_service_pods = 0;
    std::unordered_map<Atom, int64_t> pod_counts;
    for (size_t i = 0; i < scores.size(); ++i) {
      num_service_pods += scores[i];
      if (values[i]) pod_counts[*values[i]] += scores[i];
    }
    for (size_t i = 0; i < scores.size(); ++i) {
      if (!values[i]) continue;
      double f = max_priority;
      if (num_service_pods > 0) {
        f = max_priority * (static_cast<double>(num_service_pods - pod_counts[*values[i]]) /
                            static_cast<double>(num_service_pods));
      }
      reduced[i] += f / num_labels;
    }
  }
  for (size_t i = 0; i < scores.size(); ++i) scores[i] = static_cast<int64_t>(reduced[i]);
  return Status();
}

}  // namespace sched
