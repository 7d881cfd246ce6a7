// What an Engine reports, in model types that own everything they hold
// (no pointer into the state), so they stay valid after the call and the
// lock: a scheduling cycle's result (PodResult), the queue, the equivalence
// cache's counters and per-node usage. capi renders them as the JSON
// documents of docs/api.md.
#ifndef LIBSCHED_ENGINE_REPORTS_H_
#define LIBSCHED_ENGINE_REPORTS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsched/ecache/equivalence_cache.h"
#include "libsched/framework/status.h"
#include "libsched/model/pod.h"
#include "libsched/queue/clock.h"
#include "libsched/queue/scheduling_queue.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched {

// What a cycle's result includes besides the verdict; off costs nothing.
struct ScheduleOptions {
  bool assume = false;         // assume the pod on the chosen node
  bool node_statuses = false;  // PodResult::node_statuses
  // PodResult::node_statuses only when no node is chosen (what a FitError
  // needs); node_statuses wins.
  bool node_statuses_if_no_node = false;
  bool scores = false;         // PodResult::score_plugins and scores
  // PodResult::scores with totals only (NodeScores::scores empty) unless
  // `scores` is set too: the cycle keeps no per-plugin scores for them.
  bool score_totals = false;
};

// The scores a cycle must keep for MakePodResult under `options`.
inline ScoreDetail ScoresFor(const ScheduleOptions& options) {
  return options.scores ? ScoreDetail::kPerPlugin : ScoreDetail::kTotals;
}

// One rejected node: the plugin that rejected it, the code and reasons.
struct NodeVerdict {
  std::string node;
  Code code = Code::kSuccess;
  std::string plugin;
  std::vector<std::string> reasons;
};

// One feasible node's weighted scores, one per PodResult::score_plugins.
struct NodeScores {
  std::string node;
  int64_t total = 0;
  std::vector<int64_t> scores;
};

// schedulingCycle's outcome: ErrNoNodesAvailable (no node at all) is
// reported as Unschedulable, as upstream's FitError, not as an error.
enum class Outcome { kScheduled, kUnschedulable, kError };

struct PodResult {
  std::string pod;  // "namespace/name"
  Outcome outcome = Outcome::kUnschedulable;
  std::string node;     // the chosen node; empty unless kScheduled
  std::string message;  // the FitError text or error; empty when kScheduled
  int64_t num_all_nodes = 0;
  int64_t evaluated_nodes = 0;
  int64_t feasible_nodes = 0;
  bool assumed = false;  // the engine assumed the pod on `node`
  // Preemption: the node to nominate once `victims` (most important
  // first) are deleted; the engine deletes nothing.
  std::string nominated_node;
  std::vector<std::shared_ptr<const Pod>> victims;
  // ScheduleOptions::node_statuses: every rejected node, Filter failures in
  // evaluation order, then (no node chosen) each remaining node with the
  // status PreFilter gave them all. with_node_statuses: the options asked
  // for them in this result (the list may still be empty).
  std::vector<NodeVerdict> node_statuses;
  bool with_node_statuses = false;
  // ScheduleOptions::scores: the Score plugins that ran and each feasible
  // node's weighted scores (empty when fewer than two were feasible);
  // ScheduleOptions::score_totals alone: each node's total, no plugins.
  std::vector<std::string> score_plugins;
  std::vector<NodeScores> scores;
};

// Builds the PodResult of cycle `r` for the pod whose PodKey is `pod_key`
// (taken, not built again, from the queue's entry). REQUIRES: `state` is the one `r` was
// computed against, unchanged since (r points into it).
PodResult MakePodResult(std::string pod_key, const ScheduleResult& r, const ClusterState& state,
                        const ScheduleOptions& options, bool assumed);

// The scheduling queue: every pending pod in PriorityQueue::Snapshot order.
struct QueueReport {
  Time now{};  // the engine's clock
  int64_t scheduling_cycle = 0;
  std::vector<QueuedPodView> pods;
};

struct EngineStats {
  bool ecache_enabled = false;    // any profile's equivalence cache is on
  EcacheStats ecache;             // summed over the profiles
  int64_t interner_strings = 0;   // strings held
  int64_t interner_bytes = 0;     // their bytes
  int64_t interner_released = 0;  // slots freed for reuse
};

// A resource list with scalar resources by name, sorted by name.
struct ResourceReport {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t ephemeral_storage = 0;
  int64_t allowed_pods = 0;
  std::vector<std::pair<std::string, int64_t>> scalar;
};

// One node's allocatable and requested resources (framework.NodeInfo's).
struct NodeReport {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // sorted by key
  ResourceReport allocatable;
  ResourceReport requested;
  int64_t non_zero_milli_cpu = 0;
  int64_t non_zero_memory = 0;
  int64_t pod_count = 0;
};

// REQUIRES: `node` has a Node object.
NodeReport MakeNodeReport(const NodeInfo& node, const Interner& interner);

}  // namespace sched

#endif  // LIBSCHED_ENGINE_REPORTS_H_
