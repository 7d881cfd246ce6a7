// EquivalenceCache: per equivalence class of pods (a PodSigner signature),
// the reusable part of the last cycles' results over all nodes: each
// node's Filter verdict (and, for a node holding nominated pods, its
// verdict with them added) and its raw (not normalized) per-plugin scores.
// A cycle of a pod of the class reuses an entry when the node is the same
// NodeInfo at the same generation and the class's filter / score keys are
// unchanged, and re-evaluates (repairs) it otherwise. It never decides
// anything itself: the cycle walks nodes, counts, normalizes and selects
// exactly as without it (libsched/scheduler/scheduler.cc). A class whose
// cycle fit nowhere also keeps that outcome (FailureMemo) for the next
// cycle of the class to return while nothing it read changed; docs/api.md
// ("Failure memo") has the conditions and why they suffice.
//
// Upstream has no such cache today (the per-predicate equivalence cache of
// pkg/scheduler/core/equivalence_cache.go was removed in v1.13; KEP-5598
// reuses one whole result per pod signature); docs/upstream-differences.md.
//
// Thread-safety: none. One Scheduler owns one cache and runs one cycle at
// a time; reads during a cycle take no lock.
#ifndef LIBSCHED_ECACHE_EQUIVALENCE_CACHE_H_
#define LIBSCHED_ECACHE_EQUIVALENCE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "libsched/framework/cycle_state.h"
#include "libsched/framework/kept_reasons.h"
#include "libsched/framework/node_failures.h"
#include "libsched/framework/node_to_status.h"
#include "libsched/framework/status.h"
#include "libsched/framework/yielded_nominations.h"
#include "libsched/model/pod.h"
#include "libsched/state/node_info.h"

namespace sched {

// Counters since the cache was created. A cycle is a hit, a miss or a
// bypass (or none of them: PreFilter rejected the pod, or no node exists).
struct EcacheStats {
  uint64_t hits = 0;            // cycles that found their class's entry
  uint64_t misses = 0;          // cycles that created it
  uint64_t bypasses = 0;        // cycles that could not use the cache
  uint64_t score_bypasses = 0;  // cycles with a Score plugin scored afresh on every node
  uint64_t repairs = 0;         // node evaluations (filter or score) in hit cycles
  uint64_t reused = 0;          // node verdicts and score rows taken from the cache
  uint64_t parked = 0;          // hit cycles answered by the failure memo, no node walked
};

// What a cycle of a class that fit nowhere read besides the class signature
// (the entry), its memo key (kept by the entry) and the nodes: the
// cluster state at one generation (every change bumps it: nodes, pods,
// PDBs, volumes, namespaces), and the pod fields PostFilter reads that the
// signature leaves out (DefaultPreemption: priority, preemptionPolicy).
struct FailureMemoKey {
  const void* state = nullptr;  // the ClusterState; one per Scheduler in practice
  uint64_t state_generation = 0;
  int32_t priority = 0;
  bool preempt_never = false;
  bool operator==(const FailureMemoKey&) const = default;
};

// The outcome of such a cycle, as Scheduler::Schedule would produce it
// again (libsched/scheduler/scheduler.cc ReplayFailureMemo).
struct FailureMemo {
  FailureMemoKey key;
  uint64_t memo_key = 0;  // EcacheEntry::BeginFilter's memo_key
  size_t start = 0;  // the rotating start index `failures` begin at
  // Every node's Filter verdict, in rotation order from `start`; reasons
  // point into the entry's storage(). Shared with the results that replay
  // it (NodeFailures::Share): a new memo replaces it, never edits it.
  std::shared_ptr<const std::vector<NodeFailure>> failures;
  std::string post_filter_msg;
  std::string message;  // the FitError text (it does not depend on the order)
  // The bound n of each Framework::RandomInt(n) the cycle drew, in order.
  std::vector<int64_t> draws;
};

// One class's results, indexed by the node's NodeInfo::index() (its slot:
// stable while the node exists, whatever else joins, leaves or moves in
// ClusterState::NodeList()); each slot remembers which NodeInfo and which
// generation it was computed for, so a slot reused by another node misses.
class EcacheEntry {
 public:
  // Starts a filter walk over nodes whose slots are below `num_slots`
  // (a smaller bound keeps the slots above it until it is under half of
  // them; then they are dropped and their room given back). A
  // different `filter_key` (which plugins PreFilter skipped, the cached
  // Filters' keys; not the live Filters' keys) invalidates every cached
  // verdict. `memo_key` is the filter key with the live Filters' keys too
  // (equal to `filter_key` when none is live): the failure memo holds
  // every node's verdict, the live Filters' included.
  void BeginFilter(uint64_t filter_key, uint64_t memo_key, size_t num_slots);
  // The cached verdict of `node` at `index` (of the Filters that are not
  // live), or null; *failed_at gets the index in the profile's Filters of
  // the plugin that rejected (their number when none did).
  // The status is valid until the next StoreVerdict or BeginFilter.
  // Inline: the cached walk calls it for every node it visits.
  const Status* Verdict(size_t index, const NodeInfo& node, size_t* failed_at) const {
    const Slot& s = slots_[index];
    if (s.filter_epoch != filter_epoch_ || s.filter_node != &node ||
        s.filter_generation != node.generation()) {
      return nullptr;
    }
    *failed_at = s.failed_at;
    return s.plain_success ? &kPlainSuccess : &verdicts_[index];
  }
  // The cached walk's run of nodes that simply pass: copies nodes[0],
  // nodes[1], ... to out while each has a cached verdict that is plain
  // success (Status(), as Verdict would return at its index()) and is not
  // `skip`, at most `count` of them; returns how many. Inline and with
  // the slots and epoch in registers: most nodes of a walk cost this loop
  // only.
  size_t TakePassing(const NodeInfo* const* nodes, size_t count, const NodeInfo* skip,
                     const NodeInfo** out) const {
    // Most walks skip no node: their loop leaves the test out.
    return skip == nullptr ? TakePassingRun<false>(nodes, count, nullptr, out)
                           : TakePassingRun<true>(nodes, count, skip, out);
  }
  // Caches `s` (not an Error) for `node` at `index`, and `failed_at` as
  // above; its reasons are copied into storage() so they outlive the cycle
  // that computed them.
  void StoreVerdict(size_t index, const NodeInfo& node, const Status& s, size_t failed_at);

