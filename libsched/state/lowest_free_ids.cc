#include "libsched/state/lowest_free_ids.h"

#include <iterator>

namespace sched {

uint32_t LowestFreeIds::Take(UndoLog* log) {
  if (!free_.empty()) {
    const uint32_t id = *free_.begin();
    undo::Erase(log, free_, free_.begin());
    return id;
  }
  undo::Save(log, bound_);
  return bound_++;
}

void LowestFreeIds::Free(uint32_t id, UndoLog* log) {
  if (id + 1 < bound_) {
    undo::Insert(log, free_, id);
    return;
  }
  // Every id under the bound not in use is in free_, so the ones right
  // under it are free_'s highest.
  uint32_t bound = id;
  while (!free_.empty() && *free_.rbegin() + 1 == bound) {
    undo::Erase(log, free_, std::prev(free_.end()));
    --bound;
  }
  undo::Save(log, bound_);
  bound_ = bound;
}

}  // namespace sched
