// libFuzzer target: the quantity parser (libsched/model/quantity.h) on
// arbitrary bytes.
//
// What is checked, and why it is implied by quantity.h/.cc (both functions
// share one parse, which yields a magnitude N >= 0 in nano-units, rounded up,
// and a sign; Milli is ceil(N / 10^6), Value is ceil(N / 10^9) for
// non-negative input):
//   - determinism, and errors are exactly the two documented messages with
//     value 0;
//   - a syntax error in one function is a syntax error in the other;
//   - Value out of range implies Milli not OK (|Milli| >= |Value| * 1000
//     - 1000, so Milli overflows too);
//   - a byte outside upstream's alphabet "0-9+-.eEinumkKMGTP" (so any
//     whitespace) is a syntax error; so is the empty string;
//   - both OK and not negative: Milli >= 0, Value >= 0,
//     (Value - 1) * 1000 < Milli <= Value * 1000 when Value > 0, and
//     Milli == 0 iff Value == 0. That is all ceil rounding implies: Milli ==
//     Value * 1000 is NOT required ("1500m" has Milli 1500, Value 2);
//   - both OK and negative ("-..."): upstream rounds negatives two ways
//     (away from zero on its int64 path, truncate-then-plus-one on its inf.Dec
//     path), so only Milli <= 1, Value <= 1 and
//     -1999 <= Milli - 1000 * Value <= 999 hold on both;
//   - a differential oracle for the plain form "D[.F][suffix]" (at most 18
//     digits, no sign, no exponent), computed exactly with 128-bit integers.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "libsched/model/quantity.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr std::string_view kSyntaxError = "invalid quantity syntax";
constexpr std::string_view kRangeError = "quantity out of range";

std::string Printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    }
  }
  return out;
}

// The expected outcome of one function: a value or a range error.
struct Expected {
  bool range_error = false;
  int64_t value = 0;
};

U128 Pow10(int n) {
  U128 p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

// ceil(d * 10^scale) for d < 10^18, |scale| <= 30.
Expected DecimalScaled(U128 d, int scale) {
  if (d == 0) return {false, 0};
  U128 v;
  if (scale >= 0) {
    if (scale > 19) return {true, 0};  // >= 10^20 > INT64_MAX
    v = d * Pow10(scale);
  } else {
    const U128 div = Pow10(-scale);
    v = d / div + (d % div != 0);
  }
  if (v > static_cast<U128>(kInt64Max)) return {true, 0};
  return {false, static_cast<int64_t>(v)};
}

struct Oracle {
  Expected milli, value;
};

// Exact results for "D[.F][suffix]" with 1..18 digits in total, or nullopt
// when `s` is not of that form.
std::optional<Oracle> PlainForm(std::string_view s) {
  size_t pos = 0, n_digits = 0, frac = 0;
  U128 d = 0;
  while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') d = d * 10 + (s[pos++] - '0');
  if (pos == 0) return std::nullopt;
  n_digits = pos;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      d = d * 10 + (s[pos++] - '0');
      ++frac;
    }
  }
  n_digits += frac;
  if (n_digits > 18) return std::nullopt;
  const std::string_view suffix = s.substr(pos);
  struct Entry {
    std::string_view name;
    bool binary;
    int exp;
  };
  static constexpr Entry kTable[] = {
      {"", false, 0},   {"n", false, -9}, {"u", false, -6}, {"m", false, -3},
      {"k", false, 3},  {"M", false, 6},  {"G", false, 9},  {"T", false, 12},
      {"P", false, 15}, {"E", false, 18}, {"Ki", true, 10}, {"Mi", true, 20},
      {"Gi", true, 30}, {"Ti", true, 40}, {"Pi", true, 50}, {"Ei", true, 60},
  };
  for (const Entry& e : kTable) {
    if (e.name != suffix) continue;
    const int f = static_cast<int>(frac);
    if (!e.binary) {
      return Oracle{DecimalScaled(d, e.exp - f + 3), DecimalScaled(d, e.exp - f)};
    }
    // d * 2^exp / 10^f; d < 2^60 and exp <= 60, so u < 2^120.
    const U128 u = d << e.exp;
    const U128 div = Pow10(f);
    const U128 q = u / div, r = u % div;
    const U128 value = q + (r != 0);
    // Binary values above INT64_MAX units are capped there, and the capped
    // value in milli-units is out of range.
    if (value > static_cast<U128>(kInt64Max)) return Oracle{{true, 0}, {false, kInt64Max}};
    Oracle o;
    o.value = {false, static_cast<int64_t>(value)};
    const U128 milli = q * 1000 + (r * 1000 / div) + (r * 1000 % div != 0);
    if (milli > static_cast<U128>(kInt64Max)) {
      o.milli = {true, 0};
    } else {
      o.milli = {false, static_cast<int64_t>(milli)};
    }
    return o;
  }
  return std::nullopt;
}

