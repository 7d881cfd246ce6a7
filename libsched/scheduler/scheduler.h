// Scheduler: one scheduling cycle for one pod against the cluster state,
// mirroring schedulingCycle / schedulePod / findNodesThatFitPod /
// evaluateNominatedNode / prioritizeNodes / selectHost in
// pkg/scheduler/schedule_one.go:
//   PreFilter -> the nominated node first, if the pod has one -> Filter
//   (with nominated pods; from a rotating start index, stopping at
//   numFeasibleNodesToFind) -> PostFilter (preemption) when nothing fits ->
//   PreScore -> Score -> NormalizeScore -> weighted sum -> selectHost.
//
// Filter and Score run in chunks over nodes on the Parallelizer (none: all
// inline). The result does not depend on the parallelism: Filter evaluates
// chunks speculatively and the verdicts are then cut in rotation order
// exactly where the serial loop would stop; scores land in a flat
// plugin x node array, each cell written by one thread.
//
// Deliberate difference: selectHost picks uniformly at random among the top
// total scores (reservoir sampling, as upstream did v1.16-v1.34) from a
// seedable source, so the same state, config and seed give the same result;
// upstream v1.35+ takes the heap top, which is the arbitrary parallel
// filter order.
//
// With the equivalence cache on, a pod of a class whose last cycle fit
// nowhere gets that cycle's outcome back without a walk while nothing it
// read changed (the failure memo; docs/api.md "Failure memo").
//
// Thread-safety: not synchronized; the engine serializes calls. A cycle
// runs plugins' Filter and Score on the Parallelizer's threads, which only
// read the state, the CycleState and the nominator.
#ifndef LIBSCHED_SCHEDULER_SCHEDULER_H_
#define LIBSCHED_SCHEDULER_SCHEDULER_H_

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/ecache/equivalence_cache.h"
#include "libsched/model/pod_signer.h"
#include "libsched/framework/cycle_state.h"
#include "libsched/framework/framework.h"
#include "libsched/framework/node_failures.h"
#include "libsched/framework/node_to_status.h"
#include "libsched/framework/parallelize.h"
#include "libsched/framework/pod_nominator.h"
#include "libsched/framework/profile.h"
#include "libsched/framework/status.h"
#include "libsched/model/pod.h"
#include "libsched/scheduler/explain.h"
#include "libsched/state/cluster_state.h"

namespace sched {

// "no nodes available to schedule pods" (scheduler.go ErrNoNodesAvailable).
inline constexpr std::string_view kNoNodesAvailableMsg = "no nodes available to schedule pods";

struct ScheduleResult {
  // The chosen node; empty when the pod fits nowhere or an error occurred.
  std::string node;
  // FitError text ("0/3 nodes are available: ...") or the error message.
  std::string message;
  // Error (not a fit failure): message says what went wrong.
  bool error = false;
  int64_t num_all_nodes = 0;
  int64_t evaluated_nodes = 0;
  int64_t feasible_nodes = 0;
  // Diagnosis (framework.Diagnosis). Nodes a Filter plugin rejected, in
  // evaluation order (a failure memo's, shared, when the cycle replayed it):
  NodeFailures failures;
  // The status of every node that is neither feasible nor in `failures`
  // (NodeToStatus.AbsentNodesStatus): set when PreFilter rejected the pod,
  // or when a PreFilterResult left nodes out. Only meaningful when no node
  // was chosen.
  std::optional<Status> absent_status;
  // The PreFilter plugins whose PreFilterResult left nodes out
  // (RunPreFilterPlugins' pluginsWithNodes), which Diagnosis
  // .UnschedulablePlugins starts with; empty when a plugin's
  // UnschedulableAndUnresolvable or error stopped PreFilter. Names owned by
  // the profile.
  std::vector<std::string_view> restricting_plugins;
  // PreFilter's rejection message; when set it replaces the histogram in
  // the FitError text.
  std::string pre_filter_msg;
  // Scores of the feasible nodes (all empty when fewer than two were
  // feasible): the Score plugins that ran (not skipped), the feasible nodes
  // in evaluation order, their weighted totals, and the weighted score of
  // plugin p on node i at plugin_scores[p * scored_nodes.size() + i].
  std::vector<std::string_view> score_plugins;
  std::vector<const NodeInfo*> scored_nodes;
  std::vector<int64_t> total_scores;
  std::vector<int64_t> plugin_scores;
  // REQUIRES: plugin < score_plugins.size(), node < scored_nodes.size().
  int64_t PluginScore(size_t plugin, size_t node) const {
    return plugin_scores[plugin * scored_nodes.size() + node];
  }

