// Pod priority as the Priority admission plugin settles it before a pod
// reaches the scheduler.
#ifndef TOOLS_SCHEDSIM_PRIORITY_H_
#define TOOLS_SCHEDSIM_PRIORITY_H_

#include <cstdint>
#include <string>
#include <unordered_map>

#include "input.h"

namespace schedsim {

// PriorityClass values by name.
using PriorityClasses = std::unordered_map<std::string, int32_t>;

// Records a PriorityClass object (metadata.name, value).
void AddPriorityClass(const InputObject& pc, PriorityClasses& classes);

// Settles the priority of the pod whose spec is `spec` (at `loc`) as
// admission would: spec.priority when set (checked to be an int32); else
// the value of its spec.priorityClassName when that class is in the input,
// written to spec.priority so the engine sees it; else the engine's
// default, 0.
void ResolvePriority(cJSON* spec, const Loc& loc, const PriorityClasses& classes);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_PRIORITY_H_
