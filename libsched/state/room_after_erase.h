// How a container that lost most of its entries gives back its room (a
// cluster that scaled down): std::unordered_map keeps its bucket array and
// std::vector its capacity whatever they erase, so the maps and lists of a
// cluster that held 50,000 nodes would keep their room for the engine's
// life.
//
// After an erase, a container holding under a quarter of its room moves
// into room for twice what it holds. It then grows again only after
// doubling (a hash map rehashes at load factor 1, a vector reallocates
// when full) and moves again only after halving, so a churning cluster
// crosses neither every few events, and a move of n entries follows at
// least n/2 erases: O(1) amortized per erase. Room for kFewEntries or less
// stays (at most 256 bytes).
//
// Undoably: the record keeps the old container and its room, and a
// rollback puts it back without allocating, so the records before it find
// the room they rely on (undo::Erase's reinsert, undo::PopBack's
// push_back). A hash map's entries move (nodes relinked, not copied):
// pointers to them stay valid and shared values keep their use counts,
// but the iteration order changes, forward and back: only for maps that
// no decision iterates.
#ifndef LIBSCHED_STATE_ROOM_AFTER_ERASE_H_
#define LIBSCHED_STATE_ROOM_AFTER_ERASE_H_

#include <cstddef>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libsched/state/undo_log.h"

namespace sched {

inline constexpr size_t kFewEntries = 16;

// Whether a container of `room` slots holding `size` entries moves into less.
inline bool FarAboveSize(size_t room, size_t size) {
  return room > kFewEntries && size < room / 4;
}

namespace undo {

// After an erase from `m`: its entries move into buckets for twice as
// many when they fill under a quarter of its buckets. Throws (bad_alloc)
// only before changing anything.
template <class K, class V, class H, class E, class A>
void Shrink(UndoLog* log, std::unordered_map<K, V, H, E, A>& m) {
  if (!FarAboveSize(m.bucket_count(), m.size())) return;
  std::unordered_map<K, V, H, E, A> fresh;
  fresh.reserve(2 * m.size());
  if (log != nullptr) log->Reserve();
  fresh.merge(m);  // relinks the nodes: no allocation, and no rehash (reserved)
  m.swap(fresh);
  if (log != nullptr) {
    // Back into the buckets they left, which held them: no rehash.
    log->Record([&m, old = std::move(fresh)]() mutable noexcept {
      old.merge(m);
      m.swap(old);
    });
  }
}

// After an erase from `v`: its elements are copied into room for twice as
// many when they fill under a quarter of its capacity.
template <class T>
void Shrink(UndoLog* log, std::vector<T>& v) {
  if (!FarAboveSize(v.capacity(), v.size())) return;
  std::vector<T> fresh;
  fresh.reserve(2 * v.size());
  fresh.assign(v.begin(), v.end());
  Replace(log, v, std::move(fresh));
}

}  // namespace undo
}  // namespace sched

#endif  // LIBSCHED_STATE_ROOM_AFTER_ERASE_H_
