// DefaultPreemption: the PostFilter plugin that, when no node fits, looks
// for a node where deleting lower-priority pods would make the pod fit,
// mirroring pkg/scheduler/framework/plugins/defaultpreemption/
// default_preemption.go and the Evaluator of
// pkg/scheduler/framework/preemption/preemption.go (kube-scheduler v1.36.3).
//
// Steps: eligibility (preemptionPolicy Never; victims of an earlier
// preemption still terminating on the nominated node) -> candidates = nodes
// whose Filter verdict was Unschedulable -> dry run on up to
// CalculateNumCandidates of them, from a random offset (SelectVictimsOnNode)
// -> pickOneNodeForPreemption. The plugin only decides: deleting the victims
// is the caller's job (as kube-scheduler's preemption executor does via the
// API).
//
// With the equivalence cache, a node's dry-run outcome is kept per class
// (DryRunMemo, dry_run_memo.h) and read back by the next preemptor of the
// class while nothing it depends on changed: the same outcomes, so the same
// candidates, victims and draws.
//
// Deliberate differences (docs/upstream-differences.md): the dry run is
// sequential, so it stops at exactly the same candidates for a seed; ties
// left after every criterion go to the first candidate in dry-run order
// (upstream: map order); a pod without status.startTime counts as started
// "now", i.e. after every pod that has one, and two such pods tie.
//
// Thread-safety: immutable after construction; PostFilter draws from the
// Framework's random source, so calls with one Framework must not overlap.
#ifndef LIBSCHED_PLUGINS_DEFAULT_PREEMPTION_H_
#define LIBSCHED_PLUGINS_DEFAULT_PREEMPTION_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/field_error.h"
#include "libsched/framework/framework.h"
#include "libsched/framework/plugin.h"
#include "libsched/model/pdb.h"

namespace sched {

// config.DefaultPreemptionArgs with upstream's defaults
// (pkg/scheduler/apis/config/v1/defaults.go).
struct DefaultPreemptionArgs {
  int32_t min_candidate_nodes_percentage = 10;  // 0..100
  int32_t min_candidate_nodes_absolute = 100;   // >= 0
};

// extenderv1.Victims: the pods to delete on one node, most important first,
// and how many of them violate a PodDisruptionBudget.
struct Victims {
  std::vector<std::shared_ptr<const Pod>> pods;
  int64_t num_pdb_violations = 0;
};

// A node where preemption would make the pod fit.
struct PreemptionCandidate {
  const NodeInfo* node;
  Victims victims;
};

// util.MoreImportantPod: higher priority, then earlier status.startTime.
bool MoreImportantPod(const Pod& a, const Pod& b);

// pickOneNodeForPreemption: the index of the candidate with, in order, the
// fewest PDB violations, the lowest highest-victim priority, the smallest
// sum of victim priorities, the fewest victims, the latest start among its
// highest-priority victims; then the first. REQUIRES: non-empty, every
// candidate has victims.
size_t PickOneNodeForPreemption(std::span<const PreemptionCandidate> candidates);

class DefaultPreemption : public PostFilterPlugin {
 public:
  static constexpr std::string_view kName = "DefaultPreemption";
  // ValidateDefaultPreemptionArgs: both counts in range and not both zero;
  // every bad field, in upstream's words.
  static FieldErrors ValidateArgs(const DefaultPreemptionArgs& args);
  // REQUIRES: ValidateArgs(args) is empty (the defaults are valid).
  explicit DefaultPreemption(DefaultPreemptionArgs args) : args_(args) {}
  std::string_view Name() const override { return kName; }

  Status PostFilter(const Framework& fw, const CycleState& state, const Pod& pod,
                    const NodeToStatus& statuses, PostFilterResult* result) const override;

  // PodEligibleToPreemptOthers: empty when eligible, else the reason.
  // `nominated_code` is the Filter verdict of the pod's nominated node.
  std::string_view PodEligibleToPreemptOthers(const Framework& fw, const Pod& pod,
                                              Code nominated_code) const;

  // calculateNumCandidates: numNodes * percentage / 100, at least the
  // absolute minimum, at most numNodes.
  int32_t CalculateNumCandidates(int32_t num_nodes) const;

  // SelectVictimsOnNode: removes every lower-priority pod from `node` (a
  // private copy, changed in place) and from `state` (a private clone);
  // if the pod then fits, adds back as many as possible, PDB-violating
  // ones first, each group most important first. Success fills `victims`;
  // otherwise the status says why the node cannot help.
  Status SelectVictimsOnNode(const Framework& fw, CycleState& state, const Pod& pod,
                             NodeInfo& node,
                             std::span<const PodDisruptionBudget* const> pdbs,
                             Victims* victims) const;

 private:
  DefaultPreemptionArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_DEFAULT_PREEMPTION_H_
