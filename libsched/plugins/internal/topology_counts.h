// TopologyCounts: an int64 count per topology pair (TopologyPair), in one
// flat open-addressing table: what InterPodAffinity builds in every cycle
// (topologyToMatchedTermCount, scoreMap), up to one pair per node. A
// std::unordered_map paid one allocation per pair; this pays a few per
// table.
//
// Thread-safety: const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_INTERNAL_TOPOLOGY_COUNTS_H_
#define LIBSCHED_PLUGINS_INTERNAL_TOPOLOGY_COUNTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sched::interpodaffinity {

class TopologyCounts {
 public:
  // Adds `delta` to the count of `pair`.
  void Add(uint64_t pair, int64_t delta);
  // The count of `pair`; 0 when absent.
  int64_t Get(uint64_t pair) const;
  // No pair has a non-zero count (len(map) == 0 upstream, where a count
  // back at zero is deleted).
  bool empty() const { return nonzero_ == 0; }
  // Calls fn(pair, count) for every non-zero count, in no stated order.
  template <class Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.used && s.count != 0) fn(s.pair, s.count);
    }
  }
  // The same non-zero counts.
  bool operator==(const TopologyCounts& o) const;

 private:
  struct Slot {
    uint64_t pair = 0;
    int64_t count = 0;
    bool used = false;
  };
  size_t Find(uint64_t pair) const;  // the pair's slot, or the free one it would take
  void Grow();

  std::vector<Slot> slots_;  // size 0 or a power of two; at most half used
  size_t used_ = 0;          // pairs ever added, zero or not
  size_t nonzero_ = 0;
};

}  // namespace sched::interpodaffinity

#endif  // LIBSCHED_PLUGINS_INTERNAL_TOPOLOGY_COUNTS_H_
