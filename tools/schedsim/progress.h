// A progress line on stderr for long runs: shown only when stderr is a
// terminal (or when forced, --progress) and the run has lasted over a
// second, redrawn at most ten times a second, and erased when done. The
// caller updates it after each slice of scheduling cycles.
#ifndef TOOLS_SCHEDSIM_PROGRESS_H_
#define TOOLS_SCHEDSIM_PROGRESS_H_

#include <chrono>
#include <cstddef>

namespace schedsim {

class Progress {
 public:
  Progress(size_t total, bool force);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `done` pods of `total` are scheduled.
  void Update(size_t done);

 private:
  using Clock = std::chrono::steady_clock;
  size_t total_;
  bool enabled_;
  bool shown_ = false;
  Clock::time_point start_ = Clock::now();
  Clock::time_point last_draw_ = start_;
};

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_PROGRESS_H_
