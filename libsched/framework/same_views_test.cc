#include "libsched/framework/same_views.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace sched {
namespace same_views_test {
namespace {

TEST(SameViewsTest, ComparesAddressesNotText) {
  const std::string cpu = "Insufficient cpu", cpu_copy = "Insufficient cpu";
  const std::string plugin = "NodeResourcesFit", plugin_copy = "NodeResourcesFit";
  auto make = [](Code code, std::string_view p, std::vector<std::string_view> reasons) {
    Status s(code, reasons);
    s.set_plugin(p);
    return s;
  };
  const Status base = make(Code::kUnschedulable, plugin, {cpu});
  struct Case {
    const char* name;
    Status other;
    bool want;
  };
  const Case cases[] = {
      {"a copy", base, true},
      {"rebuilt from the same strings", make(Code::kUnschedulable, plugin, {cpu}), true},
      {"another code", make(Code::kUnschedulableAndUnresolvable, plugin, {cpu}), false},
      {"equal plugin text elsewhere", make(Code::kUnschedulable, plugin_copy, {cpu}), false},
      {"equal reason text elsewhere", make(Code::kUnschedulable, plugin, {cpu_copy}), false},
      {"a shorter view of the reason",
       make(Code::kUnschedulable, plugin, {std::string_view(cpu).substr(0, 4)}), false},
      {"one more reason", make(Code::kUnschedulable, plugin, {cpu, cpu}), false},
      {"no reasons", make(Code::kUnschedulable, plugin, {}), false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(SameViews(base, c.other), c.want) << c.name;
    EXPECT_EQ(SameViews(c.other, base), c.want) << c.name;
  }
}

}  // namespace
}  // namespace same_views_test
}  // namespace sched