  // The cached verdict of `node` at `index` with those pods added (the
  // first pass of Framework::RunFilterPluginsWithNominatedPods), or null.
  // Valid while the node and its generation, the filter key, the list's
  // version and the positions are unchanged.
  // The entry holds no nominated Pod (yielded_nominations.h).
  // REQUIRES: `pods.version` is not 0, `pods.positions` not empty.
  const Status* NominatedVerdict(size_t index, const NodeInfo& node,
                                 YieldedNominations pods) const;
  // Caches `s` (not an Error) as that verdict; returns the cached status.
  const Status* StoreNominatedVerdict(size_t index, const NodeInfo& node,
                                      YieldedNominations pods, const Status& s);

  // Starts scoring with `num_plugins` score plugins. A different
  // `score_key` (skipped plugins, ScoreCacheKey inputs) invalidates every
  // cached score row.
  void BeginScore(uint64_t score_key, size_t num_plugins);
  // The cached raw scores (num_plugins of them, in profile order) of
  // `node` at `index`, or null.
  const int64_t* RawScores(size_t index, const NodeInfo& node) const {
    const Slot& s = slots_[index];
    if (s.score_epoch != score_epoch_ || s.score_node != &node ||
        s.score_generation != node.generation()) {
      return nullptr;
    }
    return &raw_[index * num_plugins_];
  }
  // The row to fill for the node at `index`; it counts as cached only
  // after MarkScored, so a cycle that fails half way leaves nothing stale.
  int64_t* MutableRawScores(size_t index) { return &raw_[index * num_plugins_]; }
  // What the scheduler derives from a row once, when it is marked, and
  // reads instead of the row while the row is cached (Scheduler::
  // ScoreTotalsFromRows): the weighted sum of the cells of the plugins
  // without NormalizeScore (wrapping) and RowSummary flags.
  struct RowSummary {
    uint64_t direct_total = 0;
    uint8_t flags = 0;
  };
  // A direct cell is outside [kMinNodeScore, kMaxNodeScore].
  static constexpr uint8_t kDirectOutOfRange = 1;
  // A cell of a plugin with NormalizeScore is not 0.
  static constexpr uint8_t kNormalizedNonZero = 2;
  // Marks the row of `node` at `index` cached, with its summary.
  void MarkScored(size_t index, const NodeInfo& node, RowSummary summary);
  // The totals walk's run of cached rows: for nodes[0], nodes[1], ...
  // while each has a cached row at its index() (RawScores would not
  // return null), at most `count` of them, sets totals[k] to the row
  // summary's direct_total plus `add` (wrapping) and ORs its flags into
  // *flags; returns how many. Inline and with the slots and epoch in
  // registers, reading only the slot, which the filter walk has just read.
  size_t TakeCachedTotals(const NodeInfo* const* nodes, size_t count, uint64_t add,
                          int64_t* totals, uint8_t* flags) const {
    const Slot* slots = slots_.data();
    const uint64_t epoch = score_epoch_;
    uint8_t f = 0;
    size_t k = 0;
    for (; k < count; ++k) {
      const NodeInfo* node = nodes[k];
      const Slot& s = slots[node->index()];
      if (s.score_epoch != epoch || s.score_node != node ||
          s.score_generation != node->generation()) {
        break;
      }
      f |= s.summary_flags;
      totals[k] = static_cast<int64_t>(s.direct_total + add);
    }
    *flags |= f;
    return k;
  }

