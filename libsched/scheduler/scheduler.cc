#include "libsched/scheduler/scheduler.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "libsched/framework/filter_errors.h"
#include "libsched/scheduler/select_host.h"

namespace sched {
namespace {

// schedule_one.go: minFeasibleNodesToFind, minFeasibleNodesPercentageToFind.
constexpr int64_t kMinFeasibleNodesToFind = 100;
constexpr int64_t kMinFeasibleNodesPercentageToFind = 5;

// Equivalence classes kept at once; at 5,000 nodes an entry is ~1 MB (a
// 64-byte slot and a raw score row per node; 96 bytes more per node once a
// verdict is a rejection).
constexpr size_t kMaxEquivalenceClasses = 32;

std::vector<std::string> Intersect(const std::vector<std::string>& a,
                                   const std::vector<std::string>& b) {
  std::vector<std::string> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

Scheduler::Scheduler(Profile profile, uint64_t seed, Parallelizer* parallelizer)
    : profile_(std::move(profile)),
      rng_(seed),
      inline_(1),
      parallelizer_(parallelizer != nullptr ? parallelizer : &inline_) {}

void Scheduler::set_equivalence_cache(bool on) {
  if (on && !ecache_) ecache_ = std::make_unique<EquivalenceCache>(kMaxEquivalenceClasses);
  if (!on) ecache_.reset();
}

EcacheEntry* Scheduler::CacheEntryForFilter(const Pod& pod, const CycleState& cs, size_t num_slots,
                                            bool* hit) {
  *hit = false;
  if (!ecache_) return nullptr;
  // Which Filters run is part of the class's key; each that runs must be
  // node-local, or verdicts could go stale without their node changing.
  // A live Filter's key goes to the memo key only (FilterRunsLive).
  const std::vector<const FilterPlugin*>& filters = profile_.filter();
  signer_.Clear();
  live_signer_.Clear();
  filter_live_.assign(filters.size(), 0);
  live_filters_.clear();
  for (size_t k = 0; k < filters.size(); ++k) {
    const FilterPlugin* p = filters[k];
    const bool skip = cs.skip_filter(p->slot());
    signer_.Add(static_cast<int64_t>(skip));
    if (skip) continue;
    signer_.Section(p->Name());
    const bool live = !profile_.run_all_filters() && p->FilterRunsLive(cs);
    signer_.Add(static_cast<int64_t>(live));
    if (!p->FilterIsNodeLocal(cs, live ? live_signer_ : signer_)) {
      ++ecache_->stats().bypasses;
      return nullptr;
    }
    if (live) {
      filter_live_[k] = 1;
      live_filters_.push_back(k);
    }
  }
  const uint64_t filter_key = signer_.Finish();
  uint64_t memo_key = filter_key;
  if (!live_filters_.empty()) {
    live_signer_.Add(static_cast<int64_t>(filter_key));
    memo_key = live_signer_.Finish();
  }
  signer_.Clear();
  for (const auto& p : profile_.plugins()) p->SignPod(pod, signer_);
  bool created = false;
  EcacheEntry& e = ecache_->Get(signer_.Finish(), &created);
  e.BeginFilter(filter_key, memo_key, num_slots);
  *hit = !created;
  return &e;
}

const Status* Scheduler::NominatedFirstPass(const Framework& fw, const CycleState& cs,
                                            const Pod& pod, EcacheEntry& cls, size_t index,
                                            const NodeInfo& ni, Status* fresh, bool* reused) {
  // The index fw reads (built for this cycle when there is a nominator),
  // asked directly: the walk inlines it.
  const YieldedNominations yielded = nominated_by_node_.Yielded(ni, pod, pod_key_, &yielded_);
  if (yielded.positions.empty()) return nullptr;
  // Unversioned nominations (version 0) are not cached.
  const bool cached = nominated_pass_cached_ && yielded.version != 0;
  const Status* first = cached ? cls.NominatedVerdict(index, ni, yielded) : nullptr;
  if (first != nullptr) {
    *reused = true;
  } else {
    *fresh = fw.RunNominatedPass(cs, pod, ni, nominated_by_node_.On(ni));
    first = fresh;
    if (cached && fresh->code() != Code::kError) {
      first = cls.StoreNominatedVerdict(index, ni, yielded, *fresh);
    }
  }
  if (!first->IsSuccess()) return first;
  *reused = false;
  return nullptr;
}

const Status* Scheduler::LiveFilters(const CycleState& cs, const Pod& pod, const NodeInfo& ni,
                                     size_t failed_at, const Status* verdict, Status* live) const {
  // In profile order, up to the first cached one that rejected: as
  // RunFilterPlugins, the first rejection wins.
  for (const size_t k : live_filters_) {
    if (k >= failed_at) break;
    const FilterPlugin* p = profile_.filter()[k];
    Status s = p->Filter(cs, pod, ni);
    if (s.IsSuccess()) continue;
    s.set_plugin(p->Name());
    *live = std::move(s);
    return live;
  }
  return verdict;
}

inline const Status* Scheduler::FilterNode(const Framework& fw, const CycleState& cs,
                                           const Pod& pod, const PodNominator* nominator,
                                           EcacheEntry& cls, size_t index, const NodeInfo& ni,
                                           Status* fresh, Status* live, bool* reused) {
  // The nominated pods the pod yields to are not part of the node's
  // generation: the first pass's verdict is cached under their list, or
  // evaluated afresh when a PreFilter extension reads them (AddPod may
  // derive state from pod fields the class key leaves out). Without such
  // pods, or once the first pass passed, the second pass is the node's
  // plain verdict. Small, so that the walk inlines it: a node with a
  // cached verdict and no live Filter costs its NodeInfo and slot reads.
  *reused = false;
  if (nominator != nullptr) {
    if (const Status* rejected = NominatedFirstPass(fw, cs, pod, cls, index, ni, fresh, reused)) {
      return rejected;
    }
  }
  size_t failed_at = 0;
  const Status* v = cls.Verdict(index, ni, &failed_at);
  if (v != nullptr) {
    *reused = true;
  } else {
    *fresh = fw.RunFilterPlugins(cs, pod, ni, filter_live_, &failed_at);
    if (fresh->code() != Code::kError) cls.StoreVerdict(index, ni, *fresh, failed_at);
    v = fresh;
  }
  if (live_filters_.empty()) return v;
  return LiveFilters(cs, pod, ni, failed_at, v, live);
}

bool Scheduler::AddPodExtensionsRun(const CycleState& cs) const {
  for (const PreFilterPlugin* p : profile_.pre_filter()) {
    if (p->HasPreFilterExtensions() && !cs.skip_filter(p->slot())) return true;
  }
  return false;
}

EcacheEntry* Scheduler::CacheEntryForScore(const CycleState& cs, EcacheEntry* cls) {
  if (cls == nullptr) return nullptr;
  signer_.Clear();
  score_live_.assign(profile_.score().size(), 0);
  bool any_live = false;
  for (size_t k = 0; k < profile_.score().size(); ++k) {
    const ScorePlugin* plugin = profile_.score()[k].plugin;
    const bool skip = cs.skip_score(plugin->slot());
    signer_.Add(static_cast<int64_t>(skip));
    if (skip) continue;
    signer_.Section(plugin->Name());
    // A plugin whose raw score is not cacheable is scored afresh on every
    // node (its column of a row is never read); which ones are is part of
    // the key, so a column cached under another set is not read either.
    const bool live = !plugin->ScoreCacheKey(cs, signer_);
    signer_.Add(static_cast<int64_t>(live));
    score_live_[k] = live;
    any_live = any_live || live;
  }
  if (any_live) ++ecache_->stats().score_bypasses;
  cls->BeginScore(signer_.Finish(), profile_.score().size());
  return cls;
}

int64_t Scheduler::NumFeasibleNodesToFind(int64_t num_all_nodes) const {
  if (num_all_nodes < kMinFeasibleNodesToFind) return num_all_nodes;
  int64_t percentage = profile_.percentage_of_nodes_to_score();
  if (percentage == 0) {
    percentage = std::max<int64_t>(50 - num_all_nodes / 125, kMinFeasibleNodesPercentageToFind);
  }
  return std::max(num_all_nodes * percentage / 100, kMinFeasibleNodesToFind);
}

bool Scheduler::RunPreFilters(CycleState& cs, const Pod& pod, const ClusterState& state,
                              ScheduleResult& r, PreFilterResult* restriction) const {
  // framework.go RunPreFilterPlugins: UnschedulableAndUnresolvable stops at
  // once; Unschedulable is remembered (the last one wins) and the rest run.
  std::optional<Status> rejected;
  std::vector<std::string_view> restricting;  // plugins that returned node names
  for (const PreFilterPlugin* p : profile_.pre_filter()) {
    PreFilterResult pr;
    Status s = p->PreFilter(cs, pod, state, &pr);
    if (s.IsSkip()) {
      cs.set_skip_filter(p->slot());
      continue;
    }
    if (!s.IsSuccess()) {
      s.set_plugin(p->Name());
      if (s.code() == Code::kUnschedulable) {
        rejected = std::move(s);
        continue;
      }
      if (s.code() != Code::kUnschedulableAndUnresolvable) {
        r.error = true;
        r.message = "running PreFilter plugin \"" + std::string(p->Name()) + "\": " + s.Message();
      }
      rejected = std::move(s);
      restricting.clear();  // upstream returns no plugin set here
      break;
    }
    if (pr.all_nodes) continue;
    restricting.push_back(p->Name());
    if (restriction->all_nodes) {
      *restriction = std::move(pr);
    } else {
      restriction->node_names = Intersect(restriction->node_names, pr.node_names);
    }
    if (restriction->node_names.empty()) {
      std::sort(restricting.begin(), restricting.end());
      std::string list;
      for (auto n : restricting) list += (list.empty() ? "" : " ") + std::string(n);
      r.owned_messages.push_back(
          restricting.size() == 1 ? "node(s) didn't satisfy plugin " + list
                                  : "node(s) didn't satisfy plugin(s) [" + list + "] simultaneously");
      rejected = Status(Code::kUnschedulableAndUnresolvable, r.owned_messages.back());
      break;
    }
  }
  r.restricting_plugins = restricting;
  if (!rejected) {
    if (!restriction->all_nodes) {
      std::string list;
      std::sort(restricting.begin(), restricting.end());
      for (auto n : restricting) {
        if (!list.empty()) list += ' ';
        list += n;
      }
      r.owned_messages.push_back("node(s) didn't satisfy plugin(s) [" + list + ']');
      r.absent_status = Status(Code::kUnschedulableAndUnresolvable, r.owned_messages.back());
    }
    return true;
  }
  r.pre_filter_msg = rejected->Message();
  r.absent_status = std::move(*rejected);
  return false;
}

bool Scheduler::RunPostFilters(const Framework& fw, const CycleState& cs, const Pod& pod,
                               ScheduleResult& r) const {
  // framework.go RunPostFilterPlugins: the first success or
  // UnschedulableAndUnresolvable (or error) decides; otherwise the reasons
  // of all plugins are kept. schedulingCycle records the message either way.
  if (profile_.post_filter().empty()) return true;
  const NodeToStatus statuses(r.failures.AnyOrder(), r.absent_status ? &*r.absent_status : nullptr);
  std::string reasons;
  for (const PostFilterPlugin* p : profile_.post_filter()) {
    PostFilterResult pr;
    const Status s = p->PostFilter(fw, cs, pod, statuses, &pr);
    if (s.IsSuccess() || !s.IsRejected() || s.code() == Code::kUnschedulableAndUnresolvable) {
      r.post_filter_msg = s.Message();
      if (s.IsSuccess()) {
        r.nominated_node = std::move(pr.nominated_node_name);
        r.victims = std::move(pr.victims);
      }
      return s.IsRejected();
    }
    for (std::string_view reason : s.reasons()) {
      reasons += (reasons.empty() ? "" : ", ") + std::string(reason);
    }
  }
  r.post_filter_msg = std::move(reasons);
  return true;
}

bool Scheduler::MemoApplies(const EcacheEntry* cls, const Pod& pod,
                            const PodNominator* nominations) {
  return cls != nullptr && nominations == nullptr && pod.nominated_node_name.empty();
}

bool Scheduler::ReplayFailureMemo(const Framework& fw, const EcacheEntry& cls, const Pod& pod,
                                  const ClusterState& state, ScheduleResult& r) {
  const FailureMemo* m =
      cls.Memo({&state, state.generation(), pod.priority, pod.preempt_never});
  if (m == nullptr) return false;
  const size_t n = m->failures->size();
  next_start_node_index_ %= n;  // as the walk over all n nodes leaves it
  r.failures.Share(m->failures, (next_start_node_index_ + n - m->start) % n);
  r.evaluated_nodes = static_cast<int64_t>(n);
  r.post_filter_msg = m->post_filter_msg;
  r.message = m->message;
  for (int64_t bound : m->draws) fw.RandomInt(bound);
  ++ecache_->stats().parked;
  return true;
}

void Scheduler::MemoizeFailure(EcacheEntry& cls, const Pod& pod, const ClusterState& state,
                               ScheduleResult& r) {
  // Only the plain outcome of a full walk: every node failed a Filter.
  if (r.failures.size() != state.NodeList().size() || r.absent_status ||
      !r.pre_filter_msg.empty() || !r.nominated_node.empty()) {
    return;
  }
  // The result shares the memo's failures: equal statuses (their reasons
  // now in r.cache_storage), one vector instead of a copy.
  r.failures.Share(cls.StoreMemo({&state, state.generation(), pod.priority, pod.preempt_never},
                                 next_start_node_index_, r.failures.TakeOwn(), r.post_filter_msg,
                                 r.message, draws_),
                   0);
}

void Scheduler::FilterNodes(const Framework& fw, const CycleState& cs, const Pod& pod,
                            const PodNominator* nominator, EcacheEntry* cls,
                            std::span<const NodeInfo* const> nodes, size_t num_all_nodes,
                            const NodeInfo* skip, int64_t to_find,
                            std::vector<const NodeInfo*>* feasible, ScheduleResult& r) {
  feasible->reserve(std::min(static_cast<size_t>(to_find), nodes.size()));
  if (cls != nullptr) {
    FilterNodesCached(fw, cs, pod, nominator, *cls, nodes, skip, to_find, feasible, r);
    return;
  }
  const size_t n = nodes.size();
  const size_t start = next_start_node_index_;
  if (filter_statuses_.size() < n) filter_statuses_.resize(n);
  // Speculative: chunks run until the nodes that passed (or an error) in
  // the finished chunks show the serial loop's stopping point is behind
  // them. Chunks are claimed in order, so every node before that point
  // has a verdict in filter_statuses_.
  std::atomic<int64_t> passed{0};
  std::atomic<bool> failed{false};
  const int64_t node_cost = kNanosPerPluginCall * static_cast<int64_t>(profile_.filter().size());
  parallelizer_->Until(n, node_cost, [&](size_t begin, size_t end) {
    int64_t chunk_passed = 0;
    for (size_t i = begin; i < end; ++i) {
      const size_t index = (start + i) % n;
      const NodeInfo* ni = nodes[index];
      if (ni == skip) continue;
      Status& s = filter_statuses_[i];
      s = fw.RunFilterPluginsWithNominatedPods(cs, pod, *ni);
      if (s.IsSuccess()) {
        ++chunk_passed;
      } else if (s.code() == Code::kError) {
        failed.store(true, std::memory_order_relaxed);
      }
    }
    return passed.fetch_add(chunk_passed, std::memory_order_relaxed) + chunk_passed < to_find &&
           !failed.load(std::memory_order_relaxed);
  });
  // The serial loop: in rotation order, stop at to_find feasible nodes.
  // The nominated node, if it just failed, keeps that verdict (upstream
  // re-runs it to the same result); it is in r.failures already.
  for (size_t i = 0; i < n && static_cast<int64_t>(feasible->size()) < to_find; ++i) {
    const NodeInfo* ni = nodes[(start + i) % n];
    if (ni == skip) continue;
    Status& s = filter_statuses_[i];
    if (s.IsSuccess()) {
      feasible->push_back(ni);
    } else if (s.code() == Code::kError) {
      // findNodesThatPassFilters: an error ends the cycle.
      r.error = true;
      r.message = FilterErrorMessage(s);
      return;
    } else {
      r.failures.push_back({ni, std::move(s)});
    }
  }
  FinishFilterWalk(*feasible, num_all_nodes, r);
}

void Scheduler::FilterNodesCached(const Framework& fw, const CycleState& cs, const Pod& pod,
                                  const PodNominator* nominator, EcacheEntry& cls,
                                  std::span<const NodeInfo* const> nodes, const NodeInfo* skip,
                                  int64_t to_find, std::vector<const NodeInfo*>* feasible,
                                  ScheduleResult& r) {
  // The serial loop itself: a reused verdict costs a few loads, less than
  // handing chunks around, and the entry is not synchronized anyway.
  // Without nominations or live Filters a node whose cached verdict is
  // plain success needs nothing else: runs of them (up to the list's end,
  // where the rotation wraps) go through EcacheEntry::TakePassing.
  const size_t n = nodes.size();
  const bool plain = nominator == nullptr && live_filters_.empty();
  EcacheStats& stats = ecache_->stats();
  Status fresh, live;
  bool reused = false;
  uint64_t reused_count = 0;
  // The feasible nodes go to scratch kept across cycles, then to *feasible.
  const auto want = static_cast<size_t>(std::clamp<int64_t>(to_find, 0, static_cast<int64_t>(n)));
  if (filter_found_.size() < want) filter_found_.resize(want);
  const NodeInfo** out = filter_found_.data();
  size_t found = 0;
  // Reduced as the uncached walk's (start + i) % n is: nodes removed since
  // the last cycle can leave the start index past the end (n > 0 here).
  size_t index = next_start_node_index_ % n;
  size_t i = 0;  // nodes visited
  while (i < n && found < want) {
    if (plain) {
      const size_t run = std::min({n - index, n - i, want - found});
      const size_t took = cls.TakePassing(&nodes[index], run, skip, out + found);
      found += took;
      reused_count += took;
      i += took;
      index = index + took == n ? 0 : index + took;
      if (took == run) continue;
    }
    // The node the run stopped at, or any node when not plain.
    const NodeInfo* ni = nodes[index];
    index = index + 1 == n ? 0 : index + 1;
    ++i;
    if (ni == skip) continue;
    const Status* s =
        FilterNode(fw, cs, pod, nominator, cls, ni->index(), *ni, &fresh, &live, &reused);
    if (reused) {
      ++reused_count;
    } else if (ecache_hit_) {
      ++stats.repairs;
    }
    if (s->IsSuccess()) {
      out[found++] = ni;
    } else if (s->code() == Code::kError) {
      r.error = true;  // findNodesThatPassFilters: an error ends the cycle
      r.message = FilterErrorMessage(*s);
      stats.reused += reused_count;
      return;
    } else {
      r.failures.push_back({ni, *s});
    }
  }
  stats.reused += reused_count;
  feasible->assign(out, out + found);
  FinishFilterWalk(*feasible, n, r);
}

void Scheduler::FinishFilterWalk(const std::vector<const NodeInfo*>& feasible,
                                 size_t num_all_nodes, ScheduleResult& r) {
  const size_t processed = feasible.size() + r.failures.size();
  next_start_node_index_ = (next_start_node_index_ + processed) % num_all_nodes;
  r.feasible_nodes = static_cast<int64_t>(feasible.size());
  r.evaluated_nodes = static_cast<int64_t>(processed);
}

void Scheduler::Prioritize(CycleState& cs, const Pod& pod, const ClusterState& state,
                           std::vector<const NodeInfo*> feasible, EcacheEntry* cls,
                           ScoreDetail detail, ScheduleResult& r) {
  r.scored_nodes = std::move(feasible);
  if (profile_.score().empty()) {
    r.total_scores.assign(r.scored_nodes.size(), 1);  // prioritizeNodes without scorers
    return;
  }
  for (const PreScorePlugin* p : profile_.pre_score()) {
    Status s = p->PreScore(cs, pod, r.scored_nodes, state);
    if (s.IsSkip()) {
      cs.set_skip_score(p->slot());
    } else if (!s.IsSuccess()) {
      r.error = true;
      r.message = "running PreScore plugin \"" + std::string(p->Name()) + "\": " + s.Message();
      return;
    }
  }
  ScoreNodes(cs, pod, CacheEntryForScore(cs, cls), detail, r);
}

void Scheduler::ScoreNodes(const CycleState& cs, const Pod& pod, EcacheEntry* score_cache,
                           ScoreDetail detail, ScheduleResult& r) {
  const std::span<const NodeInfo* const> nodes = r.scored_nodes;
  const size_t n = nodes.size();
  auto& plugins = score_plugins_;
  plugins.clear();
  score_slots_.clear();
  for (size_t k = 0; k < profile_.score().size(); ++k) {
    const auto& [plugin, weight] = profile_.score()[k];
    if (cs.skip_score(plugin->slot())) continue;
    plugins.emplace_back(plugin, weight);
    score_slots_.push_back(k);
  }
  if (score_cache != nullptr) SplitScorePlugins();
  if (score_cache != nullptr && detail == ScoreDetail::kTotals) {
    if (ScoreTotalsWithLiveColumns(cs, pod, *score_cache, r)) return;
    r.total_scores.clear();  // as the general path leaves them on an error
  }
  const size_t np = plugins.size();
  r.plugin_scores.assign(np * n, 0);
  // RunScorePlugins: per node, every plugin; each thread writes its own
  // cells. A failing Score records only the lowest failing node per plugin;
  // its status is recomputed below (Score has no side effects).
  std::vector<std::atomic<size_t>> score_failed(np);
  for (auto& f : score_failed) f.store(n, std::memory_order_relaxed);
  if (score_cache != nullptr) {
    ScoreNodesCached(cs, pod, *score_cache, score_failed, r);
  } else {
    parallelizer_->Until(n, kNanosPerPluginCall * static_cast<int64_t>(np),
                         [&](size_t begin, size_t end) {
      for (size_t p = 0; p < np; ++p) {
        int64_t* column = &r.plugin_scores[p * n];
        for (size_t i = begin; i < end; ++i) {
          if (plugins[p].first->Score(cs, pod, *nodes[i], &column[i]).IsSuccess()) continue;
          size_t seen = score_failed[p].load(std::memory_order_relaxed);
          while (i < seen && !score_failed[p].compare_exchange_weak(seen, i)) {
          }
        }
      }
      return true;
    });
  }
  // The plugins before the first one whose Score failed get normalized,
  // range-checked and weighted (one plugin per piece), as the serial loop
  // would have done before meeting that failure.
  size_t scored = 0;
  while (scored < np && score_failed[scored].load(std::memory_order_relaxed) == n) ++scored;
  std::vector<Status> normalize(np);
  std::vector<size_t> out_of_range(np, n);
  const int64_t column_cost = kNanosPerScoreCell * static_cast<int64_t>(n);
  parallelizer_->Until(scored, column_cost, [&](size_t begin, size_t end) {
    for (size_t p = begin; p < end; ++p) {
      const auto [plugin, weight] = plugins[p];
      const std::span<int64_t> column(&r.plugin_scores[p * n], n);
      if (plugin->HasNormalizeScore()) {
        normalize[p] = plugin->NormalizeScore(cs, pod, column);
        if (!normalize[p].IsSuccess()) continue;
      }
      for (size_t i = 0; i < n; ++i) {
        if (column[i] < kMinNodeScore || column[i] > kMaxNodeScore) {
          out_of_range[p] = i;
          break;
        }
        column[i] *= weight;
      }
    }
    return true;
  });
  for (size_t p = 0; p < np; ++p) {
    const std::string_view name = plugins[p].first->Name();
    if (p == scored) {
      const size_t i = score_failed[p].load(std::memory_order_relaxed);
      int64_t ignored = 0;
      r.message = "running Score plugin \"" + std::string(name) +
                  "\": " + plugins[p].first->Score(cs, pod, *nodes[i], &ignored).Message();
    } else if (!normalize[p].IsSuccess()) {
      r.message = "running Normalize on Score plugins: " + normalize[p].Message();
    } else if (out_of_range[p] != n) {
      r.message = "plugin \"" + std::string(name) + "\" returns an invalid score " +
                  std::to_string(r.PluginScore(p, out_of_range[p])) +
                  ", it should in the range of [0, 100] after normalizing";
    } else {
      continue;
    }
    r.error = true;
    return;
  }
  r.score_plugins.reserve(np);
  for (const auto& pw : plugins) r.score_plugins.push_back(pw.first->Name());
  if (score_cache != nullptr) MarkScoreRows(*score_cache, r);
  r.total_scores.assign(n, 0);
  const int64_t row_cost = kNanosPerScoreCell * static_cast<int64_t>(np);
  parallelizer_->Until(n, row_cost, [&](size_t begin, size_t end) {
    for (size_t p = 0; p < np; ++p) {
      for (size_t i = begin; i < end; ++i) r.total_scores[i] += r.plugin_scores[p * n + i];
    }
    return true;
  });
}

void Scheduler::MarkScoreRows(EcacheEntry& score_cache, const ScheduleResult& r) {
  EcacheStats& stats = ecache_->stats();
  stats.reused += static_cast<int64_t>(r.scored_nodes.size() - score_fresh_.size());
  for (const size_t i : score_fresh_) {
    const NodeInfo& ni = *r.scored_nodes[i];
    score_cache.MarkScored(ni.index(), ni, SummarizeRow(score_cache.MutableRawScores(ni.index())));
    if (ecache_hit_) ++stats.repairs;
  }
}

void Scheduler::SplitScorePlugins() {
  direct_scores_.clear();
  normalized_.clear();
  for (size_t p = 0; p < score_plugins_.size(); ++p) {
    const auto [plugin, weight] = score_plugins_[p];
    const size_t slot = score_slots_[p];
    if (score_live_[slot]) continue;
    if (plugin->HasNormalizeScore()) {
      normalized_.push_back(p);
    } else {
      direct_scores_.emplace_back(slot, static_cast<uint64_t>(weight));
    }
  }
}

EcacheEntry::RowSummary Scheduler::SummarizeRow(const int64_t* row) const {
  // Weighted sums in uint64_t: they wrap instead of overflowing, and equal
  // the int64_t ones whenever every score is in range (else the general
  // path takes over). One compare checks [0, 100]:
  static_assert(kMinNodeScore == 0);
  EcacheEntry::RowSummary summary;
  for (const auto& [slot, weight] : direct_scores_) {
    const auto score = static_cast<uint64_t>(row[slot]);
    if (score > kMaxNodeScore) summary.flags |= EcacheEntry::kDirectOutOfRange;
    summary.direct_total += score * weight;
  }
  for (const size_t p : normalized_) {
    if (row[score_slots_[p]] != 0) summary.flags |= EcacheEntry::kNormalizedNonZero;
  }
  return summary;
}

bool Scheduler::ScoreTotalsFromRows(const CycleState& cs, const Pod& pod,
                                    EcacheEntry& score_cache, ScheduleResult& r) {
  const size_t n = r.scored_nodes.size();
  const size_t np = score_plugins_.size();
  // What the plugins with NormalizeScore add to every node when all their
  // raw scores are 0 (NormalizesZeroColumnTo), if each of them says.
  uint64_t zero_columns = 0;
  bool zero_columns_known = true;
  for (const size_t p : normalized_) {
    const auto [plugin, weight] = score_plugins_[p];
    int64_t normalized = 0;
    zero_columns_known = zero_columns_known && plugin->NormalizesZeroColumnTo(&normalized) &&
                         normalized >= kMinNodeScore && normalized <= kMaxNodeScore;
    zero_columns += static_cast<uint64_t>(normalized) * static_cast<uint64_t>(weight);
  }
  // One pass over the rows' summaries: runs of cached rows
  // (TakeCachedTotals), and between them a fresh row scored into the
  // cache's row and summarized (it counts as cached only after
  // MarkScoreRows). Into scratch kept across cycles, then copied: r's
  // fresh vector would be zeroed first (resize) for nothing.
  if (score_totals_.size() < n) score_totals_.resize(n);
  score_fresh_.clear();
  uint8_t flags = 0;
  size_t i = 0;
  while (true) {
    i += score_cache.TakeCachedTotals(r.scored_nodes.data() + i, n - i, zero_columns,
                                      score_totals_.data() + i, &flags);
    if (i == n) break;
    const NodeInfo& ni = *r.scored_nodes[i];
    int64_t* fresh = score_cache.MutableRawScores(ni.index());
    for (size_t p = 0; p < np; ++p) {
      const size_t slot = score_slots_[p];
      if (score_live_[slot]) continue;  // ScoreTotalsWithLiveColumns' part
      if (!score_plugins_[p].first->Score(cs, pod, ni, &fresh[slot]).IsSuccess()) return false;
    }
    score_fresh_.push_back(i);
    const EcacheEntry::RowSummary summary = SummarizeRow(fresh);
    flags |= summary.flags;
    score_totals_[i] = static_cast<int64_t>(summary.direct_total + zero_columns);
    ++i;
  }
  r.total_scores.assign(score_totals_.data(), score_totals_.data() + n);
  if ((flags & EcacheEntry::kDirectOutOfRange) != 0) return false;
  if (!normalized_.empty() &&
      (!zero_columns_known || (flags & EcacheEntry::kNormalizedNonZero) != 0)) {
    if (!NormalizedTotals(cs, pod, score_cache, zero_columns, r)) return false;
  }
  MarkScoreRows(score_cache, r);
  return true;
}

bool Scheduler::NormalizedTotals(const CycleState& cs, const Pod& pod,
                                 EcacheEntry& score_cache, uint64_t zero_columns,
                                 ScheduleResult& r) {
  // NormalizeScore needs the whole column: gathered from the rows (cached
  // or just filled), normalized, range-checked, weighted and added to the
  // direct totals (without the zero columns' share the walk added).
  const size_t n = r.scored_nodes.size();
  for (int64_t& total : r.total_scores) {
    total = static_cast<int64_t>(static_cast<uint64_t>(total) - zero_columns);
  }
  score_column_.resize(n);
  uint64_t out_of_range = 0;
  for (const size_t p : normalized_) {
    const auto [plugin, weight] = score_plugins_[p];
    const size_t slot = score_slots_[p];
    for (size_t i = 0; i < n; ++i) {
      score_column_[i] = score_cache.MutableRawScores(r.scored_nodes[i]->index())[slot];
    }
    if (!plugin->NormalizeScore(cs, pod, score_column_).IsSuccess()) return false;
    for (size_t i = 0; i < n; ++i) {
      const auto score = static_cast<uint64_t>(score_column_[i]);
      out_of_range |= static_cast<uint64_t>(score > kMaxNodeScore);
      r.total_scores[i] = static_cast<int64_t>(static_cast<uint64_t>(r.total_scores[i]) +
                                               score * static_cast<uint64_t>(weight));
    }
  }
  return out_of_range == 0;
}

bool Scheduler::ScoreTotalsWithLiveColumns(const CycleState& cs, const Pod& pod,
                                           EcacheEntry& score_cache, ScheduleResult& r) {
  live_columns_.clear();
  for (size_t p = 0; p < score_plugins_.size(); ++p) {
    if (score_live_[score_slots_[p]]) live_columns_.push_back(p);
  }
  if (live_columns_.empty()) return ScoreTotalsFromRows(cs, pod, score_cache, r);
  // The live columns first, each whole (nothing is cached yet, so a
  // failure leaves the general path a clean cycle): raw, normalized,
  // range-checked, weighted and summed into live_totals_.
  const size_t n = r.scored_nodes.size();
  if (live_marks_.size() < n) live_marks_.resize(n, 1);  // every entry is 1
  const std::span<const char> every_node(live_marks_.data(), n);
  // Sized, not zeroed: the first live column sets each total.
  if (live_totals_.size() < n) live_totals_.resize(n);
  score_column_.resize(n);
  bool first = true;
  for (const size_t p : live_columns_) {
    const auto [plugin, weight] = score_plugins_[p];
    if (!plugin->ScoreAll(cs, pod, r.scored_nodes, every_node, score_column_)) return false;
    if (plugin->HasNormalizeScore() && !plugin->NormalizeScore(cs, pod, score_column_).IsSuccess()) {
      return false;
    }
    for (size_t i = 0; i < n; ++i) {
      const int64_t score = score_column_[i];
      if (score < kMinNodeScore || score > kMaxNodeScore) return false;
      live_totals_[i] = (first ? 0 : live_totals_[i]) + score * weight;
    }
    first = false;
  }
  // Then the cached plugins' totals from the rows (the live ones left out).
  if (!ScoreTotalsFromRows(cs, pod, score_cache, r)) return false;
  for (size_t i = 0; i < n; ++i) r.total_scores[i] += live_totals_[i];
  return true;
}

void Scheduler::ScoreNodesCached(const CycleState& cs, const Pod& pod, EcacheEntry& score_cache,
                                 std::span<std::atomic<size_t>> score_failed, ScheduleResult& r) {
  // Serial: the cache's rows are not synchronized, and a reused row is a
  // few copies. Raw scores: a cached row, or a fresh one (cached once all
  // succeeded, by MarkScored).
  const size_t n = r.scored_nodes.size();
  const size_t np = score_plugins_.size();
  score_reused_.assign(n, 0);
  score_fresh_.clear();
  std::vector<size_t> live;  // indexes into score_plugins_
  for (size_t p = 0; p < np; ++p) {
    if (score_live_[score_slots_[p]]) live.push_back(p);
  }
  bool any_reused = false;
  for (size_t i = 0; i < n; ++i) {
    const NodeInfo& ni = *r.scored_nodes[i];
    if (const int64_t* row = score_cache.RawScores(ni.index(), ni)) {
      for (size_t p = 0; p < np; ++p) r.plugin_scores[p * n + i] = row[score_slots_[p]];
      score_reused_[i] = 1;
      any_reused = true;
      continue;
    }
    score_fresh_.push_back(i);
    int64_t* row = score_cache.MutableRawScores(ni.index());
    for (size_t p = 0; p < np; ++p) {
      int64_t& cell = r.plugin_scores[p * n + i];
      const bool ok = score_plugins_[p].first->Score(cs, pod, ni, &cell).IsSuccess();
      row[score_slots_[p]] = cell;
      if (!ok && score_failed[p].load(std::memory_order_relaxed) == n) {
        score_failed[p].store(i, std::memory_order_relaxed);
      }
    }
  }
  if (live.empty() || !any_reused) return;
  // The live plugins on the reused rows: a whole column in one call where
  // the plugin can (ScorePlugin::ScoreAll)...
  std::erase_if(live, [&](size_t p) {
    return score_plugins_[p].first->ScoreAll(cs, pod, r.scored_nodes, score_reused_,
                                             std::span<int64_t>(&r.plugin_scores[p * n], n));
  });
  if (live.empty()) return;
  // ...else per node, as the uncached path scores them (in parallel; a
  // failure keeps the lowest node per plugin).
  parallelizer_->Until(n, kNanosPerPluginCall * static_cast<int64_t>(live.size()),
                       [&](size_t begin, size_t end) {
    for (size_t p : live) {
      int64_t* column = &r.plugin_scores[p * n];
      for (size_t i = begin; i < end; ++i) {
        if (!score_reused_[i]) continue;
        const NodeInfo& ni = *r.scored_nodes[i];
        if (score_plugins_[p].first->Score(cs, pod, ni, &column[i]).IsSuccess()) continue;
        size_t seen = score_failed[p].load(std::memory_order_relaxed);
        while (i < seen && !score_failed[p].compare_exchange_weak(seen, i)) {
        }
      }
    }
    return true;
  });
}

const NodeInfo* Scheduler::SelectHost(const ScheduleResult& r) {
  if (r.scored_nodes.empty()) return nullptr;
  return r.scored_nodes[SelectTopScore(r.total_scores, rng_)];
}

ScheduleResult Scheduler::Schedule(const Pod& pod, const ClusterState& state,
                                  const PodNominator* nominator, ScoreDetail detail) {
  ScheduleResult r;
  const auto& all_nodes = state.NodeList();
  r.num_all_nodes = static_cast<int64_t>(all_nodes.size());
  if (all_nodes.empty()) {
    r.error = true;
    r.message = std::string(kNoNodesAvailableMsg);
    return r;
  }

  ClearCacheOfOldEpoch(state);
  draws_.clear();
  Framework fw(profile_, state, nominator, rng_, &draws_);
  // Who may have nominated pods; null when nobody has (asked once, not per
  // node). Their nominations by node index, for every lookup this cycle.
  const PodNominator* nominations =
      nominator != nullptr && nominator->HasNominatedPods() ? nominator : nullptr;
  if (nominations != nullptr) {
    nominated_by_node_.Build(state, *nominations);
    fw.set_nominated_pods_by_node(&nominated_by_node_);
    pod_key_ = NominatedKey::Of(pod);
  } else {
    nominated_by_node_.Release();
  }
  r.cycle_state = spare_cycle_state_ != nullptr ? std::move(spare_cycle_state_)
                                                : std::make_shared<CycleState>(profile_.num_slots());
  CycleState& cs = *r.cycle_state;
  PreFilterResult restriction;
  if (!RunPreFilters(cs, pod, state, r, &restriction)) {
    if (!r.error) {
      RunPostFilters(fw, cs, pod, r);
      r.message = FitErrorMessage(r);
    }
    return r;
  }

  // evaluateNominatedNode: where preemption made room, the pod likely fits
  // and nowhere else; if it does, no other node is filtered. Like upstream,
  // this ignores the PreFilter node restriction.
  const NodeInfo* nominated_failed = nullptr;
  if (!pod.nominated_node_name.empty()) {
    if (const NodeInfo* ni = state.FindNode(pod.nominated_node_name)) {
      Status s = fw.RunFilterPluginsWithNominatedPods(cs, pod, *ni);
      if (s.IsSuccess()) {
        r.node = ni->node()->name;
        r.evaluated_nodes = r.feasible_nodes = 1;
        return r;
      }
      r.failures.push_back({ni, std::move(s)});
      nominated_failed = ni;
    }
  }

  std::vector<const NodeInfo*> subset;
  if (!restriction.all_nodes) {
    for (const auto& name : restriction.node_names) {
      if (const NodeInfo* ni = state.FindNode(name)) subset.push_back(ni);
    }
  }
  const auto& nodes = restriction.all_nodes ? all_nodes : subset;

  // The equivalence cache serves only walks over all nodes (its failure
  // memo is a whole walk's). Its slots are by NodeInfo::index(), so a node
  // keeps its cached results while others come, go or move in the list.
  EcacheEntry* cls = nullptr;
  ecache_hit_ = false;
  if (restriction.all_nodes) {
    cls = CacheEntryForFilter(pod, cs, state.NodeIndexBound(), &ecache_hit_);
  } else if (ecache_) {
    ++ecache_->stats().bypasses;
  }
  if (cls != nullptr) {
    r.cache_storage = cls->storage();
    cs.set_class_memos(cls->memos());
  }
  // The first pass runs every Filter, the live ones too, so its verdicts
  // are cached only when the rows' key covers every Filter.
  nominated_pass_cached_ = cls != nullptr && live_filters_.empty() && !AddPodExtensionsRun(cs);
  if (nominated_pass_cached_) fw.set_class_filter_key(cls->filter_key());
  const bool memo = MemoApplies(cls, pod, nominations);
  if (memo && ReplayFailureMemo(fw, *cls, pod, state, r)) return r;

  int64_t to_find = NumFeasibleNodesToFind(static_cast<int64_t>(nodes.size()));
  // Without Score plugins upstream stops at the first feasible node.
  if (profile_.score().empty()) to_find = std::min<int64_t>(to_find, 1);
  feasible_.clear();
  FilterNodes(fw, cs, pod, nominations, cls, nodes, all_nodes.size(), nominated_failed, to_find,
              &feasible_, r);
  if (r.error) return r;

  if (feasible_.empty()) {
    const bool rejected = RunPostFilters(fw, cs, pod, r);
    r.message = FitErrorMessage(r);
    if (memo && rejected) MemoizeFailure(*cls, pod, state, r);
    return r;
  }
  if (feasible_.size() == 1) {
    r.node = feasible_[0]->node()->name;
    return r;
  }
  r.total_scores = std::move(spare_totals_);
  Prioritize(cs, pod, state, std::exchange(feasible_, std::move(spare_nodes_)), cls, detail, r);
  if (r.error) return r;
  r.node = SelectHost(r)->node()->name;
  return r;
}

void Scheduler::Recycle(ScheduleResult&& r) noexcept {
  // Only larger storage replaces the spare: a cycle that scored nothing
  // brings none.
  if (r.scored_nodes.capacity() > spare_nodes_.capacity()) {
    spare_nodes_ = std::move(r.scored_nodes);
    spare_nodes_.clear();
  }
  if (r.total_scores.capacity() > spare_totals_.capacity()) {
    spare_totals_ = std::move(r.total_scores);
    spare_totals_.clear();
  }
  if (r.cycle_state != nullptr && r.cycle_state.use_count() == 1) {
    r.cycle_state->Clear();
    spare_cycle_state_ = std::move(r.cycle_state);
  }
}

std::string FitErrorMessage(const ScheduleResult& r) {
  std::string msg = "0/" + std::to_string(r.num_all_nodes) + " nodes are available:";
  if (!r.pre_filter_msg.empty()) {
    msg += " " + r.pre_filter_msg + ".";
  } else {
    msg += ReasonsHistogram(r.num_all_nodes, r.failures.AnyOrder(),
                            r.absent_status ? &*r.absent_status : nullptr);
  }
  if (!r.post_filter_msg.empty()) msg += " " + r.post_filter_msg;
  return msg;
}

}  // namespace sched
