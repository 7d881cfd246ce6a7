// Capacity: how many more replicas of a pod template fit, and where — the
// replicas scheduled one after another, each assumed before the next, as
// kube-scheduler places a ReplicaSet's pods from its queue (equal
// priority, so in creation order), and then all of it undone.
//
// Thread-safety: none; the caller serializes (the engine holds its lock).
#ifndef LIBSCHED_WHATIF_CAPACITY_H_
#define LIBSCHED_WHATIF_CAPACITY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/model/pod.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"

namespace sched {

// The most replicas one question places (the cap when none is given).
inline constexpr int64_t kMaxCapacityReplicas = 100000;

struct CapacityResult {
  int64_t replicas = 0;  // that fit, before the first that did not or the cap
  bool capped = false;   // stopped at max_replicas, not at a replica that failed
  // Where each replica went, in scheduling order.
  std::vector<std::string> placements;
  // Replicas per node, by node name.
  std::vector<std::pair<std::string, int64_t>> nodes;
  // The first replica that fit nowhere: its FitError (or error) message;
  // empty when capped.
  std::string message;
};

// Schedules copies of `tmpl` named "<name>-capacity-<i>" (uid
// "<uid>-capacity-<i>", i from 0) with `scheduler`'s full cycle (Filter
// with nominated pods from `nominator`, Score, selectHost, PostFilter
// when nothing fits) and assumes each that fits, until one fits nowhere
// or `max_replicas` (1..kMaxCapacityReplicas) fit. Preemption is not acted
// on: a replica that could fit only by evicting pods ends the count.
// `state` and the scheduler's random source and start index are put back
// as they were (a ClusterState::Batch that is never committed;
// Scheduler::Rewind, which also drops the equivalence cache's entries).
// REQUIRES: no Batch of `state` open; tmpl.node_name empty.
CapacityResult Capacity(Scheduler& scheduler, ClusterState& state, const PodNominator* nominator,
                        const Pod& tmpl, int64_t max_replicas);

}  // namespace sched

#endif  // LIBSCHED_WHATIF_CAPACITY_H_
