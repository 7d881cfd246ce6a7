// `schedsim explain` for people: a sched_engine_explain document as tables.
#ifndef TOOLS_SCHEDSIM_EXPLANATION_H_
#define TOOLS_SCHEDSIM_EXPLANATION_H_

#include <cjson/cJSON.h>

#include <ostream>

namespace schedsim {

// The message and summary; the reasons with node counts; the nearest
// misses; every node's verdict; the feasible nodes' scores, best first,
// each cell "weighted (raw/normalized)".
void PrintExplanation(std::ostream& out, const cJSON* doc);

// `schedsim capacity` for people: the count, the replicas per node, and
// why the next replica fits nowhere.
void PrintCapacity(std::ostream& out, const cJSON* doc);
// `schedsim scale-up` for people: per template the estimate and the new
// nodes, the pods each leaves pending and why, the pods no template helps.
void PrintScaleUp(std::ostream& out, const cJSON* doc);

// `schedsim drain` for people: the verdict per node, where each pod goes
// (or why it fits nowhere, or which PDB blocks it), and the pods left.
void PrintDrain(std::ostream& out, const cJSON* doc);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_EXPLANATION_H_
