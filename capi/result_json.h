// The JSON documents the library returns: the sched_engine_apply summary
// and the sched_engine_schedule result, in the shapes sched.h documents.
#ifndef CAPI_RESULT_JSON_H_
#define CAPI_RESULT_JSON_H_

#include <cstdint>
#include <string>

#include "capi/decode.h"
#include "libsched/model/pod.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/state/cluster_state.h"

namespace sched::capi {

// {"applied":N,"ignored":{"<Kind>":N,...},"pendingPods":N}
std::string ApplySummaryJson(const ApplySummary& summary);

// {"pod","node","reason","message"?,"numAllNodes","evaluatedNodes",
//  "feasibleNodes","assumed","nodeStatuses"?,"scores"?}; the optional
// sections follow SCHED_SCHEDULE_NODE_STATUSES / SCHED_SCHEDULE_SCORES in
// `flags`. REQUIRES: `state` is unchanged since `r` was computed (r points
// into its NodeInfos).
std::string ScheduleResultJson(const Pod& pod, const ScheduleResult& r,
                               const ClusterState& state, uint32_t flags, bool assumed);

}  // namespace sched::capi

#endif  // CAPI_RESULT_JSON_H_
