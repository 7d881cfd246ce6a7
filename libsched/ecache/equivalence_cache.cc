#include "libsched/ecache/equivalence_cache.h"

#include <algorithm>

#include "libsched/framework/same_views.h"
#include "libsched/state/node_index_room.h"

namespace sched {

void EcacheEntry::BeginFilter(uint64_t filter_key, uint64_t memo_key, size_t num_slots) {
  if (filter_key != filter_key_) {
    filter_key_ = filter_key;
    ++filter_epoch_;
  }
  if (memo_key != memo_key_) {
    memo_key_ = memo_key;
    memo_.reset();
  }
  if (slots_.size() < num_slots) {
    slots_.resize(num_slots);
    raw_.resize(num_slots * num_plugins_);
  } else if (FarAboveNodeIndexBound(slots_.size(), num_slots)) {
    // The rows beyond the bound name no node.
    TrimTo(slots_, num_slots);
    TrimTo(raw_, num_slots * num_plugins_);
    TrimTo(verdicts_, num_slots);
    TrimTo(nominated_, num_slots);
  }
}

void EcacheEntry::StoreVerdict(size_t index, const NodeInfo& node, const Status& st,
                               size_t failed_at) {
  Slot& s = slots_[index];
  s.plain_success = st.IsSuccess() && st.reasons().empty() && st.plugin().empty();
  if (!s.plain_success) {
    if (verdicts_.size() <= index) verdicts_.resize(slots_.size());
    verdicts_[index] = reasons_->Keep(st);
  }
  s.failed_at = static_cast<uint32_t>(failed_at);
  s.filter_node = &node;
  s.filter_generation = node.generation();
  s.filter_epoch = filter_epoch_;
}

const Status* EcacheEntry::NominatedVerdict(size_t index, const NodeInfo& node,
                                           YieldedNominations pods) const {
  if (index >= nominated_.size()) return nullptr;
  const NominatedSlot& s = nominated_[index];
  return s.stamp.Matches(node, filter_epoch_, pods) ? &s.verdict : nullptr;
}

const Status* EcacheEntry::StoreNominatedVerdict(size_t index, const NodeInfo& node,
                                                YieldedNominations pods, const Status& st) {
  if (nominated_.size() <= index) nominated_.resize(slots_.size());
  NominatedSlot& s = nominated_[index];
  s.stamp.Set(node, filter_epoch_, pods);
  s.verdict = reasons_->Keep(st);
  return &s.verdict;
}

const FailureMemo* EcacheEntry::Memo(const FailureMemoKey& key) const {
  if (memo_ == nullptr || memo_->key != key || memo_->memo_key != memo_key_) return nullptr;
  return memo_.get();
}

std::shared_ptr<const std::vector<NodeFailure>> EcacheEntry::StoreMemo(
    const FailureMemoKey& key, size_t start, std::vector<NodeFailure> failures,
    std::string post_filter_msg, std::string message, std::vector<int64_t> draws) {
  if (memo_ == nullptr) memo_ = std::make_unique<FailureMemo>();
  memo_->key = key;
  memo_->memo_key = memo_key_;
  memo_->start = start;
  // Failures come in runs of one verdict (SameViews), kept once a run. A
  // cached walk's verdicts view this entry's kept reasons already: their
  // runs are left as they are, so most failures cost a compare, not a
  // copy of their Status.
  for (size_t i = 0; i < failures.size();) {
    size_t end = i + 1;
    while (end < failures.size() && SameViews(failures[end].status, failures[i].status)) ++end;
    const Status kept = reasons_->Keep(failures[i].status);
    if (!SameViews(kept, failures[i].status)) {
      for (size_t j = i; j < end; ++j) failures[j].status = kept;
    }
    i = end;
  }
  memo_->failures = std::make_shared<const std::vector<NodeFailure>>(std::move(failures));
  memo_->post_filter_msg = std::move(post_filter_msg);
  memo_->message = std::move(message);
  memo_->draws = std::move(draws);
  return memo_->failures;
}

void EcacheEntry::BeginScore(uint64_t score_key, size_t num_plugins) {
  if (score_key != score_key_ || num_plugins != num_plugins_) {
    score_key_ = score_key;
    ++score_epoch_;
  }
  if (num_plugins != num_plugins_) {
    num_plugins_ = num_plugins;
    raw_.assign(slots_.size() * num_plugins_, 0);
  }
}

void EcacheEntry::MarkScored(size_t index, const NodeInfo& node, RowSummary summary) {
  Slot& s = slots_[index];
  s.direct_total = summary.direct_total;
  s.summary_flags = summary.flags;
  s.score_node = &node;
  s.score_generation = node.generation();
  s.score_epoch = score_epoch_;
}

EcacheEntry& EquivalenceCache::Get(uint64_t signature, bool* created) {
  auto it = entries_.find(signature);
  *created = it == entries_.end();
  if (!*created) {
    ++stats_.hits;
  } else {
    ++stats_.misses;
    if (entries_.size() >= max_classes_) {
      entries_.erase(std::min_element(entries_.begin(), entries_.end(), [](const auto& a,
                                                                           const auto& b) {
        return a.second->last_used < b.second->last_used;
      }));
    }
    it = entries_.emplace(signature, std::make_unique<EcacheEntry>()).first;
  }
  it->second->last_used = ++clock_;
  return *it->second;
}

}  // namespace sched
