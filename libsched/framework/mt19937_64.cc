#include "libsched/framework/mt19937_64.h"

#include <algorithm>
#include <ostream>

namespace sched {
namespace {

// std::mt19937_64's parameters.
constexpr size_t kN = Mt19937_64::kStateSize;
constexpr size_t kM = 156;
constexpr uint64_t kUpperMask = ~uint64_t{0} << 31;
constexpr uint64_t kLowerMask = ~kUpperMask;
constexpr uint64_t kXorMask = 0xb5026f5aa96619e9ULL;

// One state word from x[k] (its upper bit), x[k+1] (its lower bits) and
// the word kM away. Branch-free, so the loops below vectorize.
inline uint64_t Twisted(uint64_t xk, uint64_t xk1, uint64_t far) {
  const uint64_t y = (xk & kUpperMask) | (xk1 & kLowerMask);
  return far ^ (y >> 1) ^ (-(y & 1) & kXorMask);
}

inline uint64_t Tempered(uint64_t z) {
  z ^= (z >> 29) & 0x5555555555555555ULL;
  z ^= (z << 17) & 0x71d67fffeda60000ULL;
  z ^= (z << 37) & 0xfff7eee000000000ULL;
  z ^= z >> 43;
  return z;
}

// libstdc++'s _M_gen_rand, then the tempering of all 312 words. Its loops
// are split so that the vectorizer needs no remainder at 2 or 4 lanes:
// words 0..155 read only words not yet rewritten, 156..307 the new words
// 0..151.
[[gnu::always_inline]] inline void TwistAndTemper(uint64_t* __restrict x, uint64_t* __restrict out) {
  for (size_t k = 0; k < kN - kM; ++k) x[k] = Twisted(x[k], x[k + 1], x[k + kM]);
  for (size_t k = kN - kM; k < kN - 4; ++k) x[k] = Twisted(x[k], x[k + 1], x[k + kM - kN]);
  for (size_t k = kN - 4; k < kN - 1; ++k) x[k] = Twisted(x[k], x[k + 1], x[k + kM - kN]);
  x[kN - 1] = Twisted(x[kN - 1], x[0], x[kM - 1]);
  for (size_t k = 0; k < kN; ++k) out[k] = Tempered(x[k]);
}

}  // namespace

#if defined(__x86_64__) && defined(__GNUC__)
namespace mt19937_64_kernels {
// The same loops at 4 lanes with 3-operand instructions: a third of the
// instructions of the baseline (SSE2) build. Chosen at run time, so the
// library still runs on any x86-64.
[[gnu::target("avx2")]] void Avx2(uint64_t* x, uint64_t* out) { TwistAndTemper(x, out); }
void Baseline(uint64_t* x, uint64_t* out) { TwistAndTemper(x, out); }
bool Avx2Supported() { return __builtin_cpu_supports("avx2"); }
}  // namespace mt19937_64_kernels
#endif

Mt19937_64::Mt19937_64(result_type seed) : p_(kN) {
  x_[0] = seed;
  for (size_t i = 1; i < kN; ++i) {
    x_[i] = 6364136223846793005ULL * (x_[i - 1] ^ (x_[i - 1] >> 62)) + i;
  }
}

void Mt19937_64::Refill() {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = mt19937_64_kernels::Avx2Supported();
  avx2 ? mt19937_64_kernels::Avx2(x_, out_) : mt19937_64_kernels::Baseline(x_, out_);
#else
  TwistAndTemper(x_, out_);
#endif
  p_ = 0;
}

void Mt19937_64::Save(Mark* m) const {
  std::copy(x_, x_ + kN, m->x);
  m->p = p_;
}

void Mt19937_64::Restore(const Mark& m) {
  std::copy(m.x, m.x + kN, x_);
  p_ = m.p;
  // The refill that made the words tempered them into out_; the outputs
  // before p_ are never read again.
  for (size_t k = p_; k < kN; ++k) out_[k] = Tempered(x_[k]);
}

bool operator==(const Mt19937_64& a, const Mt19937_64& b) {
  return a.p_ == b.p_ && std::equal(a.x_, a.x_ + Mt19937_64::kStateSize, b.x_);
}

std::ostream& operator<<(std::ostream& os, const Mt19937_64& g) {
  const std::ios_base::fmtflags flags = os.flags();
  const char fill = os.fill();
  os.flags(std::ios_base::dec | std::ios_base::fixed | std::ios_base::left);
  os.fill(' ');
  for (const uint64_t x : g.x_) os << x << ' ';
  os << g.p_;
  os.flags(flags);
  os.fill(fill);
  return os;
}

}  // namespace sched
