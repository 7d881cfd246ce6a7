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
// Thread-safety: Until may be called from any thread; calls serialize on an
// internal mutex. REQUIRES: `chunk` does not call Until (no nesting).
#ifndef LIBSCHED_FRAMEWORK_PARALLELIZE_H_
#define LIBSCHED_FRAMEWORK_PARALLELIZE_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace sched {

// chunkSizeFor: max(1, min(sqrt(n), n / parallelism + 1)).
size_t ChunkSizeFor(size_t n, int parallelism);

class Parallelizer {
 public:
  // Work on [begin, end); returns false to stop: no chunk starts after it
  // (chunks already started finish).
  using ChunkFn = std::function<bool(size_t begin, size_t end)>;

  // REQUIRES: parallelism >= 1.
  explicit Parallelizer(int parallelism);
  ~Parallelizer();
  Parallelizer(const Parallelizer&) = delete;
  Parallelizer& operator=(const Parallelizer&) = delete;

  int parallelism() const { return parallelism_; }

  // Calls `chunk` over consecutive chunks covering [0, pieces), from up to
  // parallelism threads, and returns when every started chunk has finished.
  // Chunks are claimed in increasing order, so the chunks that ran always
  // form a prefix of [0, pieces). With parallelism 1 every piece is its own
  // chunk, run in order on the calling thread: work stops right after the
  // piece that asked to, as a serial loop would.
  void Until(size_t pieces, const ChunkFn& chunk);

 private:
  struct Job;
  // Claims and runs chunks of `job` until none is left or one said stop.
  static void Work(Job& job);
  void WorkerLoop();

  const int parallelism_;
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
