// libFuzzer target: sched_engine_new on arbitrary bytes.
//
// Checks: the status/error contract (fuzz_common.h); *out untouched on
// failure; a new engine is usable (a probe pod schedules or is rejected with
// INVALID_ARGUMENT when no profile is named "default-scheduler"), and the
// same config accepted twice gives engines that decide the same way.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sched/sched.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view config(reinterpret_cast<const char*>(data), size);

  sched_engine* e = fuzz::UntouchedEngine();
  sched_error* err = nullptr;
  const sched_status st = sched_engine_new(config.data(), config.size(), &e, &err);
  fuzz::CheckStatus("sched_engine_new", st, err);
  if (st != SCHED_OK) {
    FUZZ_CHECK(e == fuzz::UntouchedEngine(), "sched_engine_new failed but wrote *out");
    return 0;
  }
  FUZZ_CHECK(e != nullptr && e != fuzz::UntouchedEngine(), "sched_engine_new OK without engine");

  // The same document again: engine creation is deterministic.
  sched_engine* twin = fuzz::UntouchedEngine();
  err = nullptr;
  const sched_status st2 = sched_engine_new(config.data(), config.size(), &twin, &err);
  fuzz::CheckStatus("sched_engine_new (again)", st2, err);
  FUZZ_CHECK(st2 == SCHED_OK, "a config accepted once was rejected the second time");

  FUZZ_CHECK(fuzz::Apply(e, fuzz::kCluster) == SCHED_OK, "preload rejected");
  FUZZ_CHECK(fuzz::Apply(twin, fuzz::kCluster) == SCHED_OK, "preload rejected");
  for (uint32_t flags : {fuzz::kAllFlags, SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES}) {
    sched_status s1, s2;
    const std::string r1 = fuzz::Schedule(e, fuzz::kProbePod, flags, &s1);
    const std::string r2 = fuzz::Schedule(twin, fuzz::kProbePod, flags, &s2);
    FUZZ_CHECK(s1 == SCHED_OK || s1 == SCHED_INVALID_ARGUMENT, "probe failed with %s",
               sched_status_name(s1));
    FUZZ_CHECK(s1 == s2 && r1 == r2, "twin engines from one config disagree:\n%s\n%s",
               r1.c_str(), r2.c_str());
  }
  sched_engine_free(e);
  sched_engine_free(twin);
  return 0;
}
