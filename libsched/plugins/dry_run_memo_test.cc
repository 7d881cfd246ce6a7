#include "libsched/plugins/dry_run_memo.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace sched {
namespace dry_run_memo_test {
namespace {

// A cluster that scales down: when the node index bound falls under half
// the memo's slots, Begin cuts them to it (node_index_room.h); outcomes
// below the bound stay, and one above it is gone when the bound grows again.
TEST(DryRunMemoTest, SlotsFollowTheBoundDown) {
  constexpr uint32_t kSlots = 1000;
  struct Case {
    std::string name;
    size_t bound;  // of the next PostFilter
    bool trimmed;
  };
  const std::vector<Case> cases = {
      {"bound unchanged", kSlots, false},
      {"bound fell a little", 600, false},
      {"bound fell to half", kSlots / 2, false},
      {"bound fell under half", kSlots / 2 - 1, true},
      {"bound fell far", 10, true},
      {"no node left", 0, true},
  };
  std::vector<std::unique_ptr<NodeInfo>> nodes;
  for (uint32_t i = 0; i < kSlots; ++i) nodes.push_back(std::make_unique<NodeInfo>(i));
  const DryRunMemo::Pdbs pdbs;
  const Status fit(Code::kUnschedulable, "Insufficient cpu");
  const YieldedNominations none;
  for (const Case& c : cases) {
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
    EXPECT_EQ(memo.Find(*nodes[kSlots - 1], none) != nullptr, !c.trimmed);
  }
}

}  // namespace
}  // namespace dry_run_memo_test
}  // namespace sched
