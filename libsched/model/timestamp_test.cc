#include "libsched/model/timestamp.h"

#include <gtest/gtest.h>

namespace sched {
namespace timestamp_test {
namespace {

constexpr int64_t kSec = 1'000'000'000;

TEST(ParseRfc3339Test, Valid) {
  struct Case {
    const char* in;
    int64_t want;
  };
  const Case cases[] = {
      {"1970-01-01T00:00:00Z", 0},
      {"1970-01-01T00:00:01Z", kSec},
      {"1970-01-01T00:00:00.000000001Z", 1},
      {"1970-01-01T00:00:00.5Z", kSec / 2},
      {"2024-02-29T12:00:00Z", 1709208000 * kSec},
      {"2026-01-01T10:30:00+02:00", 1767256200 * kSec},  // = 08:30Z
      {"2026-01-01T08:30:00Z", 1767256200 * kSec},
      {"1969-12-31T23:00:00-01:00", 0},
  };
  for (const Case& c : cases) EXPECT_EQ(ParseRfc3339(c.in), c.want) << c.in;
}

TEST(ParseRfc3339Test, Invalid) {
  for (const char* s :
       {"", "2024-01-01", "2024-01-01 00:00:00Z", "2024-01-01T00:00:00", "2023-02-29T00:00:00Z",
        "2024-13-01T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:60Z",
        "2024-01-01T00:00:00.Z", "2024-01-01T00:00:00.1234567890Z", "2024-01-01T00:00:00+0100",
        "2024-01-01T00:00:00Zx", "2024-01-01t00:00:00Z", "9999-01-01T00:00:00Z"}) {
    EXPECT_EQ(ParseRfc3339(s), std::nullopt) << s;
  }
}

}  // namespace
}  // namespace timestamp_test
}  // namespace sched
