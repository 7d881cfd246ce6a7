// The sched_engine_explain document (docs/api.md, "Explain"): an
// Explanation (libsched/scheduler/explain.h) in JSON.
#ifndef CAPI_EXPLAIN_JSON_H_
#define CAPI_EXPLAIN_JSON_H_

#include <string>

#include "libsched/model/pod.h"
#include "libsched/scheduler/explain.h"

namespace sched::capi {

// {"pod","error","message","summary","numAllNodes","feasibleNodes",
//  "preFilter"?,"reasons","nearestMisses","scorePlugins","nodes"}
std::string ExplainJson(const Pod& pod, const Explanation& e);

}  // namespace sched::capi

#endif  // CAPI_EXPLAIN_JSON_H_
