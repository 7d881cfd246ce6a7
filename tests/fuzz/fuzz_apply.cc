// libFuzzer target: sched_engine_apply on arbitrary bytes.
//
// The input is one or more documents separated by a line "---"
// ("doc1\n---\ndoc2"; at most kMaxDocs), applied in turn to an engine
// preloaded with a small cluster (fuzz_common.h, kCluster) and an assumed
// pod. Each document is then also scheduled as a pod, so fuzzed pods meet
// fuzzed clusters (a document that is no Pod fails to decode, cheaply).
// Invariants checked after every document:
//   - the status/error contract (fuzz_common.h); *summary_json untouched on
//     failure and a well-formed summary on success;
//   - atomic failure (sched.h convention 3): a failed apply changes nothing.
//     The engine under test has a twin that receives exactly the same calls
//     except the failed ones; after every document a probe pod is scheduled
//     on both and the two results (with nodeStatuses and scores) must be
//     identical. A twin is needed rather than a before/after probe on one
//     engine because a schedule call itself advances the engine's rotating
//     start index and its tie-break RNG (libsched/scheduler/scheduler.h);
//   - determinism: the twin accepts every document the engine accepted,
//     with the same summary, and schedules every document as a pod with the
//     same status and result (with ASSUME, so both keep assuming alike).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sched/sched.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

constexpr std::string_view kSeparator = "\n---\n";
constexpr size_t kMaxDocs = 8;
constexpr std::string_view kConfig = R"({"seed":42,"percentageOfNodesToScore":100})";
constexpr uint32_t kProbeFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

std::vector<std::string_view> SplitDocs(std::string_view in) {
  std::vector<std::string_view> docs;
  while (docs.size() + 1 < kMaxDocs) {
    const size_t at = in.find(kSeparator);
    if (at == std::string_view::npos) break;
    docs.push_back(in.substr(0, at));
    in.remove_prefix(at + kSeparator.size());
  }
  docs.push_back(in);
  return docs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  sched_engine* engines[2] = {fuzz::NewEngine(kConfig), fuzz::NewEngine(kConfig)};
  for (sched_engine* e : engines) {
    FUZZ_CHECK(fuzz::Apply(e, fuzz::kCluster) == SCHED_OK, "preload rejected");
    // An assumed pod the input can replace or delete ("fuzz/assumed").
    fuzz::Schedule(e, fuzz::kAssumedPod, SCHED_SCHEDULE_ASSUME);
  }

  for (std::string_view doc : SplitDocs(input)) {
    std::string summary;
    const sched_status st = fuzz::Apply(engines[0], doc, &summary);
    if (st == SCHED_OK) {
      std::string twin_summary;
      const sched_status twin_st = fuzz::Apply(engines[1], doc, &twin_summary);
      FUZZ_CHECK(twin_st == SCHED_OK && summary == twin_summary,
                 "the same apply on an identical engine gave %s / %s vs %s / %s",
                 sched_status_name(st), summary.c_str(), sched_status_name(twin_st),
                 twin_summary.c_str());
    }
    // Engine and twin have seen the same successful calls: any difference
    // is state a call changed (or failed to change) behind the contract.
    const std::string a = fuzz::Schedule(engines[0], fuzz::kProbePod, kProbeFlags);
    const std::string b = fuzz::Schedule(engines[1], fuzz::kProbePod, kProbeFlags);
    FUZZ_CHECK(a == b, "%s apply left a different state:\nengine: %s\ntwin:   %s",
               st == SCHED_OK ? "a successful" : "a FAILED (not atomic)", a.c_str(), b.c_str());

    // The document as a pod to schedule, on both.
    sched_status sa, sb;
    const std::string ra = fuzz::Schedule(engines[0], doc, fuzz::kAllFlags, &sa);
    const std::string rb = fuzz::Schedule(engines[1], doc, fuzz::kAllFlags, &sb);
    FUZZ_CHECK(sa == sb && ra == rb, "identical engines scheduled a pod differently:\n%s %s\n%s %s",
               sched_status_name(sa), ra.c_str(), sched_status_name(sb), rb.c_str());
  }

  for (sched_engine* e : engines) sched_engine_free(e);
  return 0;
}
