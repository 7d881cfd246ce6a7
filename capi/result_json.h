// The JSON documents of the scheduling calls: the sched_engine_apply
// summary, the sched_engine_schedule result and the sched_engine_run
// results, in the shapes sched.h documents.
#ifndef CAPI_RESULT_JSON_H_
#define CAPI_RESULT_JSON_H_

#include <cstdint>
#include <span>
#include <string>

#include "capi/decode.h"
#include "libsched/engine/reports.h"

namespace sched::capi {

// {"applied":N,"ignored":{"<Kind>":N,...},"pendingPods":N}
std::string ApplySummaryJson(const ApplySummary& summary);

// {"pod","node","reason","message"?,"numAllNodes","evaluatedNodes",
//  "feasibleNodes","assumed","nominatedNodeName"?,"victims"?,
//  "nodeStatuses"?|"nodeStatusGroups"?,"scores"?,"scoreTotals"?}; the
// optional sections follow r.with_node_statuses,
// SCHED_SCHEDULE_NODE_STATUS_GROUPS, SCHED_SCHEDULE_SCORES and
// SCHED_SCHEDULE_SCORE_TOTALS in `flags`.
std::string ScheduleResultJson(const PodResult& r, uint32_t flags);
// {"results":[<ScheduleResultJson>,...]}
std::string RunResultJson(std::span<const PodResult> results, uint32_t flags);

}  // namespace sched::capi

#endif  // CAPI_RESULT_JSON_H_
