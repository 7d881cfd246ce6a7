// Pod priority as the Priority admission plugin settles it before a pod
// reaches the scheduler.
#ifndef TOOLS_SCHEDSIM_PRIORITY_H_
#define TOOLS_SCHEDSIM_PRIORITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "diag.h"
#include "input.h"

namespace schedsim {

// The PriorityClasses admission knows: the input's, and the two the API
// server always creates (system-node-critical, system-cluster-critical).
struct PriorityClasses {
  PriorityClasses();
  std::unordered_map<std::string, int32_t> values;  // by name
  // The value of the globalDefault class (the lowest of several, as
  // admission picks it), for pods without priorityClassName.
  std::optional<int32_t> global_default;
};

// Records a PriorityClass object (metadata.name, value, globalDefault).
void AddPriorityClass(const InputObject& pc, PriorityClasses& classes);

// Settles the priority of the pod whose spec is `spec` (at `loc`) as
// admission would: spec.priority when set (checked to be an int32); else
// the value of its spec.priorityClassName, or of the globalDefault class
// when it names none, written to spec.priority so the engine sees it; else
// the engine's default, 0. A name no class has is reported to `diag` with
// admission's words (the API server refuses such a pod) and leaves 0.
void ResolvePriority(cJSON* spec, const Loc& loc, const PriorityClasses& classes,
                     Diagnostics& diag);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_PRIORITY_H_
