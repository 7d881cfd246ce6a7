// Drain: can these nodes be removed? Their pods are evicted and scheduled
// again, in queue order, on the nodes that remain (the listed nodes gone),
// with the full cycle and assume, as kube-scheduler would place the
// replacements; then all of it is undone. Which pods move and which
// evictions PodDisruptionBudgets block follow cluster-autoscaler's scale-down
// simulation (simulator/drainability/rules, core/scaledown/pdb), in part:
//  - a mirror pod (a static pod's API copy) is left: it neither moves nor
//    blocks (rule "mirror");
//  - a DaemonSet pod is evicted but not scheduled again and no PDB is
//    checked for it (rule "daemonset": drainable);
//  - every other pod moves. Nodes are taken in the order given; a node's
//    moving pods that a PDB covers whose remaining disruptionsAllowed is
//    below 1 are blocked (rule "pdb", RemainingPdbTracker.CanRemovePods);
//    a removable node's pods then use up its PDBs' budget (RemovePods).
// A node is removable when none of its pods is blocked and every pod that
// moves found a node. The rules that read what the engine does not keep
// (safe-to-evict annotations, local storage, kube-system pods without a
// PDB, pods without a controller, long-terminating pods) are not applied;
// placements assume every listed node goes, blocked or not
// (docs/upstream-differences.md).
//
// Thread-safety: none; the caller serializes (the engine holds its lock).
#ifndef LIBSCHED_ENGINE_DRAIN_H_
#define LIBSCHED_ENGINE_DRAIN_H_

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"

namespace sched {

// A pod of a drained node that is scheduled again.
struct DrainMove {
  std::string pod;   // "namespace/name"
  std::string from;  // the drained node it was on
  std::string node;  // where it goes; empty when it fits nowhere
  // Its FitError (or error) message when it fits nowhere; empty otherwise.
  std::string message;
  // "namespace/name" of the PDB that blocks its eviction; empty if none.
  std::string blocking_pdb;
};

// A pod of a drained node that is not scheduled again.
struct DrainLeft {
  enum class Reason { kMirrorPod, kDaemonSet };
  std::string pod;
  std::string from;
  Reason reason = Reason::kMirrorPod;
};

struct DrainNode {
  std::string node;
  bool removable = false;
  int64_t moved = 0;    // pods scheduled again
  int64_t pending = 0;  // of those, the ones that fit nowhere
  int64_t blocked = 0;  // pods whose eviction a PDB blocks
  int64_t left = 0;     // mirror and DaemonSet pods
};

struct DrainResult {
  bool removable = false;        // every listed node is
  std::vector<DrainNode> nodes;  // in the order given
  std::vector<DrainMove> moves;  // in scheduling (queue) order
  std::vector<DrainLeft> left;   // by node given, then pod key
};

// The scheduler of a pod's profile (by spec.schedulerName), or null.
using SchedulerLookup = std::function<Scheduler*(std::string_view scheduler_name)>;

// Removes the pods of `nodes` and the nodes from `state`, then schedules
// the moving pods (copies without spec.nodeName) one by one with their
// profile's full cycle (Filter with nominated pods from `nominator`,
// Score, selectHost, PostFilter when nothing fits; preemption is not acted
// on) in queue order — priority, highest first, then the order of `nodes`,
// then pod key — assuming each that fits. A pod whose schedulerName has no
// profile fits nowhere ("no profile for schedulerName ..."). `state` is
// put back (a ClusterState::Batch never committed); the caller puts back
// the schedulers' random sources and start indexes.
// REQUIRES: no Batch of `state` open; `nodes` are distinct names of nodes
// that have a Node object.
DrainResult Drain(std::span<const std::string> nodes, ClusterState& state,
                  const PodNominator* nominator, const SchedulerLookup& scheduler_for);

}  // namespace sched

#endif  // LIBSCHED_ENGINE_DRAIN_H_
