// The exception firewall and the error objects it hands to C callers.
#include "capi/error.h"

#include <new>
#include <stdexcept>

#include <gtest/gtest.h>

namespace sched::capi {
namespace error_test {
namespace {

TEST(GuardTest, ReportsStatusesThroughTheErrorObject) {
  sched_error* err = nullptr;
  EXPECT_EQ(Guard(&err, [] { return ApiStatus(); }), SCHED_OK);
  EXPECT_EQ(err, nullptr);

  const JsonPath root;
  EXPECT_EQ(Guard(&err, [&] { return ApiStatus::Invalid(root.Child("spec"), "bad"); }),
            SCHED_INVALID_ARGUMENT);
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(sched_error_code(err), SCHED_INVALID_ARGUMENT);
  EXPECT_STREQ(sched_error_message(err), "spec: bad");
  EXPECT_STREQ(sched_error_path(err), "spec");
  sched_error_free(err);

  // A null err only loses the detail.
  EXPECT_EQ(Guard(nullptr, [] { return ApiStatus::InvalidCall("x"); }), SCHED_INVALID_ARGUMENT);
}

TEST(GuardTest, NoExceptionEscapes) {
  sched_error* err = nullptr;
  EXPECT_EQ(Guard(&err, []() -> ApiStatus { throw std::bad_alloc(); }), SCHED_OUT_OF_MEMORY);
  EXPECT_STREQ(sched_error_message(err), "out of memory");
  EXPECT_STREQ(sched_error_path(err), "");
  sched_error_free(err);

  err = nullptr;
  EXPECT_EQ(Guard(&err, []() -> ApiStatus { throw std::logic_error("broken invariant"); }),
            SCHED_INTERNAL);
  EXPECT_STREQ(sched_error_message(err), "broken invariant");
  sched_error_free(err);

  err = nullptr;
  EXPECT_EQ(Guard(&err, []() -> ApiStatus { throw 42; }), SCHED_INTERNAL);
  EXPECT_STREQ(sched_error_message(err), "unknown exception");
  sched_error_free(err);

  EXPECT_EQ(Guard(nullptr, []() -> ApiStatus { throw std::bad_alloc(); }), SCHED_OUT_OF_MEMORY);
}

}  // namespace
}  // namespace error_test
}  // namespace sched::capi
