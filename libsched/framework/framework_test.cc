#include "libsched/framework/framework.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace framework_test {
namespace {

// A filter that returns a fixed status.
class FakeFilter final : public FilterPlugin {
 public:
  FakeFilter(std::string name, Status s) : name_(std::move(name)), status_(std::move(s)) {}
  std::string_view Name() const override { return name_; }
  Status Filter(const CycleState&, const Pod&, const NodeInfo&) const override { return status_; }

 private:
  std::string name_;
  Status status_;
};

struct Want {
  Code code;
  std::string message;
  std::string plugin;
};

Want RunFilters(std::vector<std::pair<std::string, Status>> filters, bool run_all) {
  Profile profile("p");
  for (auto& [name, s] : filters) profile.Add(std::make_unique<FakeFilter>(name, s));
  profile.set_run_all_filters(run_all);
  ClusterState cs;
  const auto pod = testing::PodBuilder(cs.interner(), "p").Build();
  cs.UpsertNode(testing::NodeBuilder(cs.interner(), "n").Build());
  Mt19937_64 rng(1);
  const Framework fw(profile, cs, nullptr, rng);
  const CycleState state(profile.num_slots());
  const Status s = fw.RunFilterPlugins(state, *pod, *cs.FindNode("n"));
  return {s.code(), s.Message(), std::string(s.plugin())};
}

// alwaysCheckAllPredicates: every filter runs and all reasons are reported;
// the code is the most severe, the plugin the first with that code (v1.20's
// PluginToStatus.Merge); an Error ends the loop.
TEST(FrameworkTest, RunFilterPlugins) {
  const Status a(Code::kUnschedulable, "reason a");
  const Status b(Code::kUnschedulableAndUnresolvable, "reason b");
  const Status c(Code::kUnschedulable, std::vector<std::string_view>{"c1", "c2"});
  const Status ok;
  struct Case {
    std::string name;
    std::vector<std::pair<std::string, Status>> filters;
    bool run_all;
    Code code;
    std::string message, plugin;
  };
  const std::vector<Case> cases = {
      {"first failure only", {{"A", a}, {"B", b}}, false, Code::kUnschedulable, "reason a", "A"},
      {"all failures",
       {{"A", a}, {"OK", ok}, {"B", b}, {"C", c}},
       true,
       Code::kUnschedulableAndUnresolvable,
       "reason a, reason b, c1, c2",
       "B"},
      {"tie keeps the first",
       {{"A", a}, {"C", c}},
       true,
       Code::kUnschedulable,
       "reason a, c1, c2",
       "A"},
      {"all pass", {{"OK", ok}}, true, Code::kSuccess, "", ""},
      {"error ends the loop",
       {{"A", a}, {"E", Status::Error("boom")}, {"B", b}},
       true,
       Code::kError,
       "boom",
       "E"},
      {"an owned reason survives the merge",
       {{"A", a}, {"O", Status::Owned(Code::kUnschedulable, "dynamic")}},
       true,
       Code::kUnschedulable,
       "reason a, dynamic",
       "A"},
  };
  for (const Case& t : cases) {
    const Want got = RunFilters(t.filters, t.run_all);
    EXPECT_EQ(got.code, t.code) << t.name;
    EXPECT_EQ(got.message, t.message) << t.name;
    EXPECT_EQ(got.plugin, t.plugin) << t.name;
  }
}

}  // namespace
}  // namespace framework_test
}  // namespace sched
