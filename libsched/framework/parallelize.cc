#include "libsched/framework/parallelize.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace sched {

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

Parallelizer::Parallelizer(int parallelism, int64_t min_parallel_nanos)
    : parallelism_(parallelism), min_parallel_nanos_(min_parallel_nanos) {
  threads_.reserve(static_cast<size_t>(parallelism - 1));
  for (int i = 1; i < parallelism; ++i) threads_.emplace_back([this] { WorkerLoop(); });
}

Parallelizer::~Parallelizer() {
  {
    std::lock_guard<std::mutex> l(mu_);
    shutdown_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
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

void Parallelizer::WorkerLoop() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> l(mu_);
  for (;;) {
    wake_.wait(l, [&] { return shutdown_ || (epoch_ != seen && wanted_ > 0); });
    if (shutdown_) return;
    seen = epoch_;
    --wanted_;
    ++running_;
    Job* job = job_;
    l.unlock();
    Work(*job);
    l.lock();
    if (--running_ == 0) done_.notify_all();
  }
}

void Parallelizer::Until(size_t pieces, int64_t nanos_per_piece, ChunkFn chunk) {
  if (pieces == 0) return;
  const bool small = static_cast<double>(pieces) * static_cast<double>(nanos_per_piece) <
                     static_cast<double>(min_parallel_nanos_);
  if (parallelism_ == 1) {
    for (size_t i = 0; i < pieces; ++i) {
      if (!chunk(i, i + 1)) return;
    }
    return;
  }
  const size_t chunk_size = ChunkSizeFor(pieces, parallelism_);
  if (small) {
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
    std::lock_guard<std::mutex> l(mu_);
    job_ = &job;
    wanted_ = helpers;
    ++epoch_;
  }
  if (helpers > 0) wake_.notify_all();
  Work(job);
  std::unique_lock<std::mutex> l(mu_);
  // Helpers that have not woken yet would find nothing left to do.
  wanted_ = 0;
  done_.wait(l, [&] { return running_ == 0; });
  job_ = nullptr;
}

}  // namespace sched
