#include "libsched/plugins/default_preemption.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "libsched/framework/filter_errors.h"
#include "libsched/plugins/dry_run_memo.h"

namespace sched {
namespace {

constexpr std::string_view kNoVictims = "No preemption victims found for incoming pod";
constexpr std::string_view kNotHelpful = "Preemption is not helpful for scheduling";

// util.GetPodStartTime(a).Before(GetPodStartTime(b)); an unset start time
// is "now", later than any recorded one.
bool StartedBefore(const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
  return a && (!b || *a < *b);
}

// isPreemptionAllowed with the default IsEligiblePod (always true).
bool PreemptionAllowed(const Pod& victim, const Pod& preemptor) {
  return victim.priority < preemptor.priority;
}

// filterPodsWithPDBViolation: splits `pods` (order kept) by whether
// deleting them, in this order, would exceed a budget's disruptionsAllowed.
void SplitByPdbViolation(std::span<const std::shared_ptr<const Pod>> pods,
                         std::span<const PodDisruptionBudget* const> pdbs,
                         const Interner& interner,
                         std::vector<std::shared_ptr<const Pod>>* violating,
                         std::vector<std::shared_ptr<const Pod>>* non_violating) {
  std::vector<int64_t> allowed;
  for (const PodDisruptionBudget* pdb : pdbs) allowed.push_back(pdb->disruptions_allowed);
  for (const auto& pod : pods) {
    bool violated = false;
    if (!pod->labels.empty()) {
      for (size_t i = 0; i < pdbs.size(); ++i) {
        if (!pdbs[i]->Covers(*pod, interner) || pdbs[i]->HasDisrupted(pod->name)) continue;
        if (--allowed[i] < 0) violated = true;
      }
    }
    (violated ? violating : non_violating)->push_back(pod);
  }
}

// GetEarliestPodStartTime: the earliest start among the highest-priority
// victims.
const std::optional<int64_t>& EarliestStartOfTopVictims(const Victims& v) {
  const std::optional<int64_t>* earliest = &v.pods[0]->start_time;
  int32_t max_priority = v.pods[0]->priority;
  for (const auto& p : v.pods) {
    if (p->priority == max_priority) {
      if (StartedBefore(p->start_time, *earliest)) earliest = &p->start_time;
    } else if (p->priority > max_priority) {
      max_priority = p->priority;
      earliest = &p->start_time;
    }
  }
  return *earliest;
}

// A status whose reasons live in `storage` (the plugin's result), so they
// outlive the CycleState clone a Filter reason may point into.
Status Owned(const Status& s, std::deque<std::string>& storage) {
  Status out(s.code());
  for (std::string_view r : s.reasons()) out.AddReason(storage.emplace_back(r));
  out.set_plugin(s.plugin());
  return out;
}

Status Unschedulable(std::string msg, PostFilterResult* result) {
  return Status(Code::kUnschedulable, result->messages.emplace_back(std::move(msg)));
}

// The class's dry-run memo in `entry` (made on first use), ready for this
// PostFilter; null when the cycle has no class or its Filters are not
// node-local (Framework::class_filter_key).
DryRunMemo* TakeDryRunMemo(const Framework& fw, std::unique_ptr<StateData>* entry,
                           const Pod& pod) {
  if (entry == nullptr || !fw.class_filter_key()) return nullptr;
  auto* memo = dynamic_cast<DryRunMemo*>(entry->get());
  if (memo == nullptr) {
    *entry = std::make_unique<DryRunMemo>();
    memo = static_cast<DryRunMemo*>(entry->get());
  }
  const ClusterState& snapshot = fw.snapshot();
  memo->Begin(*fw.class_filter_key(), pod.priority, snapshot.pdbs(), snapshot.NodeIndexBound());
  return memo;
}

}  // namespace

bool MoreImportantPod(const Pod& a, const Pod& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  return StartedBefore(a.start_time, b.start_time);
}

size_t PickOneNodeForPreemption(std::span<const PreemptionCandidate> candidates) {
  std::vector<size_t> left(candidates.size());
  for (size_t i = 0; i < left.size(); ++i) left[i] = i;
  // Keeps the candidates with the highest score, in order.
  auto keep_best = [&](const std::function<int64_t(const Victims&)>& score) {
    std::vector<size_t> best;
    int64_t max = INT64_MIN;
    for (size_t i : left) {
      const int64_t s = score(candidates[i].victims);
      if (s > max) {
        max = s;
        best.clear();
      }
      if (s == max) best.push_back(i);
    }
    left = std::move(best);
  };
  const std::function<int64_t(const Victims&)> scores[] = {
      [](const Victims& v) { return -v.num_pdb_violations; },
      [](const Victims& v) { return -static_cast<int64_t>(v.pods[0]->priority); },
      [](const Victims& v) {
        // Shifted by 2^31 so every term is >= 0 (upstream's MaxInt32 + 1).
        int64_t sum = 0;
        for (const auto& p : v.pods) sum += int64_t{p->priority} + (int64_t{1} << 31);
        return -sum;
      },
      [](const Victims& v) { return -static_cast<int64_t>(v.pods.size()); },
  };
  for (const auto& score : scores) {
    keep_best(score);
    if (left.size() == 1) return left[0];
  }
  // The latest start time of the highest-priority victims.
  size_t best = left[0];
  for (size_t i : left) {
    if (StartedBefore(EarliestStartOfTopVictims(candidates[best].victims),
                      EarliestStartOfTopVictims(candidates[i].victims))) {
      best = i;
    }
  }
  return best;
}

FieldErrors DefaultPreemption::ValidateArgs(const DefaultPreemptionArgs& args) {
  FieldErrors errs;
  const int32_t pct = args.min_candidate_nodes_percentage;
  const int32_t abs = args.min_candidate_nodes_absolute;
  if (pct < 0 || pct > 100) {
    errs.push_back({"minCandidateNodesPercentage",
                    "Invalid value: " + std::to_string(pct) + ": not in valid range [0, 100]"});
  }
  if (abs < 0) {
    errs.push_back({"minCandidateNodesAbsolute",
                    "Invalid value: " + std::to_string(abs) + ": not in valid range [0, inf)"});
  }
  if (pct == 0 && abs == 0) {
    errs.push_back({"minCandidateNodesPercentage",
                    "Invalid value: 0: cannot be zero at the same time as "
                    "minCandidateNodesAbsolute"});
    errs.push_back({"minCandidateNodesAbsolute",
                    "Invalid value: 0: cannot be zero at the same time as "
                    "minCandidateNodesPercentage"});
  }
  return errs;
}

int32_t DefaultPreemption::CalculateNumCandidates(int32_t num_nodes) const {
  const int64_t n = int64_t{num_nodes} * args_.min_candidate_nodes_percentage / 100;
  return static_cast<int32_t>(
      std::min<int64_t>(std::max<int64_t>(n, args_.min_candidate_nodes_absolute), num_nodes));
}

std::string_view DefaultPreemption::PodEligibleToPreemptOthers(const Framework& fw,
                                                               const Pod& pod,
                                                               Code nominated_code) const {
  if (pod.preempt_never) return "not eligible due to preemptionPolicy=Never.";
  if (pod.nominated_node_name.empty() || nominated_code == Code::kUnschedulableAndUnresolvable) {
    return {};
  }
  if (const NodeInfo* node = fw.snapshot().FindNode(pod.nominated_node_name)) {
    for (const auto& p : node->pods()) {
      // podTerminatingByPreemption: an earlier preemption is still running.
      if (PreemptionAllowed(*p, pod) && p->terminating && p->disruption_target_by_scheduler) {
        return "not eligible due to a terminating pod on the nominated node.";
      }
    }
  }
  return {};
}

Status DefaultPreemption::SelectVictimsOnNode(const Framework& fw, CycleState& state,
                                              const Pod& pod, NodeInfo& node,
                                              std::span<const PodDisruptionBudget* const> pdbs,
                                              Victims* victims) const {
  const uint64_t gen = node.generation();
  auto remove = [&](const std::shared_ptr<const Pod>& p) {
    node.RemovePod(p.get(), gen);
    return fw.RunPreFilterExtensionRemovePod(state, pod, *p, node);
  };
  std::vector<std::shared_ptr<const Pod>> potential;
  for (const auto& p : node.pods()) {
    if (PreemptionAllowed(*p, pod)) potential.push_back(p);
  }
  for (const auto& p : potential) {
    if (Status s = remove(p); !s.IsSuccess()) return s;
  }
  if (potential.empty()) return Status(Code::kUnschedulableAndUnresolvable, kNoVictims);
  if (Status s = fw.RunFilterPluginsWithNominatedPods(state, pod, node); !s.IsSuccess()) {
    return s;
  }

  // Reprieve as many as possible, the most important first, PDB-violating
  // ones before the rest.
  const auto by_importance = [](const auto& a, const auto& b) { return MoreImportantPod(*a, *b); };
  std::stable_sort(potential.begin(), potential.end(), by_importance);
  std::vector<std::shared_ptr<const Pod>> violating, non_violating;
  SplitByPdbViolation(potential, pdbs, fw.snapshot().interner(), &violating, &non_violating);
  auto reprieve = [&](const std::shared_ptr<const Pod>& p, bool* fits) {
    node.AddPod(p, gen);
    if (Status s = fw.RunPreFilterExtensionAddPod(state, pod, *p, node); !s.IsSuccess()) return s;
    *fits = fw.RunFilterPluginsWithNominatedPods(state, pod, node).IsSuccess();
    if (*fits) return Status();
    victims->pods.push_back(p);
    return remove(p);
  };
  for (const auto& p : violating) {
    bool fits = false;
    if (Status s = reprieve(p, &fits); !s.IsSuccess()) return s;
    if (!fits) ++victims->num_pdb_violations;
  }
  for (const auto& p : non_violating) {
    bool fits = false;
    if (Status s = reprieve(p, &fits); !s.IsSuccess()) return s;
  }
  if (!violating.empty() && !non_violating.empty()) {
    std::stable_sort(victims->pods.begin(), victims->pods.end(), by_importance);
  }
  return Status();
}

Status DefaultPreemption::PostFilter(const Framework& fw, const CycleState& state,
                                     const Pod& pod, const NodeToStatus& statuses,
                                     PostFilterResult* result) const {
  const ClusterState& snapshot = fw.snapshot();
  const Code nominated_code = statuses.CodeFor(snapshot.FindNode(pod.nominated_node_name));
  if (std::string_view why = PodEligibleToPreemptOthers(fw, pod, nominated_code); !why.empty()) {
    return Unschedulable("preemption: " + std::string(why), result);
  }

  // findCandidates / DryRunPreemption.
  const auto& all_nodes = snapshot.NodeList();
  const std::vector<const NodeInfo*> potential =
      statuses.NodesForStatusCode(all_nodes, Code::kUnschedulable);
  std::vector<const PodDisruptionBudget*> pdbs;
  for (const auto& [key, pdb] : snapshot.pdbs()) pdbs.push_back(pdb.get());
  const int64_t n = static_cast<int64_t>(potential.size());
  const int64_t offset = n > 0 ? fw.RandomInt(n) : 0;
  const size_t want = static_cast<size_t>(CalculateNumCandidates(static_cast<int32_t>(n)));
  std::vector<PreemptionCandidate> non_violating, violating;
  std::vector<NodeFailure> failures;
  std::vector<std::string> errors;  // DryRunPreemption's errs, aggregated
  // Each candidate's copy of the node and clone of the state, made again
  // over the last one's storage (no allocation once warm).
  NodeInfo node;
  CycleState node_state(0);
  DryRunMemo* memo = TakeDryRunMemo(fw, state.class_memo(slot()), pod);
  std::vector<uint32_t> yielded;  // positions in the node's nominated pods
  const NominatedKey pod_key = NominatedKey::Of(pod);
  for (int64_t i = 0; i < n; ++i) {
    const NodeInfo* original = potential[(offset + i) % n];
    Victims victims;
    Status s;
    // The memo's key for this node: its nominated pods the pod yields to
    // (unversioned ones are not memoized).
    YieldedNominations nominated;
    bool memoizable = memo != nullptr;
    if (memoizable) {
      nominated = fw.YieldedOn(*original, pod, pod_key, &yielded);
      memoizable = nominated.version != 0 || fw.NominatedPodsOn(*original).empty();
    }
    const DryRunMemo::Outcome* known = memoizable ? memo->Find(*original, nominated) : nullptr;
    if (known != nullptr) {
      s = known->status;
      victims.pods.reserve(known->victims.size());
      for (uint32_t k : known->victims) victims.pods.push_back(original->pods()[k]);
      victims.num_pdb_violations = known->num_pdb_violations;
    } else {
      node = *original;
      node_state.CopyFrom(state);
      s = SelectVictimsOnNode(fw, node_state, pod, node, pdbs, &victims);
      if (memoizable && s.code() != Code::kError) {
        memo->Store(*original, nominated, s, victims.pods, victims.num_pdb_violations);
      }
    }
    if (s.IsSuccess()) {  // SelectVictimsOnNode never succeeds without victims
      auto& list = victims.num_pdb_violations == 0 ? non_violating : violating;
      if (list.size() < want) list.push_back({original, std::move(victims)});
      if (!non_violating.empty() && non_violating.size() + violating.size() >= want) break;
      continue;
    }
    if (s.code() == Code::kError) errors.push_back(FilterErrorMessage(s));
    failures.push_back({original, Owned(s, result->messages)});
  }
  std::vector<PreemptionCandidate> candidates = std::move(non_violating);
  for (auto& c : violating) candidates.push_back(std::move(c));

  if (candidates.empty()) {
    if (!errors.empty()) return Status::Error("preemption: " + AggregateErrorMessages(errors));
    const Status absent(Code::kUnschedulableAndUnresolvable, kNotHelpful);
    const int64_t num_all = static_cast<int64_t>(all_nodes.size());
    return Unschedulable("preemption: 0/" + std::to_string(num_all) + " nodes are available:" +
                             ReasonsHistogram(num_all, failures, &absent),
                         result);
  }
  PreemptionCandidate& best =
      candidates[candidates.size() == 1 ? 0 : PickOneNodeForPreemption(candidates)];
  result->nominated_node_name = best.node->node()->name;
  result->victims = std::move(best.victims.pods);
  return Status();
}

}  // namespace sched
