#include "libsched/plugins/internal/topology_counts.h"

namespace sched::interpodaffinity {
namespace {

// Fibonacci hashing: pairs differ in their low (value) bits.
size_t Hash(uint64_t pair) { return static_cast<size_t>((pair * 0x9E3779B97F4A7C15ULL) >> 20); }

}  // namespace

size_t TopologyCounts::Find(uint64_t pair) const {
  const size_t mask = slots_.size() - 1;
  size_t i = Hash(pair) & mask;
  while (slots_[i].used && slots_[i].pair != pair) i = (i + 1) & mask;
  return i;
}

void TopologyCounts::Grow() {
  std::vector<Slot> old(slots_.empty() ? 16 : slots_.size() * 2);
  old.swap(slots_);
  for (const Slot& s : old) {
    if (s.used) slots_[Find(s.pair)] = s;
  }
}

void TopologyCounts::Add(uint64_t pair, int64_t delta) {
  if (2 * (used_ + 1) > slots_.size()) Grow();
  Slot& s = slots_[Find(pair)];
  if (!s.used) {
    s.used = true;
    s.pair = pair;
    ++used_;
  }
  const bool was_zero = s.count == 0;
  s.count += delta;
  if (was_zero && s.count != 0) ++nonzero_;
  if (!was_zero && s.count == 0) --nonzero_;
}

int64_t TopologyCounts::Get(uint64_t pair) const {
  if (slots_.empty()) return 0;
  const Slot& s = slots_[Find(pair)];
  return s.used ? s.count : 0;
}

bool TopologyCounts::operator==(const TopologyCounts& o) const {
  if (nonzero_ != o.nonzero_) return false;
  bool same = true;
  ForEach([&](uint64_t pair, int64_t count) { same = same && o.Get(pair) == count; });
  return same;
}

}  // namespace sched::interpodaffinity
