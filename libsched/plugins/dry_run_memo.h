// DryRunMemo: one equivalence class's preemption dry-run outcomes by node
// (DefaultPreemption::SelectVictimsOnNode: the victims, or why the node
// cannot help), kept in the class's memo entry of DefaultPreemption
// (CycleState::class_memo) so that the next preemptor of the class reads a
// node's outcome instead of running the dry run again.
//
// An outcome depends on: the node (the same NodeInfo at the same
// generation: its pods, their priorities and start times), the Filters'
// inputs besides the node (Framework::class_filter_key: set only when they
// are node-local and no PreFilter extension runs, so removing and adding
// pods changes nothing but the node copy), the preemptor's priority (which
// pods are victims, which nominated pods it yields to), the PDBs (the
// same objects, held by the memo), and the node's nominated pods the
// preemptor yields to (the list's version and their positions in it; the
// version names the Pod objects, so nothing of them is held). The class
// signature covers every other pod field a Filter reads. Error outcomes
// are not kept. Victims are kept as positions in the node's pods().
// No upstream counterpart (upstream dry-runs every candidate, in
// pkg/scheduler/framework/preemption/preemption.go DryRunPreemption).
//
// Thread-safety: none; PostFilter runs on one thread.
#ifndef LIBSCHED_PLUGINS_DRY_RUN_MEMO_H_
#define LIBSCHED_PLUGINS_DRY_RUN_MEMO_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "libsched/framework/cycle_state.h"
#include "libsched/framework/kept_reasons.h"
#include "libsched/framework/status.h"
#include "libsched/framework/yielded_nominations.h"
#include "libsched/model/pdb.h"
#include "libsched/model/pod.h"
#include "libsched/state/node_info.h"

namespace sched {

class DryRunMemo : public StateData {
 public:
  using Pdbs = std::map<std::string, std::shared_ptr<const PodDisruptionBudget>, std::less<>>;

  // One dry run's outcome: success with victims (positions in the node's
  // pods(), most important first) or the failure's status (not an Error;
  // reasons kept by the memo).
  struct Outcome {
    Status status;
    std::vector<uint32_t> victims;
    int64_t num_pdb_violations = 0;
  };

  // Readies the memo for one PostFilter over nodes with NodeInfo::index()
  // below `num_slots` (the slots above it are cut when it fell under half
  // of them: libsched/state/node_index_room.h); a different filter key,
  // priority or set of PDBs drops every outcome.
  void Begin(uint64_t filter_key, int32_t priority, const Pdbs& pdbs, size_t num_slots);
  // The outcome of `node` (at its index) with `nominated`, or null.
  const Outcome* Find(const NodeInfo& node, YieldedNominations nominated) const;
  // Keeps `status` (not an Error) and, on success, `victims` (pods of
  // `node`) as the outcome of `node` with `nominated`.
  void Store(const NodeInfo& node, YieldedNominations nominated, const Status& status,
             std::span<const std::shared_ptr<const Pod>> victims, int64_t num_pdb_violations);

 private:
  struct Slot {
    NominatedStamp stamp;  // epoch: epoch_
    Outcome outcome;
  };
  uint64_t filter_key_ = 0;
  int32_t priority_ = 0;
  std::vector<std::shared_ptr<const PodDisruptionBudget>> pdbs_;
  uint64_t epoch_ = 0;  // 0: Begin has not run
  std::vector<Slot> slots_;
  KeptReasons reasons_;  // the failures' reasons
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_DRY_RUN_MEMO_H_
