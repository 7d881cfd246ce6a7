// Table-driven checks of a plugin's queueing hints: each case an event, the
// rejected pod, the event's objects and the hint upstream's test expects.
// Test-only.
#ifndef LIBSCHED_TESTING_QUEUEING_HINTS_H_
#define LIBSCHED_TESTING_QUEUEING_HINTS_H_

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"

namespace sched::testing {

inline constexpr QueueingHint kQueue = QueueingHint::kQueue;
inline constexpr QueueingHint kSkip = QueueingHint::kQueueSkip;

struct HintCase {
  std::string name;
  ClusterEvent event;
  std::shared_ptr<const Pod> pod;
  EventObject old_obj;
  EventObject new_obj;
  QueueingHint want;
};

// Runs each case through the hint of the registration matching its event
// (no hint: Queue); a case whose event the plugin did not register fails.
inline void RunHints(const EnqueueExtensions& pl, const ClusterState& cluster,
                     const std::vector<HintCase>& cases) {
  const std::vector<ClusterEventWithHint> regs = pl.EventsToRegister(cluster);
  for (const HintCase& c : cases) {
    SCOPED_TRACE(c.name);
    const ClusterEventWithHint* reg = nullptr;
    for (const ClusterEventWithHint& r : regs) {
      if (r.event.Matches(c.event)) reg = &r;
    }
    ASSERT_NE(reg, nullptr) << "event not registered";
    const QueueingHint got = reg->hint ? reg->hint(*c.pod, c.old_obj, c.new_obj) : kQueue;
    EXPECT_EQ(got, c.want);
  }
}

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_QUEUEING_HINTS_H_
