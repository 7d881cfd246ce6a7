// Report: one workload run as a JSON object (the shape bench/compare.sh and
// the Go harness kube-scheduler/bench share) and as a row of a human table.
#ifndef BENCH_WORKLOAD_REPORT_H_
#define BENCH_WORKLOAD_REPORT_H_

#include <string>
#include <vector>

#include "plan.h"
#include "run.h"

namespace bench {

// One line of JSON:
//   {"impl","workload","nodes","entry","scale","initPods","measurePods",
//    "scheduled","unscheduled","attempts","preemptions","churnPods",
//    "seconds","podsPerSecond","cpuSeconds","podsPerCpuSecond",
//    "p50Ms","p99Ms","peakRssMiB",
//    "podsPerNode":{"<k>":<nodes carrying k pods>},
//    "podsPerZone":{"<zone>":<pods>}}
// podsPerSecond is over wall time, podsPerCpuSecond over the process's CPU
// time (what a loaded machine distorts less); p50/p99 are nearest-rank
// percentiles of Outcome::attempt_ms; peak RSS is the process's
// (getrusage), so one workload per process measures it.
std::string ReportJson(const std::string& impl, const Plan& plan, const Outcome& out,
                       double peak_rss_mib);

// A fixed-width table of the reports, a header line first.
std::string Table(const std::vector<std::string>& report_lines);

// Nearest-rank percentile `p` (0-100] of `v` (sorted in place); 0 if empty.
double Percentile(std::vector<double>& v, double p);

}  // namespace bench

#endif  // BENCH_WORKLOAD_REPORT_H_
