// The two renderings of a simulation: a table for people, one JSON object
// for programs.
#ifndef TOOLS_SCHEDSIM_OUTPUT_H_
#define TOOLS_SCHEDSIM_OUTPUT_H_

#include <ostream>

#include "sim.h"

namespace schedsim {

// {"placements":[{"pod","node"}],"unschedulable":[{"pod","message"}],
//  "ignored":{"Kind":N}[,"otherSchedulers":{"name":N}]
//  [,"preemptions":[{"pod","nominatedNodeName","victims":["ns/name"]}]]
//  ,"summary":{"nodes","boundPods","pending","placed","unschedulable",
//   "preemptions"[,"interrupted"]},"unschedulableReasons":[{"message","pods"}]
//  ,"utilization":{"poolLabel":"key"|null,"pools":[{"pool","nodes",
//   "before":{"cpu":{"requested","allocatable","percent"},"memory",
//   "pods",...},"after":{...}}]}
//  [,"explain":{...},"explains":[...]]}, one entry per line, in
// SimResult's order (docs/schedsim.md). Nothing time-dependent: the same
// seed prints the same bytes.
void PrintJson(std::ostream& out, const SimResult& r);

// Aligned POD / NODE / MESSAGE columns in SimResult's order (a message
// already shown reads "(same as NS/POD)"), then "placed N, pending M", the
// cluster's counts, the unschedulable messages with their pod counts,
// per-pool utilization before and after, ignored kinds, pods left to
// other schedulers, one line per preemption ("preemption: NS/POD nominated
// to NODE, evicted NS/A, NS/B"), and the --explain details.
void PrintTable(std::ostream& out, const SimResult& r);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_OUTPUT_H_
