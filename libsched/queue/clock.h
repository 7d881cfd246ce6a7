// Clock: the queue's only source of time, injected so that tests and the
// simulator drive time explicitly (upstream injects k8s.io/utils/clock and
// uses a fake clock in scheduling_queue_test.go). Nothing in the queue reads
// the real time.
#ifndef LIBSCHED_QUEUE_CLOCK_H_
#define LIBSCHED_QUEUE_CLOCK_H_

#include <chrono>

namespace sched {

// Time since the clock's origin (an arbitrary, fixed instant).
using Time = std::chrono::nanoseconds;
using Duration = std::chrono::nanoseconds;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time Now() const = 0;
};

// A clock that moves only when told. Not thread-safe.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(Time start = Time::zero()) : now_(start) {}
  Time Now() const override { return now_; }
  void Step(Duration d) { now_ += d; }

 private:
  Time now_;
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_CLOCK_H_
