// UndoLog: how a commit that runs out of memory half-way puts everything
// back, so a failed call changes nothing (issue 13, item 3).
//
// Every change to a structure that records into the log is a step that
// either completes or has no effect (the standard containers' single
// insert, emplace and push_back give that guarantee), followed by an undo
// record written without allocating: the room for it is reserved before
// the change (Reserve), the record itself holds only pointers, sizes, saved
// values and what the change took out. Undo never allocates either:
//  - an insertion is undone by erasing the new entry;
//  - an erase takes the entry out (node-based containers: extract(), the
//    node handle kept in the record; vectors: the element moved into the
//    record, the capacity kept), and undo puts it back where it was;
//  - an overwrite saves the old value first (Save; the copy is made
//    before the change, so a copy that fails changes nothing).
// Rollback() runs the records newest first, so each finds its structure
// exactly as the change left it (except capacities and bucket counts,
// which only grew, or shrank by a record that puts the old room back:
// nothing undone needs more room than it had). Records
// name vector elements by index, never by address, as a later push_back
// may move them; map entries by address, which survives extract/insert.
//
// The alternative designs cost more where it matters: reserving everything
// a batch will need up front means simulating the batch against the state,
// and copying a structure before changing it is O(structure) per call,
// where the log costs O(changes) and one reused vector.
//
// Outside Begin()..Commit()/Rollback() nothing is recorded: the helpers
// just change the structure (a null log does the same). Units nest (an
// engine transaction holds one open across calls, each call opens its
// own inside it): Commit() of a nested unit hands its records to the one
// around it, which may still roll them back; Rollback() undoes only the
// innermost.
//
// Thread-safety: none; owned by the structure it protects, which is
// mutated under the engine's lock.
#ifndef LIBSCHED_STATE_UNDO_LOG_H_
#define LIBSCHED_STATE_UNDO_LOG_H_

#include <cstddef>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace sched {

class UndoLog {
 public:
  UndoLog() = default;
  UndoLog(const UndoLog&) = delete;
  UndoLog& operator=(const UndoLog&) = delete;

  bool recording() const { return !marks_.empty(); }
  // Starts recording, or a unit nested in the open one. May throw
  // (bad_alloc) before anything changes.
  void Begin() { marks_.push_back(steps_.size()); }
  // Keeps the changes since the matching Begin(): the outermost unit drops
  // the records (and what they kept alive), a nested one leaves them to the
  // unit around it.
  void Commit() noexcept {
    if (marks_.empty()) return;
    marks_.pop_back();
    if (marks_.empty()) {
      steps_.clear();
      TrimRoom();
    }
  }
  // Undoes every change since the matching Begin(), newest first; cannot
  // fail.
  void Rollback() noexcept {
    if (marks_.empty()) return;
    const size_t mark = marks_.back();
    while (steps_.size() > mark) {
      steps_.back().Run();
      steps_.pop_back();
    }
    marks_.pop_back();
    if (marks_.empty()) TrimRoom();
  }

  // The room kept for records when no unit is open, in Steps (80 bytes
  // each on x86-64): 5 MiB, more than a warm engine call records (a Run of a
  // thousand pods, or a pod's churn), so those allocate nothing; a unit far
  // beyond it (one List of 50,000 nodes records over a million Steps) gives
  // its room back instead of keeping it resident for the engine's life.
  static constexpr size_t kKeptRoom = size_t{1} << 16;
  size_t room() const { return steps_.capacity(); }

  // Room for one more record. Call before the change it records, so that
  // Record() cannot fail. Grows geometrically; the room is kept across
  // calls (up to kKeptRoom), so a warm log allocates nothing.
  void Reserve() {
    if (recording() && steps_.size() == steps_.capacity()) {
      steps_.reserve(steps_.empty() ? 64 : 2 * steps_.capacity());
    }
  }
  // Records `undo` (a callable that must not throw, moved without
  // throwing). REQUIRES: Reserve() since the last Record().
  template <class F>
  void Record(F&& undo) noexcept {
    if (recording()) steps_.emplace_back(std::forward<F>(undo));
  }

