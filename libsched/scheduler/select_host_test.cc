// SelectTopScore against the plain reservoir loop it replaces: a draw by
// std::uniform_int_distribution for every node tied at the running best.
// It must choose the same node and leave the source where that loop leaves
// it (the next cycle's draws), from any position in the source's made
// outputs and across refills.
#include "libsched/scheduler/select_host.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace sched {
namespace select_host_test {
namespace {

size_t PlainLoop(const std::vector<int64_t>& totals, std::mt19937_64& g) {
  size_t selected = 0;
  int64_t best = totals[0];
  uint64_t ties = 1;
  for (size_t i = 1; i < totals.size(); ++i) {
    if (totals[i] > best) {
      selected = i;
      best = totals[i];
      ties = 1;
    } else if (totals[i] == best &&
               std::uniform_int_distribution<uint64_t>(0, ties++)(g) == 0) {
      selected = i;
    }
  }
  return selected;
}

template <class G>
std::string Text(const G& g) {
  std::ostringstream os;
  os << g;
  return os.str();
}

TEST(SelectTopScoreTest, ChoosesAndDrawsAsThePlainLoop) {
  struct Case {
    const char* name;
    size_t nodes;
    int64_t values;  // totals drawn from [0, values); 0: rising by steps
  };
  const Case cases[] = {
      {"one node", 1, 1},
      {"two tied", 2, 1},
      {"all tied, past several refills", 1500, 1},
      {"few values", 2000, 3},
      {"many values", 2000, 1000},
      {"bests rising through ties", 900, 0},
  };
  std::mt19937 totals_source(7);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    for (const uint64_t seed : {uint64_t{1}, uint64_t{2026}}) {
      Mt19937_64 got(seed);
      std::mt19937_64 want(seed);
      for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE(round);
        // Start anywhere in the made outputs.
        const int skip = std::uniform_int_distribution<int>(0, 311)(totals_source);
        for (int k = 0; k < skip; ++k) ASSERT_EQ(got(), want());
        std::vector<int64_t> totals(c.nodes);
        for (size_t i = 0; i < c.nodes; ++i) {
          totals[i] = c.values > 0
                          ? std::uniform_int_distribution<int64_t>(0, c.values - 1)(totals_source)
                          : static_cast<int64_t>(i / 50);  // 50 ties at each new best
        }
        ASSERT_EQ(SelectTopScore(totals, got), PlainLoop(totals, want));
        ASSERT_EQ(Text(got), Text(want));
      }
    }
  }
}

// The loop's own draw: UniformBelow's answer when one output decides it,
// and no answer when Lemire's rule may reject the output (large n rejects
// often; an output of 0 always may).
TEST(SelectTopScoreTest, DrawFromOneOutputAgreesWithUniformBelow) {
  constexpr uint64_t k63 = uint64_t{1} << 63;
  uint64_t out = 0;
  EXPECT_FALSE(UniformBelowFromOne(0, 5, &out));
  for (const uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{500}, k63 + 1, 3 * (k63 / 2)}) {
    SCOPED_TRACE(n);
    Mt19937_64 g(99);
    int undecided = 0;
    for (int i = 0; i < 5000; ++i) {
      Mt19937_64 copy = g;
      const uint64_t u = g();
      if (UniformBelowFromOne(u, n, &out)) {
        ASSERT_EQ(out, UniformBelow(copy, n));
      } else {
        ++undecided;
      }
    }
    EXPECT_EQ(undecided > 0, n > k63) << undecided;
  }
}

}  // namespace
}  // namespace select_host_test
}  // namespace sched