  // When no node fit and PostFilter ran: its message ("preemption: ..."),
  // appended to the FitError text; empty when preemption succeeded.
  std::string post_filter_msg;
  // Preemption made room on this node: the pod is to be nominated there
  // (status.nominatedNodeName), not bound, once `victims` are deleted.
  std::string nominated_node;
  // The pods to delete for that, most important first.
  std::vector<std::shared_ptr<const Pod>> victims;

  // Storage behind the string_views above: reasons plugins built during the
  // cycle live in its CycleState, messages the framework built live here
  // (a list: stable addresses, and no allocation while empty, which a
  // deque makes on construction).
  std::shared_ptr<CycleState> cycle_state;
  std::list<std::string> owned_messages;
  // Backs reasons of verdicts taken from the equivalence cache, if any.
  std::shared_ptr<const void> cache_storage;
};

// What a cycle's ScheduleResult holds of the scores.
enum class ScoreDetail {
  // score_plugins and plugin_scores as well as the totals.
  kPerPlugin,
  // scored_nodes and total_scores; score_plugins and plugin_scores may be
  // left empty (a cycle whose raw scores all pass through the equivalence
  // cache sums the totals straight from its rows).
  kTotals,
};

// Scheduler::FitsAnyNode's answer.
struct NodeFit {
  // The index in `nodes` of the first node the pod passes; nullopt if none.
  std::optional<size_t> index;
  // When none: the FitError text over the nodes tried ("0/1 nodes are
  // available: 1 Insufficient cpu."), or the error's message.
  std::string message;
};

class Scheduler {
 public:
  // `parallelizer` (may be null: everything inline) must outlive the
  // Scheduler; several Schedulers may share one.
  Scheduler(Profile profile, uint64_t seed, Parallelizer* parallelizer = nullptr);

  const Profile& profile() const { return profile_; }
  // What a cycle leaves behind besides assumed pods: the random source of
  // selectHost and the rotating start index (for state digests).
  const Mt19937_64& rng() const { return rng_; }
  size_t next_start_node_index() const { return next_start_node_index_; }
  // Puts back the values rng() and next_start_node_index() had before a
  // call whose cycles must leave no trace (an allocation failed), and
  // drops the equivalence cache's entries (not its counters): they may
  // describe a state the failed call put back, at generations the state
  // will reach again with other contents.
  void Rewind(const Mt19937_64& rng, size_t next_start_node_index) {
    rng_ = rng;
    Rewound(next_start_node_index);
  }
  // The same with the random source marked (Mt19937_64::Save), as a call
  // marks it on its way in.
  void Rewind(const Mt19937_64::Mark& rng, size_t next_start_node_index) {
    rng_.Restore(rng);
    Rewound(next_start_node_index);
  }

  // Turns the equivalence-class cache (libsched/ecache) on or off; off
  // drops its entries and statistics. It never changes a result, only how
  // much of a cycle is recomputed. Off by default.
  void set_equivalence_cache(bool on);
  // The cache's counters, or null when it is off.
  const EcacheStats* equivalence_cache_stats() const {
    return ecache_ ? &ecache_->stats() : nullptr;
  }

  // Runs one cycle for `pod`. Does not change `state`. `nominator` (may be
  // null) supplies the pods nominated to each node: those of priority >=
  // the pod's count as present when the pod is filtered. `detail`: whether
  // the per-plugin scores are wanted; it changes no decision.
  ScheduleResult Schedule(const Pod& pod, const ClusterState& state,
                          const PodNominator* nominator = nullptr,
                          ScoreDetail detail = ScoreDetail::kPerPlugin);
  // Takes back a result of Schedule its caller is done with, so that the
  // next cycles reuse its storage instead of allocating their own: the
  // scored nodes' and the totals' vectors (KBs at thousands of nodes) and
  // the CycleState, when nothing else holds it. Changes no result.
  void Recycle(ScheduleResult&& r) noexcept;

