// Positions the engine keeps across calls into lists that shrink: after
// nodes go away, the next cycles must behave as on an engine that never had
// them (cache on and off compared), and never read past a list's end.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "capi/engine.h"
#include "sched/sched.h"
#include "tests/capi/engine_test_util.h"

namespace sched::capi {
namespace shrink_test {
namespace {

using testing::CallApply;
using testing::CallResult;
using testing::CallSchedule;
using testing::EventJson;
using testing::NodeJson;
using testing::PodJson;

struct EngineDeleter {
  void operator()(sched_engine* e) const { sched_engine_free(e); }
};
using EnginePtr = std::unique_ptr<sched_engine, EngineDeleter>;

EnginePtr NewEngine(const std::string& config) {
  sched_engine* e = nullptr;
  EXPECT_EQ(sched_engine_new(config.data(), config.size(), &e, nullptr), SCHED_OK) << config;
  return EnginePtr(e);
}

// Engines that must agree call for call: the default config (cache on)
// and the same without the cache.
class Twins {
 public:
  Twins()
      : on_(NewEngine(R"({"seed":5})")),
        off_(NewEngine(R"({"seed":5,"equivalenceCache":false})")) {}

  // Applies to both; returns the cache-on engine's outcome.
  CallResult Apply(const std::string& json) {
    return Both([&](sched_engine* e) { return CallApply(e, json); });
  }
  CallResult Schedule(const std::string& pod, uint32_t flags) {
    return Both([&](sched_engine* e) { return CallSchedule(e, pod, flags); });
  }

 private:
  template <typename Call>
  CallResult Both(Call call) {
    const CallResult a = call(on_.get()), b = call(off_.get());
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.output, b.output);
    EXPECT_EQ(a.message, b.message);
    EXPECT_EQ(on_->rep->StateDigest(), off_->rep->StateDigest());
    return a;
  }

  EnginePtr on_, off_;
};

constexpr uint32_t kFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

// The issue 13 reproduction: 101 nodes, a cycle that evaluates 100 of them
// (start index 100), one node deleted, another cycle. The cached walk
// started at nodes[100] of a 100-node list and crashed.
TEST(ShrinkTest, ScheduleAfterNodeRemovalLeftTheStartIndexPastTheEnd) {
  struct Case {
    const char* name;
    std::vector<int> removed;  // node numbers deleted after the first cycle
  };
  const Case cases[] = {
      {"last node", {100}},
      {"first node", {0}},
      {"a middle node", {50}},
      {"many nodes", {3, 17, 40, 99, 100, 64, 8}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Twins twins;
    for (int i = 0; i <= 100; ++i) {
      ASSERT_EQ(twins.Apply(EventJson("ADDED", NodeJson("n" + std::to_string(i), "8"))).status,
                SCHED_OK);
    }
    const CallResult first = twins.Schedule(PodJson("a", "100m"), kFlags);
    ASSERT_EQ(first.status, SCHED_OK) << first.message;
    EXPECT_NE(first.output.find(R"("evaluatedNodes":100,)"), std::string::npos) << first.output;
    for (int k : c.removed) {
      const std::string node = "n" + std::to_string(k);
      ASSERT_EQ(twins.Apply(EventJson("DELETED", NodeJson(node, "8"))).status, SCHED_OK);
    }
    for (const char* pod : {"b", "c", "d"}) {
      const CallResult r = twins.Schedule(PodJson(pod, "100m"), kFlags);
      ASSERT_EQ(r.status, SCHED_OK) << r.message;
      EXPECT_NE(r.output.find(R"("reason":"Scheduled")"), std::string::npos) << r.output;
    }
    if (HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace shrink_test
}  // namespace sched::capi