void CheckAgainst(const char* fn, std::string_view s, const sched::QuantityResult& got,
                  const Expected& want) {
  if (want.range_error) {
    FUZZ_CHECK(got.error == kRangeError, "%s(\"%s\"): want a range error, got %lld / \"%s\"", fn,
               Printable(s).c_str(), static_cast<long long>(got.value), got.error.c_str());
  } else {
    FUZZ_CHECK(got.ok() && got.value == want.value, "%s(\"%s\"): want %lld, got %lld / \"%s\"",
               fn, Printable(s).c_str(), static_cast<long long>(want.value),
               static_cast<long long>(got.value), got.error.c_str());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view s(reinterpret_cast<const char*>(data), size);
  const std::string p = Printable(s);

  const sched::QuantityResult m = sched::ParseQuantityMilli(s);
  const sched::QuantityResult v = sched::ParseQuantityValue(s);
  const sched::QuantityResult m2 = sched::ParseQuantityMilli(s);
  const sched::QuantityResult v2 = sched::ParseQuantityValue(s);
  FUZZ_CHECK(m.value == m2.value && m.error == m2.error && v.value == v2.value &&
                 v.error == v2.error,
             "not deterministic on \"%s\"", p.c_str());

  for (const sched::QuantityResult* r : {&m, &v}) {
    FUZZ_CHECK(r->ok() || r->error == kSyntaxError || r->error == kRangeError,
               "unexpected error \"%s\" on \"%s\"", r->error.c_str(), p.c_str());
    FUZZ_CHECK(r->ok() || r->value == 0, "error with a nonzero value on \"%s\"", p.c_str());
  }
  FUZZ_CHECK((m.error == kSyntaxError) == (v.error == kSyntaxError),
             "syntax verdicts differ on \"%s\": milli \"%s\", value \"%s\"", p.c_str(),
             m.error.c_str(), v.error.c_str());
  FUZZ_CHECK(v.error != kRangeError || !m.ok(),
             "Value out of range but Milli %lld on \"%s\"", static_cast<long long>(m.value),
             p.c_str());

  const bool foreign_byte =
      s.find_first_not_of("0123456789+-.eEinumkKMGTP") != std::string_view::npos;
  if (s.empty() || foreign_byte) {
    FUZZ_CHECK(m.error == kSyntaxError, "\"%s\" parsed (milli %lld, \"%s\")", p.c_str(),
               static_cast<long long>(m.value), m.error.c_str());
  }

  if (m.ok() && v.ok()) {
    const I128 mi = m.value, vi = v.value;
    if (s[0] != '-') {
      FUZZ_CHECK(mi >= 0 && vi >= 0, "negative result for \"%s\": milli %lld value %lld",
                 p.c_str(), static_cast<long long>(m.value), static_cast<long long>(v.value));
      FUZZ_CHECK((mi == 0) == (vi == 0), "zero mismatch for \"%s\": milli %lld value %lld",
                 p.c_str(), static_cast<long long>(m.value), static_cast<long long>(v.value));
      FUZZ_CHECK(vi == 0 || ((vi - 1) * 1000 < mi && mi <= vi * 1000),
                 "ceil rounding violated for \"%s\": milli %lld value %lld", p.c_str(),
                 static_cast<long long>(m.value), static_cast<long long>(v.value));
    } else {
      FUZZ_CHECK(mi <= 1 && vi <= 1 && -1999 <= mi - 1000 * vi && mi - 1000 * vi <= 999,
                 "negative rounding out of bounds for \"%s\": milli %lld value %lld", p.c_str(),
                 static_cast<long long>(m.value), static_cast<long long>(v.value));
    }
  }

  if (const std::optional<Oracle> o = PlainForm(s)) {
    CheckAgainst("ParseQuantityMilli", s, m, o->milli);
    CheckAgainst("ParseQuantityValue", s, v, o->value);
  }
  return 0;
}
