// State digests: XXH3-64 over a canonical encoding of what an engine holds,
// so tests can check that a call changed nothing (atomic failure) or that
// two engines reached the same state (concurrent vs serial application).
//
// Canonical: strings are encoded, never interned ids (ids depend on the
// order strings first arrived); sets are sorted by their strings (labels,
// selector values, scalar resources, nodes, NodeInfos); a zero scalar
// resource equals an absent one. Lists keep their order where order is
// observable (containers' images, taints, tolerations, pods on a node).
// Every field of Pod, Node, PodDisruptionBudget, Namespace, Workload, the
// volume objects, the DRA objects (ResourceClaim, ResourceClaimTemplate,
// DeviceClass, ResourceSlice) and of the queue's view of a pod
// (QueuedPodView) is encoded: when one gains a field, add it to
// state_digest.cc.
//
// Thread-safety: pure functions over const state; callers hold whatever
// lock guards that state.
#ifndef LIBSCHED_ENGINE_STATE_DIGEST_H_
#define LIBSCHED_ENGINE_STATE_DIGEST_H_

#include <cstdint>
#include <span>

#include "libsched/queue/clock.h"
#include "libsched/queue/scheduling_queue.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"

namespace sched {

enum class DigestScope {
  // Nodes, pods, per-node aggregates (requested, non-zero requested, used
  // ports, image sizes and spread, the pods with (anti-)affinity), the pod
  // and node counts, the cluster generation, the interner's size (0 for one a fork
  // family shares, Interner::Share),
  // PodDisruptionBudgets, Namespaces, workloads (Services, RCs, RSs,
  // StatefulSets), volume objects and DRA objects: everything independent of the order in which
  // unrelated
  // events arrived.
  kCluster,
  // kCluster plus what does depend on that order or on time: the node list
  // order (NodeTree); each scheduler's profile name,
  // percentageOfNodesToScore, random source state and rotating start index;
  // the queue's clock; and the scheduling queue: its scheduling cycle, each
  // pending pod (every field) with its queue, attempts, rejecting plugins,
  // gating plugin, queue timestamp, backoff expiry and nomination, and the
  // nominated pods of each node, in order.
  kAll,
};

// `schedulers` in a fixed order (the engine's, by schedulerName), `queue`
// (may be null: no queue) and `now` (the queue's clock) are ignored for
// kCluster.
uint64_t StateDigest(const ClusterState& state, std::span<const Scheduler* const> schedulers,
                     const PriorityQueue* queue, Time now, DigestScope scope);

}  // namespace sched

#endif  // LIBSCHED_ENGINE_STATE_DIGEST_H_
