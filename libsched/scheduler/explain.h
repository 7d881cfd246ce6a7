// Explanation: why a pod would or would not fit, node by node and plugin by
// plugin (Scheduler::Explain). The model behind sched_engine_explain.
//
// Upstream has no single call for this; the pieces are its Diagnosis
// (NodeToStatus, framework.FitError's "0/N nodes are available: ..."),
// RunFilterPlugins per plugin, and RunScorePlugins' per-plugin scores.
// An explanation walks every node, so it never runs on the scheduling path.
//
// Every string is owned (no view into a cycle's storage), so an
// Explanation outlives the state it was computed from.
#ifndef LIBSCHED_SCHEDULER_EXPLAIN_H_
#define LIBSCHED_SCHEDULER_EXPLAIN_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "libsched/framework/status.h"

namespace sched {

// The upper bound of Explanation::summary, in bytes: what fits an Event's
// message (the API server truncates event notes at 1 KiB).
inline constexpr size_t kMaxExplainSummaryBytes = 1024;

// One plugin's Filter verdict on one node (run alone, against the node as
// it is, without nominated pods).
struct PluginVerdict {
  std::string plugin;
  Code code = Code::kSuccess;
  std::vector<std::string> reasons;
};

// One Score plugin on one feasible node: Score's value, after
// NormalizeScore (equal to raw without one), and times the weight.
struct PluginScore {
  int64_t raw = 0;
  int64_t normalized = 0;
  int64_t weighted = 0;
};

struct NodeExplanation {
  std::string node;
  // The scheduler's verdict (RunFilterPluginsWithNominatedPods, or the
  // PreFilter rejection every node shares): success = feasible.
  PluginVerdict verdict;
  // Every Filter plugin that ran (PreFilter did not Skip it), in profile
  // order. Empty when PreFilter rejected the pod or excluded the node.
  std::vector<PluginVerdict> filters;
  // Parallel to Explanation::score_plugins; empty for an infeasible node.
  std::vector<PluginScore> scores;
  int64_t total_score = 0;  // sum of the weighted scores
};

// A FitError histogram entry: how many nodes gave this reason.
struct ReasonCount {
  std::string reason;
  int64_t nodes = 0;
};

// How much of a resource one node lacks for the pod (Insufficient <name>,
// Too many pods): request - (allocatable - requested). Units: milli-CPU for
// "cpu", bytes for memory and ephemeral-storage, counts otherwise ("pods").
struct Shortfall {
  std::string resource;
  int64_t amount = 0;
};

// Nodes that one plugin alone rejects, for the same reasons: what would
// have to change for the pod to fit there.
struct NearMiss {
  std::string plugin;
  std::vector<std::string> reasons;
  // TaintToleration: the first NoSchedule/NoExecute taint the pod does
  // not tolerate ("key=value:Effect"); the nodes are grouped by it.
  std::string taint;
  // NodeResourcesFit: per resource in reasons' order, the smallest
  // shortfall among the nodes.
  std::vector<Shortfall> shortfalls;
  int64_t nodes = 0;
  std::string example_node;  // the first such node in node-list order
  // For people: "needs 300m more cpu on 12 nodes", "does not tolerate
  // taint dedicated=gpu:NoSchedule on 40 nodes".
  std::string text;
};

struct Explanation {
  int64_t num_all_nodes = 0;
  int64_t feasible_nodes = 0;
  // Set when PreFilter rejected the pod (then no Filter ran) or failed.
  bool pre_filter_rejected = false;
  PluginVerdict pre_filter;
  // An error (a plugin's Error status, no nodes): message says what.
  bool error = false;
  // "0/N nodes are available: ..." (FitErrorMessage, without PostFilter),
  // "K/N nodes are feasible", or the error.
  std::string message;
  // The scheduler's reasons over the rejected nodes with node counts,
  // most nodes first, then by reason (the FitError histogram).
  std::vector<ReasonCount> reasons;
  // Most nodes first, then by text.
  std::vector<NearMiss> nearest_misses;
  // Score plugins that ran (PreScore did not Skip them) and their weights.
  std::vector<std::string> score_plugins;
  std::vector<int64_t> score_weights;
  // Every node of the node list, in its order.
  std::vector<NodeExplanation> nodes;
  // message, then the nearest misses, cut to kMaxExplainSummaryBytes at a
  // UTF-8 boundary with "..." when longer.
  std::string summary;
};

// A resource amount for people: "300m" or "2" CPU, "512Mi" or "1000000"
// bytes, counts as they are.
std::string FormatShortfall(const Shortfall& s);

// Builds summary from message and nearest misses.
std::string ExplainSummary(const Explanation& e);

}  // namespace sched

#endif  // LIBSCHED_SCHEDULER_EXPLAIN_H_
