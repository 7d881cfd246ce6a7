// The sched_engine_capacity document (docs/api.md, "Capacity"): a
// CapacityResult (libsched/engine/capacity.h) in JSON.
#ifndef CAPI_CAPACITY_JSON_H_
#define CAPI_CAPACITY_JSON_H_

#include <string>

#include "libsched/model/pod.h"
#include "libsched/engine/capacity.h"

namespace sched::capi {

// {"pod","replicas","capped","message","nodes":[{"node","replicas"}],
//  "placements":[...]}
std::string CapacityJson(const Pod& tmpl, const CapacityResult& r);

}  // namespace sched::capi

#endif  // CAPI_CAPACITY_JSON_H_
