#include "progress.h"

#include <unistd.h>

#include <cstdio>

namespace schedsim {

Progress::Progress(size_t total, bool force)
    : total_(total), enabled_(force || isatty(STDERR_FILENO) == 1) {}

Progress::~Progress() {
  if (shown_) std::fputs("\r\033[K", stderr);  // leave the terminal clean
}

void Progress::Update(size_t done) {
  if (!enabled_) return;
  Clock::time_point now = Clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_draw_ < std::chrono::milliseconds(100)) {
    return;
  }
  last_draw_ = now;
  shown_ = true;
  double secs = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stderr, "\r\033[Kscheduling: %zu/%zu pods, %.0f pods/s", done, total_,
               static_cast<double>(done) / secs);
}

}  // namespace schedsim
