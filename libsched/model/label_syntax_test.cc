// The label syntax checks behind NodeSelectorRequirement compilation.
#include "libsched/model/label_syntax.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace sched {
namespace label_syntax_test {
namespace {

TEST(LabelSyntaxTest, Keys) {
  const std::vector<std::string> good = {"a", "A1", "a.b-c_d", "example.com/a",
                                         "a-b.example.com/Z9", std::string(63, 'k'),
                                         "kubernetes.io/hostname"};
  for (const std::string& k : good) {
    EXPECT_TRUE(IsQualifiedName(k)) << k;
  }
  const std::vector<std::string> bad = {
      "",   "-a", "a-", "a b", "/a", "a/", "a/b/c", "Example.com/a", "ex_ample.com/a",
      ".example.com/a", "example..com/a", std::string(64, 'k'), std::string(254, 'a') + "/b"};
  for (const std::string& k : bad) {
    EXPECT_FALSE(IsQualifiedName(k)) << k;
  }
}

TEST(LabelSyntaxTest, Values) {
  for (const std::string& v : {std::string(), std::string("a"), std::string("A-1.b_2"),
                               std::string(63, 'v')}) {
    EXPECT_TRUE(IsLabelValue(v)) << v;
  }
  for (const std::string& v : {std::string("-"), std::string("a."), std::string(" a"),
                               std::string("a/b"), std::string(64, 'v')}) {
    EXPECT_FALSE(IsLabelValue(v)) << v;
  }
}

TEST(LabelSyntaxTest, ParseDecimalInt64) {
  EXPECT_EQ(ParseDecimalInt64("42"), 42);
  EXPECT_EQ(ParseDecimalInt64("+42"), 42);
  EXPECT_EQ(ParseDecimalInt64("-9223372036854775808"), INT64_MIN);
  EXPECT_EQ(ParseDecimalInt64("007"), 7);
  for (const char* s : {"", "+", "-", "+-1", "1.0", "0x10", "1e3", " 1",
                        "9223372036854775808", "1_000"}) {
    EXPECT_FALSE(ParseDecimalInt64(s).has_value()) << s;
  }
}

}  // namespace
}  // namespace label_syntax_test
}  // namespace sched
