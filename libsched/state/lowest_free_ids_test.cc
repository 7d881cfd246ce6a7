#include "libsched/state/lowest_free_ids.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace sched {
namespace lowest_free_ids_test {
namespace {

// One step: Take (want: the id it gives) or Free(id); then bound().
struct Step {
  bool take;
  uint32_t id;  // Take: the id wanted; Free: the id freed
  uint32_t bound;
};
constexpr Step Take(uint32_t want, uint32_t bound) { return {true, want, bound}; }
constexpr Step Free(uint32_t id, uint32_t bound) { return {false, id, bound}; }

struct Case {
  const char* name;
  std::vector<Step> steps;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"dense from zero", {Take(0, 1), Take(1, 2), Take(2, 3)}},
      {"a freed id under the bound is given again first",
       {Take(0, 1), Take(1, 2), Take(2, 3), Free(1, 3), Take(1, 3), Take(3, 4)}},
      {"the lowest free id first",
       {Take(0, 1), Take(1, 2), Take(2, 3), Take(3, 4), Free(2, 4), Free(0, 4), Take(0, 4),
        Take(2, 4), Take(4, 5)}},
      {"freeing the highest lowers the bound by one", {Take(0, 1), Take(1, 2), Free(1, 1), Take(1, 2)}},
      {"the bound falls past the free ids right under it",
       {Take(0, 1), Take(1, 2), Take(2, 3), Take(3, 4), Take(4, 5), Free(1, 5), Free(3, 5),
        Free(2, 5), Free(4, 1), Take(1, 2)}},
      {"a scale-down to nothing",
       {Take(0, 1), Take(1, 2), Take(2, 3), Free(0, 3), Free(1, 3), Free(2, 0), Take(0, 1)}},
      {"the bound stops at an id in use",
       {Take(0, 1), Take(1, 2), Take(2, 3), Take(3, 4), Free(0, 4), Free(2, 4), Free(3, 2),
        Take(0, 2), Take(2, 3)}},
  };
  return cases;
}

void ApplyStep(const Step& step, LowestFreeIds& ids, UndoLog* log, const char* name, size_t i) {
  if (step.take) {
    EXPECT_EQ(ids.Next(), step.id) << name << ", step " << i;
    EXPECT_EQ(ids.Take(log), step.id) << name << ", step " << i;
  } else {
    ids.Free(step.id, log);
  }
  EXPECT_EQ(ids.bound(), step.bound) << name << ", step " << i;
}

TEST(LowestFreeIdsTest, GivesTheLowestFreeIdAndLowersTheBound) {
  for (const Case& c : Cases()) {
    LowestFreeIds ids;
    for (size_t i = 0; i < c.steps.size(); ++i) ApplyStep(c.steps[i], ids, nullptr, c.name, i);
  }
}

// From every prefix, the rest of the steps in a unit rolled back leave the
// ids as the prefix left them; committed, as the plain run did.
TEST(LowestFreeIdsTest, RollbackRestoresTheIdsFromEveryPrefix) {
  for (const Case& c : Cases()) {
    for (size_t prefix = 0; prefix <= c.steps.size(); ++prefix) {
      LowestFreeIds ids;
      for (size_t i = 0; i < prefix; ++i) ApplyStep(c.steps[i], ids, nullptr, c.name, i);
      const LowestFreeIds before = ids;
      UndoLog log;
      log.Begin();
      for (size_t i = prefix; i < c.steps.size(); ++i) ApplyStep(c.steps[i], ids, &log, c.name, i);
      log.Rollback();
      EXPECT_EQ(ids, before) << c.name << ", rolled back after step " << prefix;
      log.Begin();
      for (size_t i = prefix; i < c.steps.size(); ++i) ApplyStep(c.steps[i], ids, &log, c.name, i);
      log.Commit();
      EXPECT_EQ(ids.bound(), c.steps.back().bound) << c.name << ", committed after " << prefix;
    }
  }
}

}  // namespace
}  // namespace lowest_free_ids_test
}  // namespace sched
