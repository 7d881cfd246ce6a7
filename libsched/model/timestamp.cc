#include "libsched/model/timestamp.h"

#include <chrono>

namespace sched {
namespace {

// Reads `n` digits at s[*i].
bool Digits(std::string_view s, size_t* i, int n, int64_t* out) {
  *out = 0;
  for (int k = 0; k < n; ++k, ++*i) {
    if (*i >= s.size() || s[*i] < '0' || s[*i] > '9') return false;
    *out = *out * 10 + (s[*i] - '0');
  }
  return true;
}

bool Expect(std::string_view s, size_t* i, char c) {
  if (*i >= s.size() || s[*i] != c) return false;
  ++*i;
  return true;
}

}  // namespace

std::optional<int64_t> ParseRfc3339(std::string_view s) {
  size_t i = 0;
  int64_t y, mo, d, h, mi, sec;
  if (!Digits(s, &i, 4, &y) || !Expect(s, &i, '-') || !Digits(s, &i, 2, &mo) ||
      !Expect(s, &i, '-') || !Digits(s, &i, 2, &d) || !Expect(s, &i, 'T') ||
      !Digits(s, &i, 2, &h) || !Expect(s, &i, ':') || !Digits(s, &i, 2, &mi) ||
      !Expect(s, &i, ':') || !Digits(s, &i, 2, &sec)) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(static_cast<int>(y)),
                                         std::chrono::month(static_cast<unsigned>(mo)),
                                         std::chrono::day(static_cast<unsigned>(d))};
  if (!date.ok() || h > 23 || mi > 59 || sec > 59 || y < 1678 || y > 2261) return std::nullopt;
  int64_t nanos = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    int digits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++digits) {
      if (digits == 9) return std::nullopt;
      nanos = nanos * 10 + (s[i] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 9; ++digits) nanos *= 10;
  }
  int64_t offset = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    const int64_t sign = s[i++] == '-' ? -1 : 1;
    int64_t oh, om;
    if (!Digits(s, &i, 2, &oh) || !Expect(s, &i, ':') || !Digits(s, &i, 2, &om) || oh > 23 ||
        om > 59) {
      return std::nullopt;
    }
    offset = sign * (oh * 3600 + om * 60);
  } else if (!Expect(s, &i, 'Z')) {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  const int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
  const int64_t seconds = days * 86400 + h * 3600 + mi * 60 + sec - offset;
  return seconds * 1'000'000'000 + nanos;
}

}  // namespace sched