  // Explains `pod` against every node (explain.h): the cycle's verdict and
  // each Filter plugin's on every node, the raw, normalized and weighted
  // scores of every feasible node, the reasons with node counts and the
  // nearest misses. Unlike Schedule it walks all nodes (no
  // percentageOfNodesToScore), scores even a single feasible node, runs no
  // PostFilter, and changes nothing: not the random source, the start
  // index nor the equivalence cache (explain.cc).
  Explanation Explain(const Pod& pod, const ClusterState& state,
                      const PodNominator* nominator = nullptr) const;

  // PreFilter, then Filter (with nominated pods) on nodes[start],
  // nodes[start + 1], ... (wrapping) until one passes: cluster-autoscaler's
  // PredicateChecker (FitsAnyNodeMatching, CheckPredicates), no Score, no
  // PostFilter. Changes nothing (fits_any_node.cc). REQUIRES: start <
  // nodes.size() unless nodes is empty.
  NodeFit FitsAnyNode(const Pod& pod, const ClusterState& state,
                      std::span<const NodeInfo* const> nodes, size_t start,
                      const PodNominator* nominator = nullptr) const;
  // prioritizeNodes (schedule_one.go) alone over `nodes`, which the caller
  // filtered: PreFilter (for the state PreScore and Score read; its node
  // restriction ignored), then PreScore, Score, NormalizeScore and the
  // weights over exactly `nodes`, so plugins that normalize per cycle
  // normalize over them. No Filter, no PostFilter, no selectHost; one node
  // is scored too. r.scored_nodes is `nodes`, r.total_scores parallel to
  // it; r.error with r.message when PreFilter rejected the pod or a plugin
  // failed. Raw scores come from and go to the pod's class's equivalence-
  // cache entry, as in a cycle (the cycle that just filtered the pod
  // cached them). Changes no state, random source or start index
  // (prioritize_nodes.cc).
  ScheduleResult PrioritizeNodes(const Pod& pod, const ClusterState& state,
                                 std::vector<const NodeInfo*> nodes);
  // The pod's equivalence class signature (every plugin's SignPod, as the
  // equivalence cache keys classes): pods with the same one get the same
  // verdicts from this profile's plugins.
  uint64_t PodClass(const Pod& pod) const;

