#include "timestamp.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>

namespace schedsim {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Reads `n` digits at s[*i] into *out.
bool Digits(const std::string& s, size_t* i, int n, int64_t* out) {
  *out = 0;
  for (int k = 0; k < n; ++k, ++*i) {
    if (*i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[*i]))) return false;
    *out = *out * 10 + (s[*i] - '0');
  }
  return true;
}

bool Expect(const std::string& s, size_t* i, char c) {
  if (*i >= s.size() || std::toupper(static_cast<unsigned char>(s[*i])) != c) return false;
  ++*i;
  return true;
}

// "2006-01-02T15:04:05Z", with optional fractional seconds and a numeric
// offset in place of Z.
std::optional<int64_t> ParseRfc3339(const std::string& s) {
  size_t i = 0;
  int64_t y, mo, d, h, mi, sec;
  if (!Digits(s, &i, 4, &y) || !Expect(s, &i, '-') || !Digits(s, &i, 2, &mo) ||
      !Expect(s, &i, '-') || !Digits(s, &i, 2, &d) || !Expect(s, &i, 'T') ||
      !Digits(s, &i, 2, &h) || !Expect(s, &i, ':') || !Digits(s, &i, 2, &mi) ||
      !Expect(s, &i, ':') || !Digits(s, &i, 2, &sec)) {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  if (i < s.size() && s[i] == '.') {
    ++i;
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == start) return std::nullopt;
  }
  int64_t offset = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    int sign = s[i++] == '-' ? -1 : 1;
    int64_t oh, om;
    if (!Digits(s, &i, 2, &oh) || !Expect(s, &i, ':') || !Digits(s, &i, 2, &om)) {
      return std::nullopt;
    }
    offset = sign * (oh * 3600 + om * 60);
  } else if (!Expect(s, &i, 'Z')) {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  return DaysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset;
}

}  // namespace

void CheckTimestamp(const cJSON* v, const Loc& loc) {
  std::optional<std::string> s = OptString(v, loc);
  if (s && !ParseRfc3339(*s)) {
    throw InputError(loc, "must be an RFC 3339 time like 2024-01-02T15:04:05Z, got " + Quote(*s));
  }
}

}  // namespace schedsim
