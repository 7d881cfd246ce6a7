#ifndef LIBSCHED_FRAMEWORK_MT19937_64_H_
#define LIBSCHED_FRAMEWORK_MT19937_64_H_

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <random>
#include <span>

namespace sched {

// The scheduler's random source: std::mt19937_64's exact output sequence
// for every seed, its equality and its text form (operator<<, as
// libstdc++ writes it), produced 312 outputs at a time. The twist and the
// tempering run in loops the compiler vectorizes (SSE2 on baseline
// x86-64), where the standard engine twists in scalar code and tempers
// each output as it is drawn. A value type: copying it copies the whole
// state, so a copy draws what the original would have.
class Mt19937_64 {
 public:
  using result_type = uint64_t;
  static constexpr size_t kStateSize = 312;

  explicit Mt19937_64(result_type seed = std::mt19937_64::default_seed);

  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }
  result_type operator()() {
    if (p_ >= kStateSize) Refill();
    return out_[p_++];
  }
  // The next outputs, in order, as many as are made (at least one): a loop
  // that draws many reads them through a local pointer, with no call and
  // no store of the position per draw, then says how many it used (Take).
  std::span<const result_type> Ahead() {
    if (p_ >= kStateSize) Refill();
    return {out_ + p_, kStateSize - p_};
  }
  // REQUIRES: k <= Ahead().size().
  void Take(size_t k) { p_ += k; }

  // The state words and position: what puts a source back (Restore), at
  // half the size of a copy (the outputs are tempered again from the
  // words). Calls that may have to undo their draws (an allocation failed)
  // mark their sources every time, so the size is a cost per call.
  struct Mark {
    uint64_t x[kStateSize];
    size_t p;
  };
  void Save(Mark* m) const;
  // Makes this source equal to the one Save marked: it draws what that one
  // drew after the mark.
  void Restore(const Mark& m);

  // Equal when they draw the same outputs from here on (the standard's
  // rule: the same state words and position).
  friend bool operator==(const Mt19937_64& a, const Mt19937_64& b);
  // std::mt19937_64's text form for the same state (the state digest).
  friend std::ostream& operator<<(std::ostream& os, const Mt19937_64& g);

 private:
  // Twists x_ to the next 312 state words and tempers them into out_.
  void Refill();

  uint64_t x_[kStateSize];    // the state words, as std::mt19937_64 keeps them
  uint64_t out_[kStateSize];  // x_ tempered: the outputs at positions p_..311
  size_t p_;                  // the next output's position; 312: twist first
};

#if defined(__x86_64__) && defined(__GNUC__)
// The loops of one refill, by instruction set: x holds the 312 state words
// (twisted in place), out gets them tempered. Refill picks one once per
// process (AVX2 where the CPU has it); tests run each on any machine, so
// the baseline (SSE2) build is checked on an AVX2 host too.
namespace mt19937_64_kernels {
void Baseline(uint64_t* x, uint64_t* out);
// REQUIRES: Avx2Supported().
void Avx2(uint64_t* x, uint64_t* out);
bool Avx2Supported();
}  // namespace mt19937_64_kernels
#endif

// UniformBelow(g, n) from its first output `u` alone, in *out; false
// (nothing decided) when Lemire's rule may reject `u`, so that only
// UniformBelow, drawing more, can answer.
inline bool UniformBelowFromOne(uint64_t u, uint64_t n, uint64_t* out) {
#ifdef __SIZEOF_INT128__
  __extension__ using Product = unsigned __int128;
  const Product product = static_cast<Product>(u) * n;
  if (static_cast<uint64_t>(product) < n) return false;
  *out = static_cast<uint64_t>(product >> 64);
  return true;
#else
  (void)u, (void)n, (void)out;
  return false;
#endif
}

// std::uniform_int_distribution<uint64_t>(0, n - 1)(g) as libstdc++
// computes it (Lemire's multiply and its rejection rule, taking the same
// outputs of g), inlined for the tie draws. REQUIRES: n > 0.
inline uint64_t UniformBelow(Mt19937_64& g, uint64_t n) {
#ifdef __SIZEOF_INT128__
  __extension__ using Product = unsigned __int128;  // as libstdc++ spells it under -Wpedantic
  Product product = static_cast<Product>(g()) * n;
  uint64_t low = static_cast<uint64_t>(product);
  if (low < n) {
    const uint64_t threshold = -n % n;
    while (low < threshold) {
      product = static_cast<Product>(g()) * n;
      low = static_cast<uint64_t>(product);
    }
  }
  return static_cast<uint64_t>(product >> 64);
#else
  return std::uniform_int_distribution<uint64_t>(0, n - 1)(g);
#endif
}

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_MT19937_64_H_
