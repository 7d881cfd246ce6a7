// The simulator's scheduling queue: pending pods in the order they are
// scheduled.
#ifndef TOOLS_SCHEDSIM_QUEUE_H_
#define TOOLS_SCHEDSIM_QUEUE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json.h"
#include "loc.h"

namespace schedsim {

struct PendingPod {
  std::string key;  // "namespace/name"
  int32_t priority = 0;
  // metadata.creationTimestamp in seconds since the epoch; pods without one
  // are taken as created now, after every pod that has one.
  std::optional<int64_t> created;
  size_t order = 0;     // position in the input
  cJSON* json;          // the Pod
  // Where an engine error path inside the pod points in the input: the Pod
  // itself, or its workload's spec.template.
  Loc loc;
};

// metadata.creationTimestamp (RFC 3339, as the API server writes it).
std::optional<int64_t> ParseTimestamp(const cJSON* v, const Loc& loc);

// Queue order: priority descending, then creationTimestamp, then input order.
void SortQueue(std::vector<PendingPod>& queue);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_QUEUE_H_
