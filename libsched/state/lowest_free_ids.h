// LowestFreeIds: small dense ids for things that come and go (NodeInfo's
// node index in ClusterState, a topology key's domain ids in
// TopologyDomains), so that arrays indexed by them stay as short as the ids
// in use. The lowest free id is given first, and freeing the highest id in
// use lowers bound() past it and past the free ids right under it: after a
// scale-down the bound is the highest id still in use plus one.
//
// Each change is recorded in `log` when given (undo_log.h), so a rolled
// back Batch restores the ids exactly. Not thread-safe: its owner's lock.
#ifndef LIBSCHED_STATE_LOWEST_FREE_IDS_H_
#define LIBSCHED_STATE_LOWEST_FREE_IDS_H_

#include <cstdint>
#include <set>

#include "libsched/state/undo_log.h"

namespace sched {

class LowestFreeIds {
 public:
  // Takes the lowest free id: one under bound() when some was freed, or
  // else bound(), which then grows by one. O(log n).
  uint32_t Take(UndoLog* log = nullptr);
  // The id Take gives next: a caller builds what holds the id before it
  // takes it, so a throw in between changes nothing.
  uint32_t Next() const { return free_.empty() ? bound_ : *free_.begin(); }
  // `id` is free again. REQUIRES: taken and not freed since. Amortized
  // O(log n): each id the bound falls past was freed once.
  void Free(uint32_t id, UndoLog* log = nullptr);
  // One past the highest id in use: the size an array by id needs.
  uint32_t bound() const { return bound_; }

  bool operator==(const LowestFreeIds&) const = default;

 private:
  std::set<uint32_t> free_;  // the free ids under bound_
  uint32_t bound_ = 0;
};

}  // namespace sched

#endif  // LIBSCHED_STATE_LOWEST_FREE_IDS_H_
