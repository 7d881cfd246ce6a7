// Allocation-failure injection for alloc_sweep_test: the test executable
// replaces the global operator new/delete (failing_alloc.cc) and installs
// cJSON allocation hooks, so that the k-th allocation after Arm(k) fails:
// operator new throws std::bad_alloc and cJSON's malloc returns null, as
// they would when memory runs out. Only this test executable links it.
//
// Not counted: the library's own malloc calls for strings it hands out
// (capi/c_string.h), which throw std::bad_alloc through the same path.
//
// Thread-safety: the engines under test run with parallelism 1; the
// counter is atomic anyway.
#ifndef TESTS_CAPI_FAILING_ALLOC_H_
#define TESTS_CAPI_FAILING_ALLOC_H_

namespace sched::capi::testing {

// Starts counting allocations; the k-th one (1-based) fails (none when 0).
void ArmAllocationFailure(long k);
// Stops counting; returns how many allocations were counted since Arm.
long DisarmAllocationFailure();
// The bytes those allocations asked for.
long AllocatedBytes();
// Installs the cJSON hooks (once, before any parse).
void InstallCJsonAllocationHooks();

}  // namespace sched::capi::testing

#endif  // TESTS_CAPI_FAILING_ALLOC_H_
