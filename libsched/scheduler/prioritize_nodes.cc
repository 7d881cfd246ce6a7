// Scheduler::PrioritizeNodes: prioritizeNodes alone over nodes the caller
// filtered (a kube-scheduler framework running the engine as a plugin
// scores the nodes it sampled), kept out of scheduler.cc: nothing here
// runs on the engine's own scheduling path.
#include <utility>

#include "libsched/scheduler/scheduler.h"

namespace sched {

ScheduleResult Scheduler::PrioritizeNodes(const Pod& pod, const ClusterState& state,
                                          std::vector<const NodeInfo*> nodes) {
  ScheduleResult r;
  r.num_all_nodes = static_cast<int64_t>(state.NodeList().size());
  r.evaluated_nodes = r.feasible_nodes = static_cast<int64_t>(nodes.size());
  r.cycle_state = std::make_shared<CycleState>(profile_.num_slots());
  CycleState& cs = *r.cycle_state;
  // PreFilter fills what PreScore and Score read; its node restriction is
  // the caller's concern (its framework filtered `nodes`).
  PreFilterResult restriction;
  if (!RunPreFilters(cs, pod, state, r, &restriction)) {
    if (!r.error) {
      r.error = true;
      r.message = r.pre_filter_msg;
    }
    return r;
  }
  // The class's entry, as a cycle's walk over all nodes takes it: the raw
  // scores the cycle that filtered the pod cached (by node slot and
  // generation) are reused, which changes no result.
  ClearCacheOfOldEpoch(state);
  ecache_hit_ = false;
  EcacheEntry* cls = CacheEntryForFilter(pod, cs, state.NodeIndexBound(), &ecache_hit_);
  if (cls != nullptr) {
    r.cache_storage = cls->storage();
    cs.set_class_memos(cls->memos());
  }
  Prioritize(cs, pod, state, std::move(nodes), cls, ScoreDetail::kTotals, r);
  return r;
}

}  // namespace sched
