// The sched_engine_stats document (docs/api.md, "Statistics").
#ifndef CAPI_STATS_JSON_H_
#define CAPI_STATS_JSON_H_

#include <string>

#include "libsched/engine/reports.h"

namespace sched::capi {

// {"equivalenceCache":{"enabled":B,"hits":N,"misses":N,"bypasses":N,
//  "scoreBypasses":N,"repairs":N,"reused":N,"parked":N},
//  "interner":{"strings":N,"bytes":N,"released":N}}
std::string StatsJson(const EngineStats& stats);

}  // namespace sched::capi

#endif  // CAPI_STATS_JSON_H_
