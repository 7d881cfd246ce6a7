// The export format of kubernetes-sigs/kube-scheduler-simulator: one JSON
// object {"pods":[...],"nodes":[...],"pvs":[...],"pvcs":[...],
// "storageClasses":[...],"priorityClasses":[...],"schedulerConfig":{...}}
// whose objects carry no kind (the simulator writes typed structs).
#ifndef TOOLS_SCHEDSIM_SIMULATOR_EXPORT_H_
#define TOOLS_SCHEDSIM_SIMULATOR_EXPORT_H_

#include <vector>

#include "input.h"

namespace schedsim {

// Whether `v` (a document's root) is such an export: an object without
// "kind" that has at least one of the keys above.
bool IsSimulatorExport(const cJSON* v);

// Adds each listed object, given its kind and apiVersion, to `out` (at
// loc.pods[i] etc.) and records schedulerConfig in *config (the last one
// read wins). Throws InputError for a list that is not an array.
void ReadSimulatorExport(cJSON* v, const Loc& loc, std::vector<InputObject>& out,
                         SchedulerConfig* config);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_SIMULATOR_EXPORT_H_
