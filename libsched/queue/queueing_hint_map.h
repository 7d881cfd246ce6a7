// The queue's view of one profile's plugins: which plugin registered which
// events with which hint, and the PreEnqueue plugins. Mirrors
// buildQueueingHintMap (pkg/scheduler/scheduler.go) and the framework's
// defaultEnqueueExtension (a rejecting plugin without EnqueueExtensions
// registers every event).
#ifndef LIBSCHED_QUEUE_QUEUEING_HINT_MAP_H_
#define LIBSCHED_QUEUE_QUEUEING_HINT_MAP_H_

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/profile.h"
#include "libsched/state/cluster_state.h"

namespace sched {

struct QueueingHintFunction {
  ClusterEvent event;
  std::string plugin;
  QueueingHintFn hint;  // empty: Queue
};

struct ProfileQueueingHints {
  // In registration order (plugins in profile order).
  std::vector<QueueingHintFunction> hints;
  // Events per plugin, for pods a PreEnqueue plugin gates.
  std::map<std::string, std::vector<ClusterEvent>, std::less<>> plugin_events;
  std::vector<const PreEnqueuePlugin*> pre_enqueue;
  // The live state the PreEnqueue plugins read (the one the hints were
  // built with).
  const ClusterState* cluster = nullptr;
};

// Keyed by scheduler name.
using QueueingHintMapPerProfile = std::map<std::string, ProfileQueueingHints, std::less<>>;

// Builds the hints of `profile`. A plugin registering Node/Add but not
// Node/UpdateNodeTaint also gets Node/UpdateNodeTaint with no hint, as
// upstream. REQUIRES: `profile` and `cluster` outlive the result.
ProfileQueueingHints BuildProfileQueueingHints(const Profile& profile, const ClusterState& cluster);

}  // namespace sched

#endif  // LIBSCHED_QUEUE_QUEUEING_HINT_MAP_H_
