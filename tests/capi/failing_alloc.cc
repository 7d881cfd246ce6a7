#include "tests/capi/failing_alloc.h"

#include <cJSON.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace sched::capi::testing {
namespace {

std::atomic<bool> armed{false};
std::atomic<long> counted{0};
std::atomic<long> fail_at{0};
std::atomic<long> bytes{0};

// Counts an allocation of n bytes; whether it is the one to fail.
bool Fails(std::size_t n) {
  if (!armed.load(std::memory_order_relaxed)) return false;
  bytes.fetch_add(static_cast<long>(n), std::memory_order_relaxed);
  return counted.fetch_add(1, std::memory_order_relaxed) + 1 == fail_at.load();
}

void* CJsonMalloc(size_t n) { return Fails(n) ? nullptr : std::malloc(n); }

void* Allocate(std::size_t n) {
  if (Fails(n)) return nullptr;
  return std::malloc(n == 0 ? 1 : n);
}

void* AllocateAligned(std::size_t n, std::align_val_t align) {
  if (Fails(n)) return nullptr;
  const auto a = static_cast<std::size_t>(align);
  return std::aligned_alloc(a, (n + a - 1) / a * a);
}

}  // namespace

void ArmAllocationFailure(long k) {
  counted = 0;
  bytes = 0;
  fail_at = k;
  armed = true;
}

long DisarmAllocationFailure() {
  armed = false;
  return counted.load();
}

long AllocatedBytes() { return bytes.load(); }

void InstallCJsonAllocationHooks() {
  cJSON_Hooks hooks{CJsonMalloc, std::free};
  cJSON_InitHooks(&hooks);
}

}  // namespace sched::capi::testing

using sched::capi::testing::Allocate;
using sched::capi::testing::AllocateAligned;

void* operator new(std::size_t n) {
  if (void* p = Allocate(n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return Allocate(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return Allocate(n); }
void* operator new(std::size_t n, std::align_val_t a) {
  if (void* p = AllocateAligned(n, a)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return AllocateAligned(n, a);
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  return AllocateAligned(n, a);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
