// CycleState::Clone shares slot data; CopyOnWrite gives a clone its own.
#include "libsched/framework/cycle_state.h"

#include <gtest/gtest.h>

namespace sched {
namespace cycle_state_test {
namespace {

struct Data : StateData {
  int v = 0;
};

TEST(CycleStateTest, CloneSharesUntilCopyOnWrite) {
  CycleState original(2);
  original.Write(0, std::make_unique<Data>());
  original.set_skip_filter(1);

  CycleState clone = original.Clone();
  EXPECT_EQ(clone.Read<Data>(0), original.Read<Data>(0));  // shared
  EXPECT_TRUE(clone.skip_filter(1));

  clone.CopyOnWrite<Data>(0)->v = 7;
  EXPECT_NE(clone.Read<Data>(0), original.Read<Data>(0));
  EXPECT_EQ(clone.Read<Data>(0)->v, 7);
  EXPECT_EQ(original.Read<Data>(0)->v, 0);

  // Once private, further writes do not copy again.
  const Data* mine = clone.Read<Data>(0);
  clone.CopyOnWrite<Data>(0)->v = 8;
  EXPECT_EQ(clone.Read<Data>(0), mine);
}

TEST(CycleStateTest, CopyOnWriteOfUnsharedOrEmptySlot) {
  CycleState s(2);
  s.Write(0, std::make_unique<Data>());
  const Data* before = s.Read<Data>(0);
  s.CopyOnWrite<Data>(0)->v = 1;
  EXPECT_EQ(s.Read<Data>(0), before);  // sole owner: no copy
  EXPECT_EQ(s.CopyOnWrite<Data>(1), nullptr);
}

TEST(CycleStateTest, OriginalWritesAfterCloneDoNotReachTheClone) {
  CycleState original(1);
  original.Write(0, std::make_unique<Data>());
  CycleState clone = original.Clone();
  original.CopyOnWrite<Data>(0)->v = 3;
  EXPECT_EQ(clone.Read<Data>(0)->v, 0);
}

}  // namespace
}  // namespace cycle_state_test
}  // namespace sched
