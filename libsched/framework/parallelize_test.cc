#include "libsched/framework/parallelize.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace sched {
namespace parallelize_test {
namespace {

// A piece cost that always pays for waking threads.
constexpr int64_t kHeavy = kMinParallelNanos;

TEST(ParallelizeTest, ChunkSizeFor) {
  struct Case {
    size_t n;
    int parallelism;
    size_t want;
  };
  const Case cases[] = {
      // parallelism_test.go TestChunkSize (DefaultParallelism 16).
      {32, 16, 3},
      {16, 16, 2},
      {1, 16, 1},
      {0, 16, 1},
      // sqrt(n) bounds it; then n / parallelism + 1.
      {5000, 2, 70},
      {100, 16, 7},
      {10, 1, 3},
      {3, 4, 1},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(ChunkSizeFor(c.n, c.parallelism), c.want) << c.n << " pieces, " << c.parallelism;
  }
}

TEST(ParallelizeTest, EveryPieceRunsExactlyOnce) {
  for (int parallelism : {1, 2, 3, 8}) {
    Parallelizer p(parallelism);
    for (size_t pieces : {0u, 1u, 2u, 7u, 100u, 5000u}) {
      std::vector<std::atomic<int>> runs(pieces);
      p.Until(pieces, kHeavy, [&](size_t begin, size_t end) {
        EXPECT_LT(begin, end);
        for (size_t i = begin; i < end; ++i) runs[i].fetch_add(1);
        return true;
      });
      for (size_t i = 0; i < pieces; ++i) {
        ASSERT_EQ(runs[i].load(), 1)
            << "piece " << i << " of " << pieces << ", parallelism " << parallelism;
      }
    }
  }
}

TEST(ParallelizeTest, StopLeavesAPrefixThatEndsAtOrAfterTheStoppingChunk) {
  constexpr size_t kPieces = 1000;
  constexpr size_t kStopAt = 300;  // the chunk holding this piece says stop
  for (int parallelism : {2, 4, 8}) {
    Parallelizer p(parallelism);
    std::vector<std::atomic<int>> runs(kPieces);
    p.Until(kPieces, kHeavy, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) runs[i].fetch_add(1);
      return !(begin <= kStopAt && kStopAt < end);
    });
    size_t ran = 0;
    while (ran < kPieces && runs[ran].load() == 1) ++ran;
    EXPECT_GT(ran, kStopAt) << parallelism;
    for (size_t i = ran; i < kPieces; ++i) {
      ASSERT_EQ(runs[i].load(), 0) << "not a prefix at " << i << ", parallelism " << parallelism;
    }
    // No upper bound on `ran`: while the stopping chunk runs (or its thread
    // is descheduled before it returns), the other threads may take any
    // number of later chunks. The TSan stage of CI saw 372 pieces where
    // "one chunk per other thread" allowed 362.
  }
}

TEST(ParallelizeTest, ParallelismOneRunsPiecesInOrderOnTheCallerAndStopsRightAway) {
  Parallelizer p(1);
  std::vector<std::pair<size_t, size_t>> chunks;
  const std::thread::id caller = std::this_thread::get_id();
  p.Until(10, kHeavy, [&](size_t begin, size_t end) {
    EXPECT_EQ(std::this_thread::get_id(), caller);
    chunks.emplace_back(begin, end);
    return begin < 4;
  });
  EXPECT_EQ(chunks,
            (std::vector<std::pair<size_t, size_t>>{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}));
}

TEST(ParallelizeTest, SmallWorkRunsOnTheCaller) {
  struct Case {
    int64_t min_parallel_nanos;
    size_t pieces;
    int64_t nanos_per_piece;
    bool want_inline;
  };
  const Case cases[] = {
      {kMinParallelNanos, 100, 10, true},                    // 1 µs of work
      {kMinParallelNanos, 9, kMinParallelNanos / 10, true},  // just below
      {kMinParallelNanos, 10, kMinParallelNanos / 10, false},
      {0, 100, 0, false},  // 0 turns the threshold off
  };
  for (const Case& c : cases) {
    Parallelizer p(2, c.min_parallel_nanos);
    const std::thread::id caller = std::this_thread::get_id();
    std::vector<std::pair<size_t, size_t>> chunks;
    bool all_on_caller = true;
    std::mutex mu;
    p.Until(c.pieces, c.nanos_per_piece, [&](size_t begin, size_t end) {
      std::lock_guard<std::mutex> l(mu);
      all_on_caller = all_on_caller && std::this_thread::get_id() == caller;
      chunks.emplace_back(begin, end);
      return true;
    });
    if (c.want_inline) {
      EXPECT_TRUE(all_on_caller) << c.pieces << " x " << c.nanos_per_piece;
      EXPECT_TRUE(std::is_sorted(chunks.begin(), chunks.end())) << "in order";
    }
    // Chunks of ChunkSizeFor pieces either way; inline, in order.
    const size_t size = ChunkSizeFor(c.pieces, 2);
    ASSERT_EQ(chunks.size(), (c.pieces + size - 1) / size) << c.pieces;
    std::sort(chunks.begin(), chunks.end());
    for (size_t k = 0; k < chunks.size(); ++k) {
      EXPECT_EQ(chunks[k].first, k * size) << c.pieces << " x " << c.nanos_per_piece;
    }
  }
}

TEST(ParallelizeTest, UsesSeveralThreadsAndSerializesConcurrentCalls) {
  Parallelizer p(4);
  std::mutex mu;
  std::vector<std::thread::id> ids;
  std::atomic<int> inside{0};
  std::atomic<bool> gave_up{false};  // wait once at most on a broken pool
  auto call = [&] {
    for (int round = 0; round < 20; ++round) {
      // The thread that takes chunk 0 holds it until another chunk has run,
      // so some other thread must join the call however busy the machine:
      // the other caller cannot (it waits for this call), so a pool thread
      // does. The bound only keeps a broken pool from hanging the test.
      std::atomic<int> others_done{0};
      p.Until(400, kHeavy, [&](size_t begin, size_t) {
        EXPECT_LE(inside.fetch_add(1) + 1, 4);  // one Until at a time
        {
          std::lock_guard<std::mutex> l(mu);
          ids.push_back(std::this_thread::get_id());
        }
        if (begin == 0) {
          const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
          while (others_done.load() == 0 && !gave_up.load()) {
            if (std::chrono::steady_clock::now() > deadline) gave_up.store(true);
            std::this_thread::yield();
          }
          EXPECT_GT(others_done.load(), 0) << "no other thread ran a chunk";
        } else {
          others_done.fetch_add(1);
        }
        inside.fetch_sub(1);
        return true;
      });
    }
  };
  std::thread other(call);
  const std::thread::id callers[] = {std::this_thread::get_id(), other.get_id()};
  call();
  other.join();
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  // At least one pool thread took part.
  const auto is_caller = [&](std::thread::id id) {
    return id == callers[0] || id == callers[1];
  };
  EXPECT_TRUE(std::any_of(ids.begin(), ids.end(), [&](std::thread::id id) { return !is_caller(id); }));
}

}  // namespace
}  // namespace parallelize_test
}  // namespace sched
