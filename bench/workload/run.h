// RunPlan: drives one engine through a Plan with the C API only, the way
// scheduler_perf drives kube-scheduler (test/integration/scheduler_perf):
// nodes and namespaces first, each createPods op submitted as pending pods
// and scheduled to completion through the engine's queue
// (sched_engine_run, one cycle per call), init ops unmeasured, then the
// measured op timed from its submission to its last placement. Preemption
// victims are deleted as the preemption executor would (DELETED events);
// churn pods are created on the wall clock while the measured op runs; a
// Rollover's rounds delete Deployments and replace nodes (plan.h).
#ifndef BENCH_WORKLOAD_RUN_H_
#define BENCH_WORKLOAD_RUN_H_

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "plan.h"

namespace bench {

// The engine failed a call (not a scheduling failure): the run is void.
class RunError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Outcome {
  int scheduled = 0;               // measured pods placed
  int unscheduled = 0;             // measured pods never placed
  int attempts = 0;                // scheduling cycles of measured pods
  int preemptions = 0;             // cycles (any pod) that nominated a node and evicted victims
  int churn_pods = 0;              // churn pods created during the measured op
  double seconds = 0;              // wall time of the measured op
  double cpu_seconds = 0;          // process CPU time (user + system) of the measured op
  std::vector<double> attempt_ms;  // per cycle of a measured pod, milliseconds
  std::map<std::string, std::string> placements;  // "ns/name" -> node, pods still bound at the end
};

// Runs `plan` on a new engine made with `config` (sched_engine_new's
// JSON). Throws RunError.
Outcome RunPlan(const Plan& plan, const std::string& config = "{}");

}  // namespace bench

#endif  // BENCH_WORKLOAD_RUN_H_