 private:
  // A callable stored inline (no allocation), with hand-made type erasure:
  // std::function may allocate for captures over two pointers.
  class Step {
   public:
    static constexpr size_t kSize = 64;
    template <class F, class D = std::decay_t<F>>
    explicit Step(F&& f) noexcept {
      static_assert(sizeof(D) <= kSize && alignof(D) <= alignof(std::max_align_t));
      static_assert(std::is_nothrow_move_constructible_v<D> && std::is_nothrow_invocable_v<D&>);
      new (buf_) D(std::forward<F>(f));
      ops_ = &Ops<D>;
    }
    Step(Step&& o) noexcept : ops_(o.ops_) {
      ops_(kMove, o.buf_, buf_);
      o.ops_ = nullptr;
    }
    Step& operator=(Step&&) = delete;
    ~Step() {
      if (ops_ != nullptr) ops_(kDestroy, buf_, nullptr);
    }
    void Run() noexcept { ops_(kRun, buf_, nullptr); }

   private:
    enum Op { kRun, kMove, kDestroy };
    template <class D>
    static void Ops(Op op, void* self, void* to) noexcept {
      D* f = static_cast<D*>(self);
      if (op == kRun) {
        (*f)();
      } else if (op == kMove) {
        new (to) D(std::move(*f));
        f->~D();
      } else {
        f->~D();
      }
    }
    alignas(std::max_align_t) unsigned char buf_[kSize];
    void (*ops_)(Op, void*, void*) noexcept;
  };

  // Frees the records' room if over kKeptRoom; REQUIRES: no record held.
  // Frees only, so cannot fail.
  void TrimRoom() noexcept {
    if (steps_.capacity() > kKeptRoom) std::vector<Step>().swap(steps_);
  }

  std::vector<Step> steps_;
  std::vector<size_t> marks_;  // where each open unit's records begin
};

