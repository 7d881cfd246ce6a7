// --explain for people: why each node was rejected and how the feasible
// nodes scored, from a schedule result made with
// SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES.
#ifndef TOOLS_SCHEDSIM_EXPLAIN_H_
#define TOOLS_SCHEDSIM_EXPLAIN_H_

#include <cjson/cJSON.h>

#include <ostream>

namespace schedsim {

void PrintExplain(std::ostream& out, const cJSON* result);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_EXPLAIN_H_
