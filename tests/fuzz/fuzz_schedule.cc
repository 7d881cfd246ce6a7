// libFuzzer target: sched_engine_schedule on arbitrary bytes.
//
// Input: one flags byte (masked to the defined SCHED_SCHEDULE_* bits), then
// the pod JSON. A fresh engine with two profiles is preloaded with a small
// cluster (fuzz_common.h, kCluster) for every input and freed afterwards.
// Checks: the status/error contract; *result_json untouched on failure; a
// result of the documented shape ("assumed" iff ASSUME and a node chosen);
// unknown flag bits rejected; and, when the pod was assumed, that the engine
// still schedules it and the probe pod, and that deleting it through an
// event keeps the contract.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sched/sched.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

constexpr std::string_view kConfig =
    R"({"seed":7,"profiles":[{"schedulerName":"default-scheduler"},)"
    R"({"schedulerName":"fuzz-scheduler","percentageOfNodesToScore":50}]})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint32_t flags = data[0] & fuzz::kAllFlags;
  const std::string_view pod(reinterpret_cast<const char*>(data) + 1, size - 1);

  sched_engine* e = fuzz::NewEngine(kConfig);
  FUZZ_CHECK(fuzz::Apply(e, fuzz::kCluster) == SCHED_OK, "preload rejected");

  // An undefined flag bit is rejected whatever the pod.
  sched_status bad_flags;
  fuzz::Schedule(e, pod, flags | 0x80000000u, &bad_flags);
  FUZZ_CHECK(bad_flags == SCHED_INVALID_ARGUMENT, "unknown flag bit accepted: %s",
             sched_status_name(bad_flags));

  sched_status st;
  bool assumed = false;
  fuzz::Schedule(e, pod, flags, &st, &assumed);
  if (st == SCHED_OK && assumed) {
    // The pod now sits on a node: schedule it again, the probe too, then
    // delete it with a watch event wrapping the same object.
    fuzz::Schedule(e, pod, fuzz::kAllFlags);
    fuzz::Schedule(e, fuzz::kProbePod, fuzz::kAllFlags);
    std::string event = R"({"type":"DELETED","object":)";
    event.append(pod);
    event.append("}");
    fuzz::Apply(e, event);
    fuzz::Schedule(e, fuzz::kProbePod, SCHED_SCHEDULE_NODE_STATUSES);
  }
  sched_engine_free(e);
  return 0;
}
