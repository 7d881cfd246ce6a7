// The sched_engine_drain document (docs/api.md, "Drain"): a DrainResult
// (libsched/engine/drain.h) in JSON.
#ifndef CAPI_DRAIN_JSON_H_
#define CAPI_DRAIN_JSON_H_

#include <string>

#include "libsched/engine/drain.h"

namespace sched::capi {

// {"removable","nodes":[{"node","removable","moved","pending","blocked",
//  "left"}],"pods":[{"pod","from","node","message"?,"blockingPDB"?}],
//  "left":[{"pod","from","reason"}]}
std::string DrainJson(const DrainResult& r);

}  // namespace sched::capi

#endif  // CAPI_DRAIN_JSON_H_