 private:
  // Rewind's rest, once rng_ is back.
  void Rewound(size_t next_start_node_index) {
    next_start_node_index_ = next_start_node_index;
    if (ecache_) ecache_->Clear();
  }
  // numFeasibleNodesToFind (schedule_one.go): every node below 100 nodes;
  // else num_all_nodes * percentage / 100 but at least 100, where the
  // percentage is the profile's percentageOfNodesToScore or, when 0
  // (adaptive), max(5, 50 - num_all_nodes / 125). 100 turns it off.
  int64_t NumFeasibleNodesToFind(int64_t num_all_nodes) const;
  // Returns false (with r.absent_status set) when PreFilter rejected the pod.
  bool RunPreFilters(CycleState& cs, const Pod& pod, const ClusterState& state,
                     ScheduleResult& r, PreFilterResult* restriction) const;
  // RunPostFilterPlugins: fills r's post_filter_msg, nominated_node, victims.
  // Returns true when every plugin that ran rejected the pod (no success,
  // no error): only such an outcome may be memoized.
  bool RunPostFilters(const Framework& fw, const CycleState& cs, const Pod& pod,
                      ScheduleResult& r) const;
  // findNodesThatPassFilters: runs Filter (with nominated pods) over
  // `nodes` from the rotating start index until `to_find` nodes passed,
  // skipping `skip` (may be null). Fills `feasible`, r.failures, r.error;
  // advances the start index by the nodes processed. The same outcome at
  // any parallelism. With an equivalence-cache entry `cls` (walks over all
  // nodes only) verdicts come from and go to it (slot NodeInfo::index()),
  // on the calling thread (the entry is not synchronized; a hit costs
  // little); `nominator` is null when nobody is nominated.
  void FilterNodes(const Framework& fw, const CycleState& cs, const Pod& pod,
                   const PodNominator* nominator, EcacheEntry* cls,
                   std::span<const NodeInfo* const> nodes, size_t num_all_nodes,
                   const NodeInfo* skip, int64_t to_find, std::vector<const NodeInfo*>* feasible,
                   ScheduleResult& r);
  // prioritizeNodes over `feasible` (moved to r.scored_nodes): PreScore,
  // then ScoreNodes. `cls` (may be null) caches raw scores.
  void Prioritize(CycleState& cs, const Pod& pod, const ClusterState& state,
                  std::vector<const NodeInfo*> feasible, EcacheEntry* cls, ScoreDetail detail,
                  ScheduleResult& r);
  // RunScorePlugins + NormalizeScore + weights over r.scored_nodes, into
  // r's flat score arrays; an error sets r.error (the first in plugin,
  // then node order, as the serial loop would meet it). Raw scores come
  // from / go to `score_cache` (may be null; then on the calling thread),
  // slot NodeInfo::index(). With kTotals and a cache, ScoreTotalsWithLiveColumns
  // first.
  void ScoreNodes(const CycleState& cs, const Pod& pod, EcacheEntry* score_cache,
                  ScoreDetail detail, ScheduleResult& r);
  // ScoreNodes' totals alone, in one pass over the cache's row summaries
  // (the fresh rows scored into the cache and summarized first): each
  // node's total is its row's weighted sum of the plugins without
  // NormalizeScore, plus, when every raw score of the plugins with it is
  // 0 and they all say what such a column normalizes to
  // (NormalizesZeroColumnTo), that value times the weight; otherwise
  // NormalizedTotals. Live plugins are left out (they are in neither of
  // SplitScorePlugins' lists): ScoreTotalsWithLiveColumns, its only
  // caller, adds their columns. Returns false, leaving nothing cached,
  // when anything fails (a Score, a NormalizeScore, the range check): the
  // general path then reproduces the cycle with its error.
  bool ScoreTotalsFromRows(const CycleState& cs, const Pod& pod, EcacheEntry& score_cache,
                           ScheduleResult& r);
  // ScoreTotalsFromRows' columns of the plugins with NormalizeScore:
  // takes `zero_columns` (what the walk added for them) off r's totals,
  // then normalizes each column gathered from the rows and adds it,
  // weighted. False when a NormalizeScore fails or a score is out of range.
  bool NormalizedTotals(const CycleState& cs, const Pod& pod, EcacheEntry& score_cache,
                        uint64_t zero_columns, ScheduleResult& r);
  // With the cache: sorts the Score plugins that run and are not live
  // into direct_scores_ and normalized_ (SummarizeRow's inputs).
  void SplitScorePlugins();
  // A raw row's summary (EcacheEntry::RowSummary) under this cycle's
  // SplitScorePlugins; the score key fixes which plugins run and are live,
  // so it stays right as long as the row.
  EcacheEntry::RowSummary SummarizeRow(const int64_t* row) const;
  // ScoreNodes' totals with the cache when some plugins are live
  // (score_live_): each live plugin's column scored whole
  // (ScorePlugin::ScoreAll on every node), normalized, range-checked and
  // weighted, plus ScoreTotalsFromRows, which sums the other plugins
  // (their rows; the fresh rows' live cells stay unwritten: never read, see
  // CacheEntryForScore).
  // Returns false, leaving nothing cached, when a live plugin declines
  // ScoreAll or anything fails: the general path then reproduces the cycle.
  bool ScoreTotalsWithLiveColumns(const CycleState& cs, const Pod& pod, EcacheEntry& score_cache,
                                  ScheduleResult& r);
  // After the raw scores of r.scored_nodes succeeded: counts the reused
  // rows and marks the fresh ones (score_fresh_) cached, with summaries.
  void MarkScoreRows(EcacheEntry& score_cache, const ScheduleResult& r);
  // Empties the equivalence cache when the interner reused ids since its
  // keys were made: signatures encode interned ids, which may now name
  // other strings.
  void ClearCacheOfOldEpoch(const ClusterState& state) {
    if (ecache_ && state.interner().reuse_epoch() != ecache_reuse_epoch_) {
      ecache_->Clear();
      ecache_reuse_epoch_ = state.interner().reuse_epoch();
    }
  }
  // Equivalence cache: the entry of the pod's class for this cycle's filter
  // walk over all nodes, with `num_slots` slots (ClusterState::
  // NodeIndexBound()), or null when the cache is off or the cycle's Filter
  // results are not node-local (bypass). Sets *hit, and the cycle's live
  // Filters (filter_live_, live_filters_: FilterPlugin::FilterRunsLive),
  // whose keys go to the memo key only.
  EcacheEntry* CacheEntryForFilter(const Pod& pod, const CycleState& cs, size_t num_slots,
                                   bool* hit);
  // FilterNodes with an equivalence-cache entry: the same walk, serial on
  // the calling thread.
  void FilterNodesCached(const Framework& fw, const CycleState& cs, const Pod& pod,
                         const PodNominator* nominator, EcacheEntry& cls,
                         std::span<const NodeInfo* const> nodes, const NodeInfo* skip,
                         int64_t to_find, std::vector<const NodeInfo*>* feasible,
                         ScheduleResult& r);
  // After a walk that did not fail: advances the start index by the nodes
  // processed and records the counts in r.
  void FinishFilterWalk(const std::vector<const NodeInfo*>& feasible, size_t num_all_nodes,
                        ScheduleResult& r);
  // The node's Filter verdict with its nominated pods (both passes of
  // RunFilterPluginsWithNominatedPods): the first pass's cached one in
  // `cls` or one evaluated into *fresh (cached when nominated_pass_cached_);
  // then the second pass: the cached verdict in `cls` or one evaluated into
  // *fresh and cached, unless a live Filter (live_filters_) placed before
  // the plugin that rejected rejects: then its status, in *live.
  // `nominator` is null when none are nominated anywhere. *reused: the
  // returned verdict was read from the cache.
  const Status* FilterNode(const Framework& fw, const CycleState& cs, const Pod& pod,
                           const PodNominator* nominator, EcacheEntry& cls, size_t index,
                           const NodeInfo& ni, Status* fresh, Status* live, bool* reused);
  // FilterNode's first pass where `ni` holds nominated pods: the rejecting
  // verdict (cached or in *fresh), or null when the pod yields to none of
  // them or the pass passed.
  const Status* NominatedFirstPass(const Framework& fw, const CycleState& cs, const Pod& pod,
                                   EcacheEntry& cls, size_t index, const NodeInfo& ni,
                                   Status* fresh, bool* reused);
  // FilterNode's live Filters (live_filters_ not empty) before the plugin
  // at `failed_at`: the first that rejects, in *live, else `verdict`.
  const Status* LiveFilters(const CycleState& cs, const Pod& pod, const NodeInfo& ni,
                            size_t failed_at, const Status* verdict, Status* live) const;
  // Whether a PreFilter plugin with extensions runs for this cycle (its
  // AddPod would see the nominated pods).
  bool AddPodExtensionsRun(const CycleState& cs) const;
  // ScoreNodes' raw scores with the cache (score_plugins_ set): reused
  // rows copied, the others scored and stored; score_reused_[i] says which.
  // The live plugins (score_live_) are scored afresh on reused rows too.
  void ScoreNodesCached(const CycleState& cs, const Pod& pod, EcacheEntry& score_cache,
                        std::span<std::atomic<size_t>> score_failed, ScheduleResult& r);
  // Equivalence cache: `cls` ready for this cycle's raw scores (null when
  // `cls` is). An enabled Score plugin whose raw score is not cacheable
  // (ScoreCacheKey false after PreScore: PodTopologySpread; InterPodAffinity
  // with a term by a key of multi-node domains) is live: score_live_ marks it, and it is scored on
  // every node every cycle while the other plugins' cached cells are reused.
  EcacheEntry* CacheEntryForScore(const CycleState& cs, EcacheEntry* cls);
  const NodeInfo* SelectHost(const ScheduleResult& r);
  // Failure memo (EcacheEntry::Memo). It serves a cycle with a cache entry
  // `cls` (a walk over all nodes), no pod nominated anywhere (`nominations`
  // null; the Filter's nominated pass and preemption would read them, and
  // they exclude the pod itself by name, which no class key holds) and a
  // pod without status.nominatedNodeName (evaluateNominatedNode and
  // preemption read it).
  static bool MemoApplies(const EcacheEntry* cls, const Pod& pod,
                          const PodNominator* nominations);
  // Fills r as the memoized cycle's outcome at this cycle's start index
  // (failures rotated; the start index stays, as after any walk where
  // every node failed) and repeats its draws through `fw`; false (r
  // untouched) when `cls` has no memo for this pod and state.
  bool ReplayFailureMemo(const Framework& fw, const EcacheEntry& cls, const Pod& pod,
                         const ClusterState& state, ScheduleResult& r);
  // Memoizes r, the FitError of a walk over all nodes that PostFilter
  // rejected, with the draws this cycle took (draws_); r's failures are
  // then the memo's, shared.
  void MemoizeFailure(EcacheEntry& cls, const Pod& pod, const ClusterState& state,
                      ScheduleResult& r);

