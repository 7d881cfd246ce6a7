#include "libsched/plugins/helper/normalize_score.h"

#include <algorithm>

namespace sched {
namespace {

// Go's int64 arithmetic wraps; do the same without signed-overflow UB so
// that even absurd scores normalize exactly as upstream's.
int64_t WrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

}  // namespace

Status DefaultNormalizeScore(int64_t max_priority, bool reverse, std::span<int64_t> scores) {
  int64_t max_count = 0;
  for (int64_t s : scores) max_count = std::max(max_count, s);

  if (max_count == 0) {
    if (reverse) std::fill(scores.begin(), scores.end(), max_priority);
    return Status();
  }
  for (int64_t& s : scores) {
    s = WrapMul(max_priority, s) / max_count;
    if (reverse) s = WrapSub(max_priority, s);
  }
  return Status();
}

}  // namespace sched
