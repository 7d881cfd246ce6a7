// The simulation: load the cluster into an engine through the C API, then
// schedule the queue one pod at a time, each assumed before the next.
#ifndef TOOLS_SCHEDSIM_SIM_H_
#define TOOLS_SCHEDSIM_SIM_H_

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster.h"
#include "json.h"

namespace schedsim {

struct SimOptions {
  std::optional<uint64_t> seed;  // engine default when unset
  std::string explain;           // "ns/name" of the pod to explain, or ""
};

struct Outcome {
  std::string pod;      // "ns/name"
  std::string node;     // "" when the pod fits nowhere
  std::string message;  // why not, when node is ""
};

struct SimResult {
  std::vector<Outcome> outcomes;  // in queue order
  JsonPtr ignored;                // {"Kind":N,...} as the engine counted them
  // Pending pods not scheduled because they name another scheduler.
  std::map<std::string, int64_t> other_schedulers;
  // The explained pod's schedule result, with node statuses and scores.
  JsonPtr explain;
  double seconds = 0;  // wall time of the scheduling loop
};

// A failure inside the engine that is not about the input: exit status 1.
class EngineError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws InputError (the engine rejected an object; the message names the
// file and field) or EngineError.
SimResult Simulate(const Cluster& cluster, const SimOptions& options);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_SIM_H_
