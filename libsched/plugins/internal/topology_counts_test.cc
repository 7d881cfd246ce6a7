#include "libsched/plugins/internal/topology_counts.h"

#include <gtest/gtest.h>

#include <map>
#include <unordered_map>

namespace sched::interpodaffinity {
namespace topology_counts_test {
namespace {

std::map<uint64_t, int64_t> Dump(const TopologyCounts& c) {
  std::map<uint64_t, int64_t> out;
  c.ForEach([&](uint64_t pair, int64_t count) { EXPECT_TRUE(out.emplace(pair, count).second); });
  return out;
}

TEST(TopologyCountsTest, AddsGetsAndForgetsZeros) {
  TopologyCounts c;
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.Get(7), 0);
  c.Add(7, 2);
  c.Add((uint64_t{3} << 32) | 7, 1);
  c.Add(7, 3);
  EXPECT_FALSE(c.empty());
  EXPECT_EQ(c.Get(7), 5);
  EXPECT_EQ(Dump(c), (std::map<uint64_t, int64_t>{{7, 5}, {(uint64_t{3} << 32) | 7, 1}}));
  // A count back at zero is gone, as upstream deletes it; negative stays.
  c.Add(7, -5);
  c.Add((uint64_t{3} << 32) | 7, -2);
  EXPECT_EQ(Dump(c), (std::map<uint64_t, int64_t>{{(uint64_t{3} << 32) | 7, -1}}));
  c.Add((uint64_t{3} << 32) | 7, 1);
  EXPECT_TRUE(c.empty());
}

TEST(TopologyCountsTest, MatchesAMapThroughGrowth) {
  TopologyCounts c;
  std::unordered_map<uint64_t, int64_t> want;
  for (uint64_t i = 0; i < 5000; ++i) {
    const uint64_t pair = ((i % 3) << 32) | (i * 7919 % 2003);
    const int64_t delta = static_cast<int64_t>(i % 5) - 1;
    c.Add(pair, delta);
    if ((want[pair] += delta) == 0) want.erase(pair);
  }
  EXPECT_EQ(Dump(c), (std::map<uint64_t, int64_t>(want.begin(), want.end())));
  for (const auto& [pair, count] : want) EXPECT_EQ(c.Get(pair), count);
  EXPECT_EQ(c.Get(uint64_t{9} << 32), 0);
}

TEST(TopologyCountsTest, EqualityIgnoresOrderAndZeros) {
  TopologyCounts a, b;
  a.Add(1, 1);
  a.Add(2, 2);
  b.Add(3, 4);
  b.Add(2, 2);
  b.Add(1, 1);
  EXPECT_FALSE(a == b);
  b.Add(3, -4);
  EXPECT_TRUE(a == b);
  a.Add(1, 1);
  EXPECT_FALSE(a == b);
}

}  // namespace
}  // namespace topology_counts_test
}  // namespace sched::interpodaffinity
