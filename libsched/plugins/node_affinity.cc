#include "libsched/plugins/node_affinity.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libsched/plugins/helper/node_match.h"
#include "libsched/plugins/helper/normalize_score.h"

namespace sched {
namespace {

// The pod's selectors are compiled when it is decoded, so unlike upstream
// the cycle state needs no copy of them: only the interner, which Gt/Lt
// requirements use to read label values and which Filter and Score cannot
// otherwise reach. PreFilter and PreScore both write it (one slot per
// plugin); the ClusterState that owns it outlives the cycle.
struct State : StateData {
  explicit State(const Interner* i) : interner(i) {}
  const Interner* interner;
};

// The node names the required terms allow (sorted ids), or nullopt when
// any node may match. Like upstream it reads metadata.name In values of
// every term, valid or not; a term that fails to parse never matches in
// Filter anyway.
std::optional<std::vector<Atom>> RequiredNodeNames(const Pod& pod) {
  if (!pod.required_node_affinity) return std::nullopt;
  const auto& terms = pod.required_node_affinity->terms;
  if (terms.empty()) return std::nullopt;
  std::vector<Atom> names;
  for (const NodeSelectorTerm& term : terms) {
    std::optional<std::vector<Atom>> term_names;
    for (const Requirement& r : term.match_fields) {
      if (r.op != SelectorOp::kIn) continue;
      if (!term_names) {
        term_names = r.values;
        continue;
      }
      std::vector<Atom> both;
      std::set_intersection(term_names->begin(), term_names->end(), r.values.begin(),
                            r.values.end(), std::back_inserter(both));
      *term_names = std::move(both);
    }
    if (!term_names) return std::nullopt;  // this term may match any node
    std::vector<Atom> either;
    std::set_union(names.begin(), names.end(), term_names->begin(), term_names->end(),
                   std::back_inserter(either));
    names = std::move(either);
  }
  // Decoded values are sorted but may repeat; the result must be a set.
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

}  // namespace

std::vector<ClusterEventWithHint> NodeAffinity::EventsToRegister(
    const ClusterState& cluster) const {
  const Interner* in = &cluster.interner();
  // The hints live in the profile that owns this plugin.
  const std::optional<NodeSelector>* added = &args_.added_required;
  auto node_changed = [in, added](const Pod& pod, const EventObject& old_obj,
                                  const EventObject& new_obj) {
    const Node* old_node = AsNode(old_obj);
    const Node* new_node = AsNode(new_obj);
    if (new_node == nullptr) return QueueingHint::kQueue;
    if (*added && !(*added)->Matches(new_node->labels, new_node->name_atom, *in)) {
      return QueueingHint::kQueueSkip;
    }
    if (!MatchesRequiredNodeAffinity(pod, *new_node, *in)) return QueueingHint::kQueueSkip;
    if (old_node != nullptr && MatchesRequiredNodeAffinity(pod, *old_node, *in)) {
      return QueueingHint::kQueueSkip;
    }
    return QueueingHint::kQueue;
  };
  return {{{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel, {}}, node_changed}};
}

Status NodeAffinity::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                               PreFilterResult* result) const {
  if (pod.node_selector.empty() && !pod.required_node_affinity && !args_.added_required) {
    return Status(Code::kSkip);
  }
  const Interner& in = snapshot.interner();
  state.Write(slot(), std::make_shared<State>(&in));
  const std::optional<std::vector<Atom>> names = RequiredNodeNames(pod);
  if (!names) return Status();
  if (names->empty()) return Status(Code::kUnschedulableAndUnresolvable, kReasonConflict);
  result->all_nodes = false;
  result->node_names.clear();
  for (Atom a : *names) result->node_names.push_back(in.Str(a));
  std::sort(result->node_names.begin(), result->node_names.end());
  return Status();
}

Status NodeAffinity::Filter(const CycleState& state, const Pod& pod,
                            const NodeInfo& node) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr) {
    return Status::Error("reading \"PreFilterNodeAffinity\" from cycleState: not found");
  }
  const Node& n = *node.node();
  if (args_.added_required && !args_.added_required->Matches(n.labels, n.name_atom, *s->interner)) {
    return Status(Code::kUnschedulableAndUnresolvable, kReasonEnforced);
  }
  if (!MatchesRequiredNodeAffinity(pod, n, *s->interner)) {
    return Status(Code::kUnschedulableAndUnresolvable, kReasonPod);
  }
  return Status();
}

Status NodeAffinity::PreScore(CycleState& state, const Pod& pod,
                              std::span<const NodeInfo* const> /*feasible*/,
                              const ClusterState& snapshot) const {
  const auto& terms = pod.preferred_node_affinity;
  for (size_t i = 0; i < terms.size(); ++i) {
    const NodeSelectorTerm& p = terms[i].preference;
    // Upstream drops zero-weight and empty terms before parsing the rest.
    const bool empty = p.match_expressions.empty() && p.match_fields.empty();
    if (terms[i].weight != 0 && !empty && !p.valid) {
      std::string msg = "[";
      msg += std::to_string(i);
      msg += "]: invalid preferredDuringSchedulingIgnoredDuringExecution term";
      return Status::Error(std::move(msg));
    }
  }
  if (terms.empty() && args_.added_preferred.empty()) return Status(Code::kSkip);
  state.Write(slot(), std::make_shared<State>(&snapshot.interner()));
  return Status();
}

Status NodeAffinity::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                           int64_t* score) const {
  const State* s = state.Read<State>(slot());
  if (s == nullptr) {
    return Status::Error("reading \"PreScoreNodeAffinity\" from cycleState: not found");
  }
  const Node& n = *node.node();
  int64_t count = 0;
  auto add = [&](std::span<const PreferredSchedulingTerm> terms) {
    for (const PreferredSchedulingTerm& t : terms) {
      // Zero-weight terms add nothing; invalid and empty ones never match.
      if (t.preference.Matches(n.labels, n.name_atom, *s->interner)) count += t.weight;
    }
  };
  add(args_.added_preferred);
  add(pod.preferred_node_affinity);
  *score = count;
  return Status();
}

Status NodeAffinity::NormalizeScore(const CycleState& /*state*/, const Pod& /*pod*/,
                                    std::span<int64_t> scores) const {
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
}

bool NodeAffinity::NormalizesZeroColumnTo(int64_t* normalized) const {
  *normalized = DefaultNormalizedZero(kMaxNodeScore, /*reverse=*/false);
  return true;
}

void NodeAffinity::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.AddAll(std::span<const Requirement>(pod.node_selector));
  sig.Add(pod.required_node_affinity);
  sig.AddAll(std::span<const PreferredSchedulingTerm>(pod.preferred_node_affinity));
}

}  // namespace sched
