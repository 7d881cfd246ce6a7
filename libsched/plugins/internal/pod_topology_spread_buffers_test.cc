#include "libsched/plugins/internal/pod_topology_spread_buffers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/node_index_bound_cases.h"

namespace sched::pts_internal {
namespace pod_topology_spread_buffers_test {
namespace {

// The class's buffers come back zeroed, grown to the bound, and cut to it
// when it fell under half their size (a cluster that scaled down), the
// arrays of hostname constraints the cycle does not use too.
TEST(PodTopologySpreadBuffersTest, CountsFollowTheBound) {
  constexpr size_t kRows = 1000;
  struct Case {
    std::string name;
    size_t bound;  // of the next cycle
    size_t num_hostname;
    std::vector<size_t> sizes;  // of host_counts after it
  };
  std::vector<Case> cases = {
      {"bound fell far, one constraint", 10, 1, {10, 10}},
      {"bound grew, one constraint", 2 * kRows, 1, {2 * kRows, kRows}},
  };
  for (const testing::BoundFall& f : testing::NodeIndexBoundFalls(kRows)) {
    const size_t size = f.cut ? f.bound : kRows;
    cases.push_back({f.name + ", two constraints", f.bound, 2, {size, size}});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::shared_ptr<NodeBuffers> kept;
    {
      const std::shared_ptr<NodeBuffers> b = TakeBuffers(&kept, kRows, 2);
      b->host_counts[0][kRows - 1] = 5;
      b->host_counts[1][3] = 2;
      b->counted = {static_cast<uint32_t>(kRows - 1), 3};
    }
    const std::shared_ptr<NodeBuffers> b = TakeBuffers(&kept, c.bound, c.num_hostname);
    EXPECT_EQ(b, kept);  // reused: no earlier state holds it
    ASSERT_EQ(b->host_counts.size(), c.sizes.size());
    for (size_t h = 0; h < c.sizes.size(); ++h) {
      const std::vector<int64_t>& counts = b->host_counts[h];
      EXPECT_EQ(counts.size(), c.sizes[h]) << h;
      if (c.sizes[h] < kRows) {  // cut: the room given back
        EXPECT_EQ(counts.capacity(), c.sizes[h]) << h;
      }
      EXPECT_TRUE(std::all_of(counts.begin(), counts.end(), [](int64_t n) { return n == 0; }));
    }
    EXPECT_TRUE(b->counted.empty());
  }
}

}  // namespace
}  // namespace pod_topology_spread_buffers_test
}  // namespace sched::pts_internal
