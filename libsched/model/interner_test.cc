#include "libsched/model/interner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sched {
namespace interner_test {
namespace {

// Interns `strings` as one object's decoder does; returns its hold.
AtomHold Decode(Interner& in, const std::vector<std::string>& strings) {
  AtomRecorder rec(in);
  for (const std::string& s : strings) in.Intern(s);
  return rec.Finish();
}

TEST(InternerTest, IdsAreDenseAndStable) {
  Interner in;
  EXPECT_EQ(in.Intern("a"), 0u);
  EXPECT_EQ(in.Intern("b"), 1u);
  EXPECT_EQ(in.Intern("a"), 0u);
  EXPECT_EQ(in.Find("b"), 1u);
  EXPECT_EQ(in.Find("c"), kNoAtom);
  EXPECT_EQ(in.Str(1), "b");
  EXPECT_EQ(in.size(), 2u);
  EXPECT_EQ(in.held(), 2u);  // pinned: no recorder was open
  EXPECT_EQ(in.held_bytes(), 2u);
}

// What a failed decode relies on: a rollback forgets exactly the strings
// created since the checkpoint, and interning them again gives the same
// ids as if they had never been seen.
TEST(InternerTest, RollbackForgetsLaterStrings) {
  Interner in;
  in.Intern("keep");
  const size_t mark = in.Checkpoint();
  {
    AtomRecorder rec(in);
    in.Intern("x");
    in.Intern("y");
    in.Intern("keep");
  }  // the decode failed: nothing holds them
  in.Rollback(mark);
  EXPECT_EQ(in.size(), 1u);
  EXPECT_EQ(in.held(), 1u);
  EXPECT_EQ(in.held_bytes(), 4u);
  EXPECT_EQ(in.Find("x"), kNoAtom);
  EXPECT_EQ(in.Find("y"), kNoAtom);
  EXPECT_EQ(in.Find("keep"), 0u);
  EXPECT_EQ(in.Intern("y"), 1u);
}

// An id a rollback frees is the next new string's: caches keyed by ids
// learn it from the epoch, as after a Collect. A rollback that freed
// nothing keeps the epoch (and the caches).
TEST(InternerTest, RollbackThatFreesIdsMovesTheReuseEpoch) {
  struct Case {
    const char* name;
    std::vector<std::string> decoded;  // interned inside the checkpoint
    uint64_t epoch_after;
  };
  const Case cases[] = {
      {"a new string", {"x"}, 1},
      {"only known strings", {"keep"}, 0},
      {"nothing", {}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Interner in;
    in.Intern("keep");
    const size_t mark = in.Checkpoint();
    { AtomHold failed = Decode(in, c.decoded); }
    in.Rollback(mark);
    EXPECT_EQ(in.reuse_epoch(), c.epoch_after);
  }
}

TEST(InternerTest, ReleasedStringsAreFreedInBatches) {
  const std::vector<std::string> pod = {"app", "web", "pod-name", "web-0"};
  struct Case {
    const char* name;
    bool pinned_before;  // "web-0" pinned (a config) before the pod
    size_t after;        // strings held after the pod goes
  };
  const Case cases[] = {{"all released", false, 0}, {"a pinned one stays", true, 1}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Interner in(/*min_free_batch=*/3);
    if (c.pinned_before) in.Pin("web-0");
    AtomHold hold = Decode(in, pod);
    const Atom app = in.Find("app");
    AtomHold copy = hold;  // a copy of the object shares the hold
    hold.reset();
    in.Collect();
    EXPECT_EQ(in.size(), 4u);  // the copy still holds them
    EXPECT_EQ(in.Str(in.Find("web-0")), "web-0");
    copy.reset();
    EXPECT_EQ(in.held(), c.after);  // released
    EXPECT_EQ(in.held_bytes(), c.after * 5);
    EXPECT_EQ(in.size(), 4u);          // and kept until a batch is freed
    EXPECT_EQ(in.Intern("app"), app);  // a string that comes back keeps its id
    in.Pin("x");
    in.Collect();
    EXPECT_EQ(in.size(), 2u + c.after);
    in.Collect();
    EXPECT_EQ(in.size(), 2u + c.after);
    EXPECT_EQ(in.Find("pod-name"), kNoAtom);
  }
}

TEST(InternerTest, InternWithoutRecorderPins) {
  Interner in;
  AtomHold hold = Decode(in, {"zone"});
  in.Intern("zone");  // e.g. a plugin arg: held for the interner's life
  hold.reset();
  in.Collect();
  EXPECT_EQ(in.Find("zone"), 0u);
}

TEST(InternerTest, FailedDecodeReleases) {
  Interner in(/*min_free_batch=*/1);
  {
    AtomRecorder rec(in);
    in.Intern("a");
  }  // no Finish: the decode failed
  in.Collect();
  EXPECT_EQ(in.size(), 0u);
}

// Released ids wait until a batch can be freed at once; the epoch tells
// caches keyed by ids that they may now name other strings.
TEST(InternerTest, IdsAreReusedInBatches) {
  Interner in;
  std::vector<AtomHold> holds;
  for (size_t i = 0; i < Interner::kMinFreeBatch; ++i) {
    holds.push_back(Decode(in, {"v" + std::to_string(i)}));
  }
  holds.pop_back();
  in.Collect();
  EXPECT_EQ(in.reuse_epoch(), 0u);
  EXPECT_EQ(in.Intern("fresh"), Interner::kMinFreeBatch);  // not reused yet
  holds.clear();
  in.Collect();
  EXPECT_EQ(in.reuse_epoch(), 1u);
  EXPECT_EQ(in.size(), 1u);
  AtomHold next = Decode(in, {"next"});
  EXPECT_EQ(in.Find("next"), 0u);  // the lowest freed id first
  // A rollback gives a reused id back: the next string gets it again.
  const size_t mark = in.Checkpoint();
  {
    AtomHold failed = Decode(in, {"failed"});
    EXPECT_EQ(in.Find("failed"), 1u);
  }
  in.Rollback(mark);
  EXPECT_EQ(in.Find("failed"), kNoAtom);
  EXPECT_EQ(in.size(), 2u);
  AtomHold again = Decode(in, {"again"});
  EXPECT_EQ(in.Find("again"), 1u);
}

}  // namespace
}  // namespace interner_test
}  // namespace sched