  Profile profile_;
  Mt19937_64 rng_;
  size_t next_start_node_index_ = 0;
  Parallelizer inline_;         // parallelism 1: used when none was given
  Parallelizer* parallelizer_;  // never null
  // FilterNodes' verdicts by rotation offset; kept across cycles so a
  // cycle does not allocate them again.
  std::vector<Status> filter_statuses_;
  // FilterNodesCached's feasible nodes as found; kept across cycles.
  std::vector<const NodeInfo*> filter_found_;
  // Schedule's feasible nodes; kept across cycles. A cycle that scores them
  // hands them to its result and takes spare_nodes_ in their place.
  std::vector<const NodeInfo*> feasible_;
  // Storage of results given back (Recycle), empty: the next scoring
  // cycle's feasible_ (spare_nodes_) and r.total_scores, and the next
  // cycle's CycleState (cleared).
  std::vector<const NodeInfo*> spare_nodes_;
  std::vector<int64_t> spare_totals_;
  std::shared_ptr<CycleState> spare_cycle_state_;
  // ScoreNodes' Score plugins not skipped, with weights, and each one's
  // index in profile_.score() (a cache row's column); kept across cycles.
  std::vector<std::pair<const ScorePlugin*, int64_t>> score_plugins_;
  std::vector<size_t> score_slots_;
  std::vector<char> score_reused_;  // with the cache: row i came from it
  std::vector<size_t> score_fresh_;  // with the cache: the rows scored afresh
  // NormalizedTotals' column to normalize; SplitScorePlugins' (row
  // column, weight) of the plugins without NormalizeScore and the indexes
  // in score_plugins_ of those with it (live ones in neither).
  std::vector<int64_t> score_column_;
  // ScoreTotalsFromRows' totals before they go to the result.
  std::vector<int64_t> score_totals_;
  std::vector<std::pair<size_t, uint64_t>> direct_scores_;
  std::vector<size_t> normalized_;
  std::vector<char> score_live_;    // by profile_.score() index (CacheEntryForScore)
  // ScoreTotalsWithLiveColumns' scratch: the live plugins' indexes in
  // score_plugins_, the marks for ScoreAll (all 1: every node; grown,
  // never cleared), and the live plugins' weighted sums per node.
  std::vector<size_t> live_columns_;
  std::vector<char> live_marks_;
  std::vector<int64_t> live_totals_;
  std::unique_ptr<EquivalenceCache> ecache_;  // null when off
  // The interner's reuse_epoch() ecache_'s keys are valid for.
  uint64_t ecache_reuse_epoch_ = 0;
  bool ecache_hit_ = false;  // this cycle found its class's entry
  std::vector<int64_t> draws_;  // this cycle's RandomInt bounds (Framework)
  NominatedPodsByNode nominated_by_node_;  // this cycle's, when any pod is nominated
  // This cycle caches the first (nominated-pods) pass's verdicts: it has a
  // cache entry, no live Filter and no PreFilter extension runs.
  bool nominated_pass_cached_ = false;
  // FilterNode's scratch: the positions in a node's nominated pods of
  // those the pod yields to, and this cycle's pod's NominatedKey.
  std::vector<uint32_t> yielded_;
  NominatedKey pod_key_;
  PodSigner signer_;         // scratch, reused across cycles
  PodSigner live_signer_;    // scratch: the live Filters' keys (CacheEntryForFilter)
  // This cycle's live Filters (FilterPlugin::FilterRunsLive), by index in
  // profile_.filter(): a mark per Filter, and the marked indexes in order.
  std::vector<uint8_t> filter_live_;
  std::vector<size_t> live_filters_;
};

// The FitError summary: "0/N nodes are available: <sorted histogram>." or
// the PreFilter message, then the PostFilter message if any
// (framework.FitError.Error in framework/types.go).
std::string FitErrorMessage(const ScheduleResult& r);

}  // namespace sched

#endif  // LIBSCHED_SCHEDULER_SCHEDULER_H_
