// Scheduler::FitsAnyNode and PodClass: what cluster-autoscaler's
// PredicateChecker asks of the scheduler framework (FitsAnyNodeMatching,
// CheckPredicates), kept out of scheduler.cc: nothing here runs on the
// scheduling path.
#include <algorithm>

#include "libsched/scheduler/scheduler.h"

namespace sched {

NodeFit Scheduler::FitsAnyNode(const Pod& pod, const ClusterState& state,
                               std::span<const NodeInfo* const> nodes, size_t start,
                               const PodNominator* nominator) const {
  NodeFit out;
  // A copy: no PostFilter runs, so nothing draws; the source stays as it was.
  Mt19937_64 rng = rng_;
  const Framework fw(profile_, state, nominator, rng);
  ScheduleResult r;  // RunPreFilters' diagnosis, FitErrorMessage's input
  r.num_all_nodes = static_cast<int64_t>(nodes.size());
  CycleState cs(profile_.num_slots());
  PreFilterResult restriction;
  const bool passed = RunPreFilters(cs, pod, state, r, &restriction);
  if (r.error) {
    out.message = r.message;
    return out;
  }
  for (size_t k = 0; passed && k < nodes.size(); ++k) {
    const size_t i = (start + k) % nodes.size();
    const NodeInfo& ni = *nodes[i];
    if (!restriction.all_nodes &&
        !std::binary_search(restriction.node_names.begin(), restriction.node_names.end(),
                            ni.node()->name)) {
      continue;  // counted under absent_status, as a cycle's Diagnosis
    }
    Status s = fw.RunFilterPluginsWithNominatedPods(cs, pod, ni);
    if (s.IsSuccess()) {
      out.index = i;
      return out;
    }
    if (s.code() == Code::kError) {
      out.message = s.Message();
      return out;
    }
    r.failures.push_back({&ni, std::move(s)});
  }
  out.message = FitErrorMessage(r);
  return out;
}

uint64_t Scheduler::PodClass(const Pod& pod) const {
  PodSigner signer;
  for (const auto& p : profile_.plugins()) p->SignPod(pod, signer);
  return signer.Finish();
}

}  // namespace sched
