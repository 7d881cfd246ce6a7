#include "libsched/model/interner.h"

#include <gtest/gtest.h>

namespace sched {
namespace {

TEST(InternerTest, IdsAreDenseAndStable) {
  Interner in;
  EXPECT_EQ(in.Intern("a"), 0u);
  EXPECT_EQ(in.Intern("b"), 1u);
  EXPECT_EQ(in.Intern("a"), 0u);
  EXPECT_EQ(in.Find("b"), 1u);
  EXPECT_EQ(in.Find("c"), kNoAtom);
  EXPECT_EQ(in.Str(1), "b");
  EXPECT_EQ(in.size(), 2u);
}

// What a failed decode relies on: truncating forgets exactly the strings
// interned since, and interning them again gives the same ids as if they
// had never been seen.
TEST(InternerTest, TruncateForgetsLaterStrings) {
  Interner in;
  in.Intern("keep");
  const size_t mark = in.size();
  in.Intern("x");
  in.Intern("y");
  in.Intern("keep");
  in.Truncate(mark);
  EXPECT_EQ(in.size(), 1u);
  EXPECT_EQ(in.Find("x"), kNoAtom);
  EXPECT_EQ(in.Find("y"), kNoAtom);
  EXPECT_EQ(in.Find("keep"), 0u);
  EXPECT_EQ(in.Intern("y"), 1u);
  in.Truncate(in.size());  // a no-op
  EXPECT_EQ(in.size(), 2u);
}

}  // namespace
}  // namespace sched
