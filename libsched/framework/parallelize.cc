#include "libsched/framework/parallelize.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sched {
namespace {

// One step of a polling loop: tells the core the thread spins (x86 pause,
// Arm yield), which frees the sibling hyperthread and saves power.
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield");
#endif
}

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

size_t ChunkSizeFor(size_t n, int parallelism) {
  const size_t s = static_cast<size_t>(std::sqrt(static_cast<double>(n)));
  return std::max<size_t>(1, std::min(s, n / static_cast<size_t>(parallelism) + 1));
}

struct Parallelizer::Job {
  Job(ChunkFn f, size_t n, size_t size) : fn(f), pieces(n), chunk_size(size) {}
  ChunkFn fn;
  size_t pieces;
  size_t chunk_size;
  std::atomic<size_t> next_chunk{0};
  std::atomic<bool> stop{false};
};

Parallelizer::Parallelizer(int parallelism, int64_t min_parallel_nanos, int64_t poll_nanos)
    : parallelism_(parallelism),
      min_parallel_nanos_(min_parallel_nanos),
      min_parallel_awake_nanos_(std::min(min_parallel_nanos, kMinParallelAwakeNanos)),
      poll_nanos_(poll_nanos) {
  threads_.reserve(static_cast<size_t>(parallelism - 1));
  for (int i = 1; i < parallelism; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

Parallelizer::~Parallelizer() {
  shutdown_.store(true);
  WakeSleepers();
  for (std::thread& t : threads_) t.join();
}

void Parallelizer::WakeSleepers() {
  // The sleepers check their predicate under mu_: taking it after the
  // change they wait for means none is between its check and its wait.
  { std::lock_guard<std::mutex> l(mu_); }
  wake_.notify_all();
}

void Parallelizer::Work(Job& job) {
  while (!job.stop.load(std::memory_order_relaxed)) {
    const size_t begin = job.next_chunk.fetch_add(1, std::memory_order_relaxed) * job.chunk_size;
    if (begin >= job.pieces) return;
    if (!job.fn(begin, std::min(begin + job.chunk_size, job.pieces))) {
      job.stop.store(true, std::memory_order_relaxed);
    }
  }
}

bool Parallelizer::PollForNews(uint64_t seen) {
  if (poll_nanos_ <= 0) return false;
  polling_.fetch_add(1);
  const int64_t start = NowNanos();
  bool news = false;
  for (int spins = 0;; ++spins) {
    if (epoch_.load() != seen ||
        shutdown_.load(std::memory_order_relaxed)) {
      news = true;
      break;
    }
    CpuRelax();
    if (spins % 64 != 63) continue;
    if (NowNanos() - start >= poll_nanos_) break;
    // Offers the core to any other runnable thread (the caller's among
    // them, on a busy machine); returns at once on an idle one.
    std::this_thread::yield();
  }
  polling_.fetch_sub(1);
  return news;
}

void Parallelizer::TryJoin() {
  // Announce first, then claim: the caller clears wanted_ before it waits
  // for running_ to drop to 0, so (all sequentially consistent) either it
  // sees this helper running or this helper sees nothing wanted.
  running_.fetch_add(1);
  int wanted = wanted_.load();
  while (wanted > 0 && !wanted_.compare_exchange_weak(wanted, wanted - 1)) {
  }
  if (wanted > 0) Work(*job_.load());
  if (running_.fetch_sub(1) == 1 && caller_waiting_.load()) {
    std::lock_guard<std::mutex> l(mu_);
    done_.notify_all();
  }
}

void Parallelizer::WorkerLoop() {
  uint64_t seen = 0;
  bool poll = false;  // a job or a nudge came lately: poll before sleeping
  for (;;) {
    if (shutdown_.load()) return;
    const uint64_t epoch = epoch_.load();
    if (epoch != seen) {
      seen = epoch;
      poll = true;
      TryJoin();
      continue;
    }
    if (poll) {
      poll = false;
      if (PollForNews(seen)) continue;
    }
    std::unique_lock<std::mutex> l(mu_);
    wake_.wait(l, [&] { return shutdown_.load() || epoch_.load() != seen; });
  }
}

void Parallelizer::Until(size_t pieces, int64_t nanos_per_piece, ChunkFn chunk) {
  if (pieces == 0) return;
  if (parallelism_ == 1) {
    for (size_t i = 0; i < pieces; ++i) {
      if (!chunk(i, i + 1)) return;
    }
    return;
  }
  const double work = static_cast<double>(pieces) * static_cast<double>(nanos_per_piece);
  const bool awake = HelperAwake();
  const bool small = work < static_cast<double>(awake ? min_parallel_awake_nanos_
                                                      : min_parallel_nanos_);
  const size_t chunk_size = ChunkSizeFor(pieces, parallelism_);
  if (small) {
    // Work that would pay for a helper already awake: wake one now, so
    // that it polls for the next call (which comes soon when cycles run
    // back to back).
    if (!awake && work >= static_cast<double>(min_parallel_awake_nanos_)) Nudge();
    for (size_t begin = 0; begin < pieces; begin += chunk_size) {
      if (!chunk(begin, std::min(begin + chunk_size, pieces))) return;
    }
    return;
  }
  std::lock_guard<std::mutex> call(call_mu_);
  Job job(chunk, pieces, chunk_size);
  const size_t chunks = (pieces + job.chunk_size - 1) / job.chunk_size;
  // numWorkersForChunkSize: no more threads than chunks.
  const int helpers = static_cast<int>(std::min<size_t>(chunks, parallelism_)) - 1;
  if (helpers > 0) {
    job_.store(&job);
    wanted_.store(helpers);
    Nudge();
  }
  Work(job);
  if (helpers <= 0) return;
  // Helpers that have not joined yet would find nothing left to do.
  wanted_.store(0);
  // A helper still in its last chunk: poll for it (a futex wait and wake
  // cost more than most chunks; yielding lets a helper preempted on this
  // core finish), then sleep.
  const int64_t start = NowNanos();
  for (int spins = 0; running_.load() != 0; ++spins) {
    CpuRelax();
    if (spins % 64 != 63) continue;
    if (NowNanos() - start >= poll_nanos_) {
      std::unique_lock<std::mutex> l(mu_);
      caller_waiting_.store(true);
      done_.wait(l, [&] { return running_.load() == 0; });
      caller_waiting_.store(false);
      break;
    }
    std::this_thread::yield();
  }
}

void Parallelizer::Nudge() {
  epoch_.fetch_add(1);
  // No system call while every helper polls (the common case between
  // back-to-back cycles).
  if (polling_.load() < parallelism_ - 1) WakeSleepers();
}

}  // namespace sched
