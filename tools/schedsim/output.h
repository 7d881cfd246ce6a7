// The two renderings of a simulation: a table for people, one JSON object
// for programs.
#ifndef TOOLS_SCHEDSIM_OUTPUT_H_
#define TOOLS_SCHEDSIM_OUTPUT_H_

#include <ostream>

#include "sim.h"

namespace schedsim {

// {"placements":[{"pod","node"}],"unschedulable":[{"pod","message"}],
//  "ignored":{"Kind":N}[,"otherSchedulers":{"name":N}][,"explain":{...}]},
// one entry per line, in queue order. Nothing time-dependent: the same seed
// prints the same bytes.
void PrintJson(std::ostream& out, const SimResult& r);

// Aligned POD / NODE / MESSAGE columns in queue order, then the summary line
// "placed N, pending M, X pods/s", ignored kinds, pods left to other
// schedulers, and the --explain details.
void PrintTable(std::ostream& out, const SimResult& r);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_OUTPUT_H_
