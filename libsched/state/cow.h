// Copy-on-write pieces of ClusterState, so that a fork (ClusterState::Clone)
// costs O(1) up front and a what-if question in either copy pays only for
// what it changes (issue 18).
//
//  - Cow<T>: one value shared by the copies; a copy that writes clones it
//    first when another copy still shares it.
//  - CowMap<K, V, kShards>: a hash map split into kShards shards behind one
//    shared table: a copy shares the table, a write clones the table (if
//    shared) and one shard (if shared), about size/kShards entries. A
//    two-level persistent map: shallower than a HAMT, enough for the
//    cluster sizes the engine serves, and simple enough to prove.
//
// Debian has no persistent-container library (immer and the like are not
// packaged), and the engine's fork needs only these two shapes, so they are
// our own.
//
// A clone inside an UndoLog unit is itself a recorded change: rollback puts
// the shared value back, so the state is restored exactly, sharing
// included. Records of earlier changes name the objects they changed; those
// were not shared when changed (they would have been cloned), and a copy
// made while a unit is open unshares itself (ClusterState::Clone), so
// rollback never writes into an object another copy sees.
//
// Thread-safety: the copies of one value must be mutated under one lock
// (the engine family's); use_count() is read under it, and shared_ptr's
// own counting covers copies destroyed under that lock on other threads.
#ifndef LIBSCHED_STATE_COW_H_
#define LIBSCHED_STATE_COW_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <utility>

#include "libsched/state/undo_log.h"

namespace sched {

// Makes *p this holder's own (cloned when shared, made when null),
// recording the swap.
template <class T>
T& Unshare(std::shared_ptr<T>& p, UndoLog* log) {
  if (p == nullptr || p.use_count() > 1) {
    auto copy = p == nullptr ? std::make_shared<T>() : std::make_shared<T>(*p);
    undo::Save(log, p);
    p = std::move(copy);
  }
  return *p;
}

// A value-initialized T for reads of a piece never written: empty pieces
// cost no allocation (a ClusterState has some twenty).
template <class T>
const T& EmptyValue() {
  static const T empty{};
  return empty;
}

template <class T>
class Cow {
 public:
  const T& operator*() const { return p_ == nullptr ? EmptyValue<T>() : *p_; }
  const T* operator->() const { return &**this; }
  // The value, for writing: cloned first when another copy shares it.
  T& Mutable(UndoLog* log) { return Unshare(p_, log); }
  // Replaces the value by `p` (null: empty), recording the old pointer:
  // O(1) whatever the size. Throws only while recording (the record's
  // room), changing nothing.
  void Set(std::shared_ptr<T> p, UndoLog* log) {
    undo::Save(log, p_);
    p_ = std::move(p);
  }

 private:
  std::shared_ptr<T> p_;  // null: empty
};

template <class K, class V, size_t kShards, class Hash = std::hash<K>>
class CowMap {
  static_assert((kShards & (kShards - 1)) == 0, "kShards: a power of two");

 public:
  // std::equal_to<>: with a transparent Hash (StringHash), lookups take a
  // string_view without building a key.
  using Shard = std::unordered_map<K, V, Hash, std::equal_to<>>;

  // The value under `key` (a K, or what Hash and K compare with), or null.
  template <class Q>
  const V* Find(const Q& key) const {
    if (table_ == nullptr) return nullptr;
    const Shard* s = (*table_)[ShardOf(key)].get();
    if (s == nullptr) return nullptr;
    auto it = s->find(key);
    return it == s->end() ? nullptr : &it->second;
  }
  template <class Q>
  bool Contains(const Q& key) const {
    return Find(key) != nullptr;
  }
  // The shard that holds (or will hold) `key`, this copy's own: the table
  // and the shard are cloned first when shared. Change it with the undo
  // helpers (undo::TryEmplace, undo::Erase, ...).
  template <class Q>
  Shard& MutableShard(const Q& key, UndoLog* log) {
    Table& t = Unshare(table_, log);
    return Unshare(t[ShardOf(key)], log);
  }
  // Calls fn(key, value) for every entry, in no particular order.
  template <class Fn>
  void ForEach(Fn&& fn) const {
    if (table_ == nullptr) return;
    for (const auto& s : *table_) {
      if (s == nullptr) continue;
      for (const auto& [k, v] : *s) fn(k, v);
    }
  }
  // O(kShards).
  size_t size() const {
    size_t n = 0;
    if (table_ == nullptr) return n;
    for (const auto& s : *table_) n += s == nullptr ? 0 : s->size();
    return n;
  }
  // Makes every shard this copy's own, then calls fn(V&) on every value
  // (ClusterState::UnshareAll: a Clone inside a unit).
  template <class Fn>
  void UnshareAll(Fn&& fn) {
    if (table_ == nullptr) return;
    Table& t = Unshare(table_, nullptr);
    for (auto& s : t) {
      if (s == nullptr) continue;
      for (auto& [k, v] : Unshare(s, nullptr)) fn(v);
    }
  }

 private:
  using Table = std::array<std::shared_ptr<Shard>, kShards>;
  template <class Q>
  static size_t ShardOf(const Q& key) {
    // The high bits of a multiplicative mix: the shard's own buckets use
    // the hash's low bits.
    const uint64_t h = static_cast<uint64_t>(Hash()(key)) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h >> 40) & (kShards - 1);
  }

  std::shared_ptr<Table> table_;  // null: empty
};

}  // namespace sched

#endif  // LIBSCHED_STATE_COW_H_
