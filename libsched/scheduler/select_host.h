// selectHost's choice among the nodes with the top total score
// (pkg/scheduler/schedule_one.go selectHost): reservoir sampling, where
// the k-th node tied at the best so far replaces the choice when its draw
// in [0, k) is 0. Every tie at the running best draws, so a node tied at a
// score that a later node beats has used an output too: the number and
// order of draws are part of the result (the same seed, the same choices).
#ifndef LIBSCHED_SCHEDULER_SELECT_HOST_H_
#define LIBSCHED_SCHEDULER_SELECT_HOST_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include "libsched/framework/mt19937_64.h"

namespace sched {

// The position of the chosen score in `totals` (not empty). The draws read
// the source's made outputs through a local pointer, with no call in the
// loop (a call there spills the loop's values to the stack); a tie whose
// draw needs a refill or a second output is drawn by UniformBelow, and the
// loop goes on after it.
inline size_t SelectTopScore(std::span<const int64_t> totals, Mt19937_64& rng) {
  const size_t n = totals.size();
  size_t selected = 0;
  int64_t best = totals[0];
  uint64_t ties = 1;
  size_t i = 1;
  while (i < n) {
    const std::span<const uint64_t> ahead = rng.Ahead();
    const uint64_t* next = ahead.data();
    const uint64_t* const end = next + ahead.size();
    for (; i < n; ++i) {
      if (totals[i] > best) {
        selected = i;
        best = totals[i];
        ties = 1;
      } else if (totals[i] == best) {
        uint64_t draw;
        if (next == end || !UniformBelowFromOne(*next, ties + 1, &draw)) break;
        ++next;
        ++ties;
        if (draw == 0) selected = i;
      }
    }
    rng.Take(static_cast<size_t>(next - ahead.data()));
    if (i == n) break;
    if (UniformBelow(rng, ++ties) == 0) selected = i;  // the tie the loop left
    ++i;
  }
  return selected;
}

}  // namespace sched

#endif  // LIBSCHED_SCHEDULER_SELECT_HOST_H_
