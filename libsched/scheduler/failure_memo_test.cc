// The failure memo (Scheduler::MemoizeFailure, ReplayFailureMemo): the
// walk that stores it and the cycles that replay it (its failures shared,
// rotated) give what walks without the cache give, and their failures
// stay valid after the memo is gone.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>

#include "libsched/plugins/registry.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace failure_memo_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

constexpr int64_t kGi = int64_t{1} << 30;
// Above the 100 nodes a cycle that fits everywhere evaluates, so such a
// cycle moves the start index by 100 (mod 130).
constexpr int kNodes = 130;

std::string Describe(const ScheduleResult& r) {
  std::ostringstream o;
  o << "node=" << r.node << " msg=" << r.message << " evaluated=" << r.evaluated_nodes
    << " post=" << r.post_filter_msg << "\n";
  for (const NodeFailure& f : r.failures) {
    o << f.node->node()->name << " " << CodeName(f.status.code()) << " " << f.status.plugin()
      << " " << f.status.Message() << "\n";
  }
  return o.str();
}

class FailureMemoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Short of cpu, of memory, or of both, in turn: every rotation lists
    // other nodes and reasons first.
    for (int i = 0; i < kNodes; ++i) {
      const int64_t cpu = i % 3 == 1 ? 8000 : 1000;
      const int64_t memory = i % 3 == 0 ? 8 * kGi : kGi;
      state_.UpsertNode(
          NodeBuilder(state_.interner(), "n" + std::to_string(i)).Capacity(cpu, memory).Build());
    }
    big_ = PodBuilder(state_.interner(), "big").Container(4000, 4 * kGi).Build();
    small_ = PodBuilder(state_.interner(), "small").Build();
  }
  std::unique_ptr<Scheduler> NewScheduler(bool cache) {
    auto s = std::make_unique<Scheduler>(NewDefaultProfile(), 7);
    s->set_equivalence_cache(cache);
    return s;
  }

  ClusterState state_;
  std::shared_ptr<const Pod> big_;    // fits nowhere
  std::shared_ptr<const Pod> small_;  // fits everywhere
};

TEST_F(FailureMemoTest, ReplayedResultEqualsTheWalkedOne) {
  struct Case {
    int before_walk;    // cycles of `small_` before the walk
    int before_replay;  // and between the walk and the replay
  };
  // Start indexes (walk, replay): (0, 0), (0, 100), (100, 70), (70, 40),
  // (0, 10).
  const Case cases[] = {{0, 0}, {0, 1}, {1, 1}, {2, 1}, {0, 4}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << c.before_walk << " then " << c.before_replay);
    std::unique_ptr<Scheduler> cached = NewScheduler(true), walked = NewScheduler(false);
    std::string first[2], last[2];  // the cycles of `big_`: cached, walked
    for (int k = 0; k < 2; ++k) {
      Scheduler& s = k == 0 ? *cached : *walked;
      for (int i = 0; i < c.before_walk; ++i) s.Schedule(*small_, state_);
      first[k] = Describe(s.Schedule(*big_, state_));
      for (int i = 0; i < c.before_replay; ++i) s.Schedule(*small_, state_);
      last[k] = Describe(s.Schedule(*big_, state_));
    }
    EXPECT_EQ(cached->equivalence_cache_stats()->parked, 1u);
    EXPECT_EQ(first[0], first[1]);  // the walk that memoized
    EXPECT_EQ(last[0], last[1]);    // the replay
    EXPECT_EQ(cached->next_start_node_index(), walked->next_start_node_index());
    EXPECT_TRUE(cached->rng() == walked->rng());
  }
}

// The results that stored and replayed a memo keep its failures after the
// memo is replaced and after the whole cache is gone (under ASan: no read of
// freed memory).
TEST_F(FailureMemoTest, ReplayedFailuresOutliveTheMemo) {
  struct Case {
    const char* name;
    bool replace;  // a change in the cluster, and a walk that memoizes anew
    bool destroy;  // the scheduler and its cache freed
  };
  const Case cases[] = {
      {"memo replaced", true, false}, {"cache freed", false, true}, {"both", true, true}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::unique_ptr<Scheduler> s = NewScheduler(true);
    s->Schedule(*small_, state_);  // a start index other than 0
    const ScheduleResult walked = s->Schedule(*big_, state_);
    const ScheduleResult replayed = s->Schedule(*big_, state_);
    ASSERT_EQ(s->equivalence_cache_stats()->parked, 1u);
    const std::string want_walked = Describe(walked), want = Describe(replayed);
    if (c.replace) {
      state_.UpsertNode(NodeBuilder(state_.interner(), "extra-" + std::string(c.name))
                            .Capacity(1000, kGi)
                            .Build());
      const ScheduleResult walk = s->Schedule(*big_, state_);
      EXPECT_EQ(walk.failures.size(), replayed.failures.size() + 1);
      EXPECT_EQ(s->Schedule(*big_, state_).failures.size(), walk.failures.size());
      EXPECT_EQ(s->equivalence_cache_stats()->parked, 2u);
    }
    if (c.destroy) s.reset();
    EXPECT_EQ(Describe(walked), want_walked);
    EXPECT_EQ(Describe(replayed), want);
  }
}

}  // namespace
}  // namespace failure_memo_test
}  // namespace sched
