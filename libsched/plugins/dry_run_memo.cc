#include "libsched/plugins/dry_run_memo.h"

#include <algorithm>

#include "libsched/state/node_index_room.h"

namespace sched {

void DryRunMemo::Begin(uint64_t filter_key, int32_t priority, const Pdbs& pdbs,
                       size_t num_slots) {
  bool same = epoch_ != 0 && filter_key == filter_key_ && priority == priority_ &&
              pdbs.size() == pdbs_.size();
  if (same) {
    size_t i = 0;
    for (const auto& [key, pdb] : pdbs) same = same && pdb == pdbs_[i++];
  }
  if (!same) {
    filter_key_ = filter_key;
    priority_ = priority;
    pdbs_.clear();
    for (const auto& [key, pdb] : pdbs) pdbs_.push_back(pdb);
    ++epoch_;
  }
  if (slots_.size() < num_slots) {
    slots_.resize(num_slots);
  } else if (FarAboveNodeIndexBound(slots_.size(), num_slots)) {
    TrimTo(slots_, num_slots);  // the cluster scaled down
  }
}

const DryRunMemo::Outcome* DryRunMemo::Find(const NodeInfo& node,
                                             YieldedNominations nominated) const {
  const size_t i = node.index();
  if (i >= slots_.size()) return nullptr;
  const Slot& s = slots_[i];
  return s.stamp.Matches(node, epoch_, nominated) ? &s.outcome : nullptr;
}

void DryRunMemo::Store(const NodeInfo& node, YieldedNominations nominated, const Status& status,
                       std::span<const std::shared_ptr<const Pod>> victims,
                       int64_t num_pdb_violations) {
  const size_t i = node.index();
  if (i >= slots_.size()) return;
  Slot& s = slots_[i];
  s.stamp.Set(node, epoch_, nominated);
  Outcome& o = s.outcome;
  o.status = reasons_.Keep(status);
  o.num_pdb_violations = num_pdb_violations;
  o.victims.clear();
  const auto& pods = node.pods();
  for (const auto& v : victims) {
    const auto it = std::find(pods.begin(), pods.end(), v);
    o.victims.push_back(static_cast<uint32_t>(it - pods.begin()));
  }
}

}  // namespace sched
