// How an array indexed by NodeInfo::index() and kept across cycles follows
// ClusterState::NodeIndexBound() down: when the bound falls under half its
// size (a cluster that scaled down), it is cut to the bound and gives back
// its room. Not on every small fall: a cut copies what it keeps, and a
// churning cluster moves the bound by a few nodes each way. TrimTo is for
// arrays a cycle rebuilds (caches); undo::CutTo for the state's, which a
// rollback must give back whole.
#ifndef LIBSCHED_STATE_NODE_INDEX_ROOM_H_
#define LIBSCHED_STATE_NODE_INDEX_ROOM_H_

#include <cstddef>
#include <vector>

#include "libsched/state/undo_log.h"

namespace sched {

// Whether an array of `size` entries by node index is to be cut to `bound`.
inline bool FarAboveNodeIndexBound(size_t size, size_t bound) { return bound < size / 2; }

// Cuts `v` to at most `n` elements and gives back its room.
template <class T>
void TrimTo(std::vector<T>& v, size_t n) {
  if (v.size() <= n) return;
  v.resize(n);
  v.shrink_to_fit();
}

namespace undo {

// TrimTo, undoably: the record keeps the old array whole, so a rollback
// allocates nothing. `n` is at most v.size().
template <class T>
void CutTo(UndoLog* log, std::vector<T>& v, size_t n) {
  Replace(log, v, std::vector<T>(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n)));
}

}  // namespace undo

}  // namespace sched

#endif  // LIBSCHED_STATE_NODE_INDEX_ROOM_H_
