#include "libsched/framework/status.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libsched/framework/filter_errors.h"

namespace sched {
namespace status_test {
namespace {

TEST(StatusTest, ReasonsInlineAndBeyond) {
  // interface_test.go TestStatus: Message joins the reasons with ", ".
  const std::vector<std::string_view> all = {"r1", "r2", "r3", "r4", "r5"};
  for (size_t n = 0; n <= all.size(); ++n) {
    const std::vector<std::string_view> want(all.begin(), all.begin() + n);
    Status added(Code::kUnschedulable);
    for (std::string_view r : want) added.AddReason(r);
    const Status built(Code::kUnschedulable, want);
    Status copied = built;
    const Status moved = std::move(copied);
    for (const Status* s : {static_cast<const Status*>(&added), &built, &moved}) {
      EXPECT_EQ(s->reasons(), want) << n << " reasons";
      std::string msg;
      for (std::string_view r : want) msg += (msg.empty() ? "" : ", ") + std::string(r);
      EXPECT_EQ(s->Message(), msg) << n << " reasons";
    }
  }
}

TEST(StatusTest, MergeRejectionAppendsAcrossTheInlineLimit) {
  struct Case {
    const char* name;
    Status into;
    Status other;
    Code want_code;
    std::string want_plugin;
    std::vector<std::string_view> want_reasons;
  };
  Status a(Code::kUnschedulable, std::vector<std::string_view>{"a1", "a2"});
  a.set_plugin("A");
  Status b(Code::kUnschedulableAndUnresolvable, "b1");
  b.set_plugin("B");
  Status c(Code::kUnschedulable, "c1");
  c.set_plugin("C");
  const Case cases[] = {
      {"the more severe keeps its code and plugin",
       a,
       b,
       Code::kUnschedulableAndUnresolvable,
       "B",
       {"a1", "a2", "b1"}},
      {"a tie keeps this one's", b, c, Code::kUnschedulableAndUnresolvable, "B", {"b1", "c1"}},
      {"owned reasons join into one",
       a,
       Status::Owned(Code::kUnschedulable, "o1"),
       Code::kUnschedulable,
       "A",
       {"a1, a2, o1"}},
  };
  for (const Case& tc : cases) {
    Status s = tc.into;
    s.MergeRejection(tc.other);
    EXPECT_EQ(s.code(), tc.want_code) << tc.name;
    EXPECT_EQ(s.plugin(), tc.want_plugin) << tc.name;
    EXPECT_EQ(s.reasons(), tc.want_reasons) << tc.name;
  }
}

TEST(StatusTest, OwnedReasonSurvivesCopies) {
  Status copy;
  {
    const Status s = Status::Owned(Code::kUnschedulable, std::string("dynamic ") + "reason");
    copy = s;
  }
  EXPECT_EQ(copy.Message(), "dynamic reason");
}

// utilerrors.NewAggregate(errs).Error(), as DryRunPreemption returns it.
TEST(StatusTest, AggregateErrorMessages) {
  struct Case {
    std::vector<std::string> messages;
    std::string want;
  };
  const Case cases[] = {
      {{}, ""},
      {{"a"}, "a"},
      {{"a", "a"}, "a"},
      {{"a", "b"}, "[a, b]"},
      {{"b", "a", "b"}, "[b, a]"},
  };
  for (const Case& c : cases) EXPECT_EQ(AggregateErrorMessages(c.messages), c.want);
}

TEST(StatusTest, FilterErrorMessageWrapsAPluginsError) {
  Status s = Status::Error("broken");
  EXPECT_EQ(FilterErrorMessage(s), "broken");
  s.set_plugin("DynamicResources");
  EXPECT_EQ(FilterErrorMessage(s), "running \"DynamicResources\" filter plugin: broken");
}

}  // namespace
}  // namespace status_test
}  // namespace sched