// The changes, recorded. `log` may be null (nothing recorded).
namespace undo {

// Saves `slot` (not inside a vector: see SaveAt) before the caller changes it.
template <class T>
void Save(UndoLog* log, T& slot) {
  if (log == nullptr || !log->recording()) return;
  log->Reserve();
  if constexpr (sizeof(T) + sizeof(void*) <= 64 && std::is_nothrow_move_assignable_v<T> &&
                std::is_nothrow_move_constructible_v<T>) {
    log->Record([&slot, old = T(slot)]() mutable noexcept { slot = std::move(old); });
  } else {  // large: boxed
    static_assert(std::is_nothrow_move_assignable_v<T>);
    log->Record([&slot, old = std::make_unique<T>(slot)]() noexcept { slot = std::move(*old); });
  }
}

// Replaces `slot` by `fresh` (a container built smaller, say). The record
// keeps the old value and moves it back: a rollback allocates nothing.
template <class T>
void Replace(UndoLog* log, T& slot, T fresh) {
  if (log != nullptr) log->Reserve();
  std::swap(slot, fresh);
  if (log != nullptr) {
    log->Record([&slot, old = std::move(fresh)]() mutable noexcept { slot = std::move(old); });
  }
}

// Saves *p before the caller changes it, keeping the object alive until
// the record runs: a newer record may drop its last other owner (an undone
// insertion into the map that owns it), and undo writes into it after.
template <class T>
void SaveShared(UndoLog* log, const std::shared_ptr<T>& p) {
  if (log == nullptr || !log->recording()) return;
  log->Reserve();
  static_assert(std::is_nothrow_move_assignable_v<T>);
  log->Record([p, old = std::make_unique<T>(*p)]() noexcept { *p = std::move(*old); });
}

// Saves the member `Field` of *p before the caller changes it, keeping *p
// alive as SaveShared does: one field, where SaveShared copies the object
// (its strings, sets and vectors) to undo a counter.
template <auto Field, class T>
void SaveMember(UndoLog* log, const std::shared_ptr<T>& p) {
  if (log == nullptr || !log->recording()) return;
  log->Reserve();
  using F = std::remove_reference_t<decltype((*p).*Field)>;
  static_assert(std::is_nothrow_move_assignable_v<F>);
  log->Record([p, old = F((*p).*Field)]() mutable noexcept { (*p).*Field = std::move(old); });
}

// Saves v[i] before the caller changes it.
template <class T>
void SaveAt(UndoLog* log, std::vector<T>& v, size_t i) {
  if (log == nullptr || !log->recording()) return;
  static_assert(std::is_nothrow_copy_constructible_v<T>);
  log->Reserve();
  log->Record([&v, i, old = v[i]]() noexcept { v[i] = old; });
}

template <class T, class U>
void PushBack(UndoLog* log, std::vector<T>& v, U&& x) {
  if (log != nullptr) log->Reserve();
  v.push_back(std::forward<U>(x));
  if (log != nullptr) log->Record([&v]() noexcept { v.pop_back(); });
}

// REQUIRES: !v.empty().
template <class T>
void PopBack(UndoLog* log, std::vector<T>& v) {
  if (log == nullptr || !log->recording()) {
    v.pop_back();
    return;
  }
  log->Reserve();
  T x = std::move(v.back());
  v.pop_back();
  // Within the capacity the element left: no allocation.
  log->Record([&v, x = std::move(x)]() mutable noexcept { v.push_back(std::move(x)); });
}

// Grows v to n elements of `x`. REQUIRES: n >= v.size().
template <class T>
void Grow(UndoLog* log, std::vector<T>& v, size_t n, const T& x) {
  const size_t old = v.size();
  if (log != nullptr) log->Reserve();
  v.resize(n, x);
  if (log != nullptr) log->Record([&v, old]() noexcept { v.resize(old); });
}

// Erases v[i], shifting the rest down.
template <class T>
void EraseAt(UndoLog* log, std::vector<T>& v, size_t i) {
  if (log == nullptr || !log->recording()) {
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
    return;
  }
  static_assert(std::is_nothrow_move_constructible_v<T> && std::is_nothrow_move_assignable_v<T>);
  log->Reserve();
  T x = std::move(v[i]);
  v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
  // Within the capacity the element left: no allocation.
  log->Record([&v, i, x = std::move(x)]() mutable noexcept {
    v.insert(v.begin() + static_cast<std::ptrdiff_t>(i), std::move(x));
  });
}

// s.insert(x) into a set; a new element is erased by Rollback (found by
// value: an ordered set's comparator sees what it saw at the insert).
template <class S, class V>
bool Insert(UndoLog* log, S& s, const V& x) {
  if (log != nullptr) log->Reserve();
  const bool inserted = s.insert(x).second;
  if (inserted && log != nullptr) log->Record([&s, x]() noexcept { s.erase(s.find(x)); });
  return inserted;
}

// l.push_back(x) onto a std::list.
template <class L, class U>
void ListPushBack(UndoLog* log, L& l, U&& x) {
  if (log != nullptr) log->Reserve();
  l.push_back(std::forward<U>(x));
  if (log != nullptr) log->Record([&l]() noexcept { l.pop_back(); });
}

// l.erase(it) for a std::list: the element is spliced into the record (no
// allocation either way) and spliced back before its successor.
template <class L>
void ListErase(UndoLog* log, L& l, typename L::iterator it) {
  if (log == nullptr || !log->recording()) {
    l.erase(it);
    return;
  }
  log->Reserve();
  L kept;
  const auto next = std::next(it);
  kept.splice(kept.begin(), l, it);
  log->Record([&l, next, kept = std::move(kept)]() mutable noexcept {
    l.splice(next, kept, kept.begin());
  });
}

// m.try_emplace(key, args...); a new entry is erased by Rollback.
template <class M, class K, class... A>
std::pair<typename M::iterator, bool> TryEmplace(UndoLog* log, M& m, K&& key, A&&... args) {
  if (log != nullptr) log->Reserve();
  auto r = m.try_emplace(std::forward<K>(key), std::forward<A>(args)...);
  if (r.second && log != nullptr) {
    log->Record([&m, k = &r.first->first]() noexcept { m.erase(m.find(*k)); });
  }
  return r;
}

// m.erase(it), the entry kept (extracted) until the log commits.
template <class M>
void Erase(UndoLog* log, M& m, typename M::iterator it) {
  if (log == nullptr || !log->recording()) {
    m.erase(it);
    return;
  }
  log->Reserve();
  // Put back where it was: an unordered container had room for it then
  // and its buckets shrink only undoably (room_after_erase.h), so insert
  // does not rehash.
  log->Record([&m, node = m.extract(it)]() mutable noexcept { m.insert(std::move(node)); });
}

// m[key] = v for a value type whose assignment cannot throw.
template <class M, class K, class V>
void InsertOrAssign(UndoLog* log, M& m, K&& key, V&& v) {
  if (auto it = m.find(key); it != m.end()) {
    Save(log, it->second);
    it->second = std::forward<V>(v);
    return;
  }
  TryEmplace(log, m, std::forward<K>(key), std::forward<V>(v));
}

// m[key] += delta, the entry erased when it falls to 0 or below.
template <class M, class K>
void AddCount(UndoLog* log, M& m, const K& key, typename M::mapped_type delta) {
  auto it = m.find(key);
  if (it == m.end()) it = TryEmplace(log, m, key, 0).first;
  Save(log, it->second);
  if ((it->second += delta) <= 0) Erase(log, m, it);
}

}  // namespace undo
}  // namespace sched

#endif  // LIBSCHED_STATE_UNDO_LOG_H_
