// QueuedPodInfo: a pending pod and its history in the scheduling queue,
// mirroring framework.QueuedPodInfo (pkg/scheduler/framework/types.go).
#ifndef LIBSCHED_QUEUE_QUEUED_POD_INFO_H_
#define LIBSCHED_QUEUE_QUEUED_POD_INFO_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "libsched/framework/cluster_event.h"
#include "libsched/model/pod.h"
#include "libsched/model/string_hash.h"
#include "libsched/queue/clock.h"
#include "libsched/state/cluster_state.h"  // PodKey: "namespace/name", the queue's key too

namespace sched {

struct QueuedPodInfo {
  std::shared_ptr<const Pod> pod;
  std::string key;  // PodKey(*pod)
  // StringHash of key, set with it: the queue's maps find the pod by
  // hashed_key() without hashing the key again.
  size_t key_hash = 0;
  // When the pod was added to the queue, or re-added after a failed attempt;
  // ties in priority pop the older first.
  Time timestamp{};
  int attempts = 0;                  // times popped
  int unschedulable_count = 0;       // attempts rejected by plugins
  int consecutive_errors_count = 0;  // attempts in a row that ended in an Error
  // Plugins that rejected the pod in its last attempt (PreEnqueue, PreFilter,
  // Filter); only their events can move it. Set by the scheduling cycle
  // before AddUnschedulableIfNotPresent; empty means "failed with an error".
  std::set<std::string, std::less<>> unschedulable_plugins;
  // The PreEnqueue plugin keeping the pod out of activeQ ("" when none) and
  // the events it registered for.
  std::string gating_plugin;
  std::vector<ClusterEvent> gating_plugin_events;
  // Cached backoff expiry (reset whenever the counts or timestamp change).
  std::optional<Time> backoff_expiration;
  // The queue that may write this in place (PriorityQueue's owner id);
  // any other clones it first, as may share it after a fork.
  uint64_t owner = 0;

  bool Gated() const { return !gating_plugin.empty(); }
  HashedKey hashed_key() const { return {key, key_hash}; }
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_QUEUED_POD_INFO_H_
