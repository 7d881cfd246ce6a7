// The sched_engine_queue document: where every pending pod is and why.
#ifndef CAPI_QUEUE_JSON_H_
#define CAPI_QUEUE_JSON_H_

#include <string>

#include "libsched/engine/reports.h"

namespace sched::capi {

// {"nowMillis":N,"schedulingCycle":N,"pods":[{"pod":"ns/name","queue":
//  "Active"|"Backoff"|"Unschedulable"|"InFlight","attempts":N,
//  "unschedulablePlugins":[...],"gatingPlugin"?:"...","queuedAtMillis"?:N,
//  "backoffExpiresAtMillis"?:N,"nominatedNodeName"?:"node"},...]}; pods in PriorityQueue::Snapshot
// order. Times are milliseconds on the engine's clock.
std::string QueueJson(const QueueReport& queue);

}  // namespace sched::capi

#endif  // CAPI_QUEUE_JSON_H_
