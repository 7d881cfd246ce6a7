// Parallelizer: runs a cycle's per-node work in chunks on a fixed pool of
// threads, mirroring parallelize.Parallelizer.Until
// (pkg/scheduler/framework/parallelize/parallelism.go): chunks of
// ChunkSizeFor(pieces, parallelism) pieces are handed out in increasing
// order, and once the work asks to stop no further chunk starts (upstream's
// cancelled context).
//
// The threads are started once, by the constructor, and live until the
// destructor: a cycle starts no thread. The calling thread works too, so
// parallelism N starts N - 1 threads; parallelism 1 starts none and runs
// everything inline.
//
// Work too small to pay for waking a thread runs inline on the caller: the
// caller states what a piece costs, and below min_parallel_nanos of work in
// all Until runs the chunks itself, in order, stopping after the one that
// asked to (a prefix, as with threads). Callers cut speculative work by
// order, never by which thread ran it, so the outcome is the same.
//
// Thread-safety: Until may be called from any thread; calls serialize on an
// internal mutex. REQUIRES: `chunk` does not call Until (no nesting).
#ifndef LIBSCHED_FRAMEWORK_PARALLELIZE_H_
#define LIBSCHED_FRAMEWORK_PARALLELIZE_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace sched {

// chunkSizeFor: max(1, min(sqrt(n), n / parallelism + 1)).
size_t ChunkSizeFor(size_t n, int parallelism);

// Serial work below which Until does not wake a thread. A wake-up costs the
// caller a futex call and the helper a context switch and cold caches
// (~5-10 µs together on an idle machine, more when loaded): with two
// threads, 20 µs of work split in halves gains about what the wake costs.
inline constexpr int64_t kMinParallelNanos = 20'000;

// Rough costs of a piece, for Until's estimate: one plugin's Filter or
// Score on one node, and one arithmetic pass over one score cell.
inline constexpr int64_t kNanosPerPluginCall = 30;
inline constexpr int64_t kNanosPerScoreCell = 2;

// Work on [begin, end); returns false to stop: no chunk starts after it
// (chunks already started finish). A non-owning reference to a callable
// (no allocation per call, unlike std::function): it must outlive Until.
class ChunkFn {
 public:
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, ChunkFn>)
      ChunkFn(F&& f)  // NOLINT(google-explicit-constructor): lambdas convert
      : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, size_t b, size_t e) {
          return static_cast<bool>((*static_cast<std::remove_reference_t<F>*>(o))(b, e));
        }) {}
  bool operator()(size_t begin, size_t end) const { return call_(obj_, begin, end); }

 private:
  void* obj_;
  bool (*call_)(void*, size_t, size_t);
};

class Parallelizer {
 public:
  // REQUIRES: parallelism >= 1, min_parallel_nanos >= 0 (0: every call
  // with more than one chunk wakes threads; tests use it).
  explicit Parallelizer(int parallelism, int64_t min_parallel_nanos = kMinParallelNanos);
  ~Parallelizer();
  Parallelizer(const Parallelizer&) = delete;
  Parallelizer& operator=(const Parallelizer&) = delete;

  int parallelism() const { return parallelism_; }

  // Calls `chunk` over consecutive chunks covering [0, pieces), from up to
  // parallelism threads, and returns when every started chunk has finished.
  // Chunks are claimed in increasing order, so the chunks that ran always
  // form a prefix of [0, pieces). With parallelism 1 every piece is its own
  // chunk, run in order on the calling thread: work stops right after the
  // piece that asked to, as a serial loop would. A call whose
  // pieces * nanos_per_piece is below min_parallel_nanos runs its chunks
  // on the calling thread, in order.
  void Until(size_t pieces, int64_t nanos_per_piece, ChunkFn chunk);

 private:
  struct Job;
  // Claims and runs chunks of `job` until none is left or one said stop.
  static void Work(Job& job);
  void WorkerLoop();

  const int parallelism_;
  const int64_t min_parallel_nanos_;
  std::mutex call_mu_;  // serializes Until
  std::mutex mu_;       // guards the fields below
  std::condition_variable wake_;
  std::condition_variable done_;
  Job* job_ = nullptr;
  uint64_t epoch_ = 0;  // bumped per job, so a worker joins a job at most once
  int wanted_ = 0;      // helpers the current job may still take
  int running_ = 0;     // helpers inside Work
  bool shutdown_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_PARALLELIZE_H_
