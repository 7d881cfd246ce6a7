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

TEST(CycleStateTest, ClearLeavesItAsNew) {
  // Each slot's data, skip marks and class memos, set in turn: Clear
  // leaves none of them (a recycled state would carry them to the next pod).
  struct Case {
    const char* name;
    void (*set)(CycleState&);
  };
  const Case cases[] = {
      {"data", [](CycleState& s) { s.Write(1, std::make_shared<Data>()); }},
      {"skip filter", [](CycleState& s) { s.set_skip_filter(1); }},
      {"skip score", [](CycleState& s) { s.set_skip_score(0); }},
      {"class memos", [](CycleState& s) { s.set_class_memos(std::make_shared<ClassMemos>()); }},
  };
  for (const Case& c : cases) {
    CycleState s(2);
    c.set(s);
    s.Clear();
    for (size_t slot = 0; slot < 2; ++slot) {
      EXPECT_EQ(s.Read<Data>(slot), nullptr) << c.name;
      EXPECT_FALSE(s.skip_filter(slot)) << c.name;
      EXPECT_FALSE(s.skip_score(slot)) << c.name;
      EXPECT_EQ(s.class_memo(slot), nullptr) << c.name;
    }
  }
}

}  // namespace
}  // namespace cycle_state_test
}  // namespace sched
