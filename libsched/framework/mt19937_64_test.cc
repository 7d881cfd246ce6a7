#include "libsched/framework/mt19937_64.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace sched {
namespace mt19937_64_test {
namespace {

template <typename Engine>
std::string Text(const Engine& g) {
  std::ostringstream os;
  os << g;
  return os.str();
}

// The standard engine, counting the outputs a distribution takes.
struct CountingStd {
  using result_type = uint64_t;
  static constexpr result_type min() { return std::mt19937_64::min(); }
  static constexpr result_type max() { return std::mt19937_64::max(); }
  result_type operator()() {
    ++taken;
    return g();
  }
  std::mt19937_64 g;
  uint64_t taken = 0;
};

// Output for output std::mt19937_64, for 1.2M outputs a seed (3,846
// refills), and so are copies taken along the way (at a fresh seed, before,
// at and after a refill): equal to the original, with its text form, and
// drawing the same stream after the copy.
TEST(Mt19937_64Test, EqualsStdOutputForOutput) {
  const uint64_t seeds[] = {0, 1, 42, std::mt19937_64::default_seed, 0x0123456789abcdefULL,
                            std::numeric_limits<uint64_t>::max()};
  const std::vector<uint64_t> copy_at = {0, 1, 311, 312, 313, 624, 100'003};
  constexpr uint64_t kOutputs = 1'200'000;
  for (const uint64_t seed : seeds) {
    SCOPED_TRACE(seed);
    std::mt19937_64 want(seed);
    Mt19937_64 got(seed);
    size_t next_copy = 0;
    for (uint64_t i = 0; i < kOutputs; ++i) {
      if (next_copy < copy_at.size() && i == copy_at[next_copy]) {
        ++next_copy;
        SCOPED_TRACE(i);
        ASSERT_EQ(Text(got), Text(want));
        std::mt19937_64 want_copy = want;
        Mt19937_64 copy = got;
        ASSERT_TRUE(copy == got);
        for (int j = 0; j < 1000; ++j) ASSERT_EQ(copy(), want_copy()) << j;
        ASSERT_FALSE(copy == got);
        ASSERT_EQ(Text(copy), Text(want_copy));
      }
      ASSERT_EQ(got(), want()) << i;
    }
    EXPECT_EQ(Text(got), Text(want));
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// One instruction set's refill loops, whichever Refill picks on this CPU:
// 1,000 refills from std::mt19937_64's state give its next 312,000 outputs.
void ExpectKernelEqualsStd(void (*refill)(uint64_t*, uint64_t*)) {
  for (const uint64_t seed : {uint64_t{0}, uint64_t{42}, std::numeric_limits<uint64_t>::max()}) {
    SCOPED_TRACE(seed);
    std::mt19937_64 want(seed);
    // The standard engine's text form: its 312 state words, then its
    // position (312 at a fresh seed: twist first).
    std::istringstream state(Text(want));
    uint64_t x[Mt19937_64::kStateSize];
    for (uint64_t& word : x) state >> word;
    uint64_t out[Mt19937_64::kStateSize];
    for (int i = 0; i < 1000; ++i) {
      refill(x, out);
      for (size_t k = 0; k < Mt19937_64::kStateSize; ++k) ASSERT_EQ(out[k], want()) << i << " " << k;
    }
  }
}

TEST(Mt19937_64Test, BaselineKernelEqualsStd) { ExpectKernelEqualsStd(mt19937_64_kernels::Baseline); }

TEST(Mt19937_64Test, Avx2KernelEqualsStd) {
  if (!mt19937_64_kernels::Avx2Supported()) GTEST_SKIP() << "this CPU has no AVX2";
  ExpectKernelEqualsStd(mt19937_64_kernels::Avx2);
}
#endif

TEST(Mt19937_64Test, DefaultSeedAndEquality) {
  EXPECT_EQ(Text(Mt19937_64()), Text(std::mt19937_64()));
  Mt19937_64 a(7), b(7);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == Mt19937_64(8));
  a();
  EXPECT_FALSE(a == b);  // same words, another position
  b();
  EXPECT_TRUE(a == b);
  for (size_t i = 0; i < Mt19937_64::kStateSize; ++i) a();  // past a refill
  EXPECT_FALSE(a == b);
}

// A source restored from a mark draws what it drew after the mark, and
// equals a copy taken then: marks at a fresh seed, before, at and after a
// refill, restored after draws within the same refill and past others.
TEST(Mt19937_64Test, RestoreFromAMarkDrawsTheSameAgain) {
  struct Case {
    int before;  // outputs drawn before the mark
    int after;   // outputs drawn between the mark and the restore
  };
  const Case cases[] = {{0, 0},     {0, 5},   {0, 700}, {1, 10},  {311, 1},
                        {312, 0},   {312, 1}, {313, 2}, {100, 900}, {650, 312}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.before) + " then " + std::to_string(c.after));
    Mt19937_64 g(2026);
    for (int i = 0; i < c.before; ++i) g();
    const Mt19937_64 copy = g;
    Mt19937_64::Mark mark;
    g.Save(&mark);
    std::vector<uint64_t> drawn;
    for (int i = 0; i < c.after + 400; ++i) drawn.push_back(g());
    g = Mt19937_64(7);  // another state in between: the mark alone restores
    for (int i = 0; i < c.after; ++i) g();
    g.Restore(mark);
    EXPECT_TRUE(g == copy);
    EXPECT_EQ(Text(g), Text(copy));
    for (size_t i = 0; i < drawn.size(); ++i) ASSERT_EQ(g(), drawn[i]) << i;
  }
}

// UniformBelow(g, n) is std::uniform_int_distribution<uint64_t>(0, n - 1)
// (and <int64_t> for the n an int64 holds, Framework::RandomInt) over
// std::mt19937_64: the same values from the same outputs, rejections
// redrawn alike (the engines' states agree after every draw).
TEST(Mt19937_64Test, UniformBelowEqualsStdDistribution) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  constexpr uint64_t k63 = uint64_t{1} << 63;
  struct Case {
    uint64_t n;
    bool redraws;  // some of the draws reject an output (-n % n is large)
  };
  const Case cases[] = {
      {1, false},          {2, false},
      {3, false},          {500, false},
      {(1ULL << 32) - 1, false},
      {1ULL << 32, false}, {(1ULL << 32) + 1, false},
      {k63 - 1, false},    {k63, false},
      {k63 + 1, true},     {3 * (1ULL << 62), true},
      {kMax - 1, false},   {kMax, false},
  };
  constexpr int kDraws = 20'000;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.n);
    for (const uint64_t seed : {uint64_t{1}, uint64_t{2026}}) {
      Mt19937_64 got(seed);
      CountingStd want{std::mt19937_64(seed)};
      std::uniform_int_distribution<uint64_t> dist(0, c.n - 1);
      for (int i = 0; i < kDraws; ++i) {
        ASSERT_EQ(UniformBelow(got, c.n), dist(want)) << i;
        if (i % 997 == 0) {
          ASSERT_EQ(Text(got), Text(want.g)) << i;
        }
      }
      EXPECT_EQ(Text(got), Text(want.g));
      EXPECT_EQ(want.taken > kDraws, c.redraws) << want.taken;
      if (c.n - 1 > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) continue;
      Mt19937_64 got_signed(seed);
      std::mt19937_64 want_signed(seed);
      std::uniform_int_distribution<int64_t> signed_dist(0, static_cast<int64_t>(c.n - 1));
      for (int i = 0; i < kDraws; ++i) {
        ASSERT_EQ(static_cast<int64_t>(UniformBelow(got_signed, c.n)), signed_dist(want_signed))
            << i;
      }
      EXPECT_EQ(Text(got_signed), Text(want_signed));
    }
  }
}

}  // namespace
}  // namespace mt19937_64_test
}  // namespace sched
