// An Engine configured with the default profile, for tests and benchmarks
// that drive it in model types. Test-only: never linked into the library.
#ifndef LIBSCHED_TESTING_DEFAULT_ENGINE_H_
#define LIBSCHED_TESTING_DEFAULT_ENGINE_H_

#include <cstdint>
#include <memory>

#include "libsched/engine/engine.h"

namespace sched::testing {

// The default profile (schedulerName "default-scheduler", the default
// plugins), selectHost seeded with `seed`, cycles on the calling thread
// only (parallelism 1).
std::unique_ptr<Engine> NewDefaultEngine(uint64_t seed);

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_DEFAULT_ENGINE_H_