  // The failure memo stored under `key` and the current memo key, or
  // null. (A new memo key in BeginFilter also drops it.)
  const FailureMemo* Memo(const FailureMemoKey& key) const;
  // Remembers a cycle that fit nowhere: `failures` (every node, in
  // rotation order from `start`) are taken, their statuses made to view
  // reasons in storage() (equal text), and returned shared, for the
  // cycle's result to hold instead of a copy. Replaces any earlier memo
  // (results sharing its failures keep them).
  std::shared_ptr<const std::vector<NodeFailure>> StoreMemo(
      const FailureMemoKey& key, size_t start, std::vector<NodeFailure> failures,
      std::string post_filter_msg, std::string message, std::vector<int64_t> draws);

  // BeginFilter's filter key.
  uint64_t filter_key() const { return filter_key_; }
  // The bytes the rows by node index hold (their room, not their size):
  // what the class costs per node index, which BeginFilter gives back when
  // the bound falls far below it.
  size_t RowBytes() const {
    return slots_.capacity() * sizeof(Slot) + raw_.capacity() * sizeof(int64_t) +
           verdicts_.capacity() * sizeof(Status) + nominated_.capacity() * sizeof(NominatedSlot);
  }

  // The plugins' memos for this class (CycleState::set_class_memos).
  const std::shared_ptr<ClassMemos>& memos() const { return memos_; }

  // Keeps the cached reasons alive; results hold it while they live.
  std::shared_ptr<const void> storage() const { return reasons_; }
  uint64_t last_used = 0;

 private:
  // TakePassing's loop; kSkip: whether it tests for `skip`.
  template <bool kSkip>
  size_t TakePassingRun(const NodeInfo* const* nodes, size_t count, const NodeInfo* skip,
                        const NodeInfo** out) const {
    const Slot* slots = slots_.data();
    const uint64_t epoch = filter_epoch_;
    size_t k = 0;
    for (; k < count; ++k) {
      const NodeInfo* node = nodes[k];
      if (kSkip && node == skip) break;
      const Slot& s = slots[node->index()];
      if (!s.plain_success || s.filter_epoch != epoch || s.filter_node != node ||
          s.filter_generation != node->generation()) {
        break;
      }
      out[k] = node;
    }
    return k;
  }
  // What the walks read per node, in one cache line: the filter and the
  // score validity, and the verdict only when it is not plain success
  // (then it is in verdicts_), and the score row's summary. A node that
  // passes costs the filter walk this line and its NodeInfo's; the totals
  // walk then finds the line cached and reads no row.
  struct alignas(64) Slot {
    const NodeInfo* filter_node = nullptr;
    uint64_t filter_generation = 0;
    uint64_t filter_epoch = 0;  // valid while == filter_epoch_
    const NodeInfo* score_node = nullptr;
    uint64_t score_generation = 0;
    uint64_t score_epoch = 0;  // valid while == score_epoch_
    uint32_t failed_at = 0;     // Verdict's *failed_at
    bool plain_success = false;  // the verdict is Status(): verdicts_ not read
    uint8_t summary_flags = 0;   // the score row's RowSummary
    uint64_t direct_total = 0;
  };
  static_assert(sizeof(Slot) == 64);
  // A node's verdict with nominated pods (NominatedVerdict); kept apart
  // from Slot, sized only once a class meets a nomination.
  struct NominatedSlot {
    NominatedStamp stamp;  // epoch: filter_epoch_
    Status verdict;
  };

  // What Verdict returns for a slot whose verdict is plain success.
  static inline const Status kPlainSuccess{};

  std::vector<Slot> slots_;
  // The verdicts that are not plain success, by slot; empty until the
  // first one (a class that fits everywhere never allocates it).
  std::vector<Status> verdicts_;
  std::vector<NominatedSlot> nominated_;  // by index, as slots_; may be shorter
  std::unique_ptr<FailureMemo> memo_;  // null when none
  std::shared_ptr<ClassMemos> memos_ = std::make_shared<ClassMemos>();
  std::vector<int64_t> raw_;  // slots_.size() x num_plugins_
  size_t num_plugins_ = 0;
  uint64_t filter_key_ = 0;
  uint64_t memo_key_ = 0;
  uint64_t filter_epoch_ = 1;
  uint64_t score_key_ = 0;
  uint64_t score_epoch_ = 1;
  // The cached verdicts' reasons (shared with results: storage()).
  std::shared_ptr<KeptReasons> reasons_ = std::make_shared<KeptReasons>();
};

class EquivalenceCache {
 public:
  // At most `max_classes` entries; the least recently used goes first.
  // REQUIRES: max_classes > 0.
  explicit EquivalenceCache(size_t max_classes) : max_classes_(max_classes) {}

  // The entry of `signature`; counts a hit, or a miss when it is created
  // (then *created is true).
  EcacheEntry& Get(uint64_t signature, bool* created);
  EcacheStats& stats() { return stats_; }
  const EcacheStats& stats() const { return stats_; }
  size_t size() const { return entries_.size(); }
  // Drops every entry (the counters stay).
  void Clear() { entries_.clear(); }

 private:
  size_t max_classes_;
  uint64_t clock_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<EcacheEntry>> entries_;
  EcacheStats stats_;
};

}  // namespace sched

#endif  // LIBSCHED_ECACHE_EQUIVALENCE_CACHE_H_
