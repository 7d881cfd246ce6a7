#include "libsched/plugins/dry_run_memo.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "libsched/testing/node_index_bound_cases.h"

namespace sched {
namespace dry_run_memo_test {
namespace {

// A cluster that scales down: when the node index bound falls under half
// the memo's slots, Begin cuts them to it (node_index_room.h); outcomes
// below the bound stay, and one above it is gone when the bound grows again.
TEST(DryRunMemoTest, SlotsFollowTheBoundDown) {
  constexpr uint32_t kSlots = 1000;
  std::vector<std::unique_ptr<NodeInfo>> nodes;
  for (uint32_t i = 0; i < kSlots; ++i) nodes.push_back(std::make_unique<NodeInfo>(i));
  const DryRunMemo::Pdbs pdbs;
  const Status fit(Code::kUnschedulable, "Insufficient cpu");
  const YieldedNominations none;
  for (const testing::BoundFall& c : testing::NodeIndexBoundFalls(kSlots)) {
    SCOPED_TRACE(c.name);
    DryRunMemo memo;
    memo.Begin(1, 10, pdbs, kSlots);
    for (const auto& node : nodes) memo.Store(*node, none, fit, {}, 0);
    memo.Begin(1, 10, pdbs, c.bound);
    for (const size_t i : {size_t{0}, c.bound / 2, c.bound - 1}) {
      if (i < c.bound) {
        EXPECT_NE(memo.Find(*nodes[i], none), nullptr) << i;
      }
    }
    memo.Begin(1, 10, pdbs, kSlots);
    EXPECT_EQ(memo.Find(*nodes[kSlots - 1], none) != nullptr, !c.cut);
  }
}

}  // namespace
}  // namespace dry_run_memo_test
}  // namespace sched
