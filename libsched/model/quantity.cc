#include "libsched/model/quantity.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace sched {
namespace {

// __extension__ keeps -Wpedantic quiet about the GCC/Clang 128-bit types.
__extension__ typedef unsigned __int128 U128;
__extension__ typedef __int128 I128;

constexpr char kSyntaxError[] = "invalid quantity syntax";
constexpr char kRangeError[] = "quantity out of range";

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr uint64_t kNanosPerUnit = 1'000'000'000;
constexpr uint64_t kNanosPerMilli = 1'000'000;
// Any magnitude above this many nano-units is out of int64 range in every
// unit we return (2^63 units is ~9.2e27 nanos); saturating here keeps all
// arithmetic within 128 bits.
constexpr U128 kMaxNanos =
    U128{10'000'000'000'000'000'000ULL} * 10'000'000'000ULL;  // 10^29

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsSign(char c) { return c == '+' || c == '-'; }

// The letters upstream's scanner allows to start a suffix.
bool IsSuffixLetter(char c) {
  return std::string_view("eEinumkKMGTP").find(c) != std::string_view::npos;
}

struct Suffix {
  bool binary = false;
  int32_t exponent = 0;  // of 2 when binary, else of 10
};

// strconv.ParseInt(s, 10, 64): an optional sign and at least one digit.
std::optional<int64_t> ParseInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && IsSign(s[0])) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  constexpr uint64_t kLimit = uint64_t{1} << 63;  // |INT64_MIN|
  uint64_t mag = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (mag > (kLimit - d) / 10) return std::nullopt;
    mag = mag * 10 + d;
  }
  if (!negative && mag == kLimit) return std::nullopt;
  // Two's complement wrap is well defined since C++20 and yields INT64_MIN
  // for a magnitude of 2^63.
  return static_cast<int64_t>(negative ? 0 - mag : mag);
}

std::optional<Suffix> InterpretSuffix(std::string_view s) {
  struct Entry {
    std::string_view name;
    Suffix suffix;
  };
  static constexpr Entry kTable[] = {
      {"", {false, 0}},    {"n", {false, -9}},  {"u", {false, -6}},
      {"m", {false, -3}},  {"k", {false, 3}},   {"M", {false, 6}},
      {"G", {false, 9}},   {"T", {false, 12}},  {"P", {false, 15}},
      {"E", {false, 18}},  {"Ki", {true, 10}},  {"Mi", {true, 20}},
      {"Gi", {true, 30}},  {"Ti", {true, 40}},  {"Pi", {true, 50}},
      {"Ei", {true, 60}},
  };
  for (const Entry& e : kTable) {
    if (e.name == s) return e.suffix;
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    const std::optional<int64_t> exp = ParseInt64(s.substr(1));
    if (!exp) return std::nullopt;
    // Upstream converts with int32(parsed), silently dropping high bits.
    return Suffix{false, static_cast<int32_t>(*exp)};
  }
  return std::nullopt;
}

// Decimal digits of `digits` * 2^shift, shift <= 60. The carry stays below
// 2^60, so digit * 2^shift + carry < 10 * 2^60 fits in 64 bits.
std::string MultiplyByPowerOfTwo(std::string_view digits, int shift) {
  const uint64_t factor = uint64_t{1} << shift;
  std::string low(digits);
  uint64_t carry = 0;
  for (auto it = low.rbegin(); it != low.rend(); ++it) {
    const uint64_t cur = static_cast<uint64_t>(*it - '0') * factor + carry;
    *it = static_cast<char>('0' + cur % 10);
    carry = cur / 10;
  }
  std::string high;
  for (; carry != 0; carry /= 10) {
    high.push_back(static_cast<char>('0' + carry % 10));
  }
  std::reverse(high.begin(), high.end());
  return high + low;
}

// ceil(digits * 10^exp10), or nullopt above kMaxNanos.
std::optional<U128> CeilScaled(std::string_view digits, int64_t exp10) {
  const int64_t n = static_cast<int64_t>(digits.size());
  const int64_t whole = n + exp10;  // digits left of the decimal point
  const size_t int_digits =
      static_cast<size_t>(std::clamp<int64_t>(whole, 0, n));
  U128 acc = 0;
  for (size_t i = 0; i < int_digits; ++i) {
    acc = acc * 10 + static_cast<unsigned>(digits[i] - '0');
    if (acc > kMaxNanos) return std::nullopt;
  }
  // Zeros implied by a positive exponent; stops early for zero or overflow,
  // so a huge exponent costs nothing.
  for (int64_t z = n; z < whole && acc != 0; ++z) {
    acc *= 10;
    if (acc > kMaxNanos) return std::nullopt;
  }
  if (digits.find_first_not_of('0', int_digits) != std::string_view::npos) {
    ++acc;
  }
  if (acc > kMaxNanos) return std::nullopt;
  return acc;
}

// A parsed quantity: its magnitude rounded up to whole nano-units, which is
// exactly what upstream keeps (its parser rounds up to 1n), and which of
// upstream's two representations holds it, since that decides how negative
// values are rounded later.
struct Parsed {
  bool negative = false;
  bool int64_amount = false;  // int64Amount (else inf.Dec)
  std::optional<U128> nanos;  // nullopt: above kMaxNanos
};

std::optional<Parsed> Parse(std::string_view s) {
  if (s.empty()) return std::nullopt;
  Parsed p;
  size_t pos = 0;
  if (IsSign(s[0])) {
    p.negative = s[0] == '-';
    ++pos;
  }
  const size_t zeros_begin = pos;
  while (pos < s.size() && s[pos] == '0') ++pos;
  const bool leading_zeros = pos > zeros_begin;
  const size_t num_begin = pos;
  while (pos < s.size() && IsDigit(s[pos])) ++pos;
  const std::string_view num = s.substr(num_begin, pos - num_begin);
  std::string_view denom;
  if (pos < s.size() && s[pos] == '.') {
    const size_t denom_begin = ++pos;
    while (pos < s.size() && IsDigit(s[pos])) ++pos;
    denom = s.substr(denom_begin, pos - denom_begin);
  }
  const bool has_digits = leading_zeros || !num.empty() || !denom.empty();

  // Suffix: letters, then an optional sign and digits (for exponents).
  const size_t suffix_begin = pos;
  while (pos < s.size() && IsSuffixLetter(s[pos])) ++pos;
  if (pos < s.size() && IsSign(s[pos])) ++pos;
  while (pos < s.size() && IsDigit(s[pos])) ++pos;
  if (pos != s.size()) return std::nullopt;
  const std::optional<Suffix> suffix = InterpretSuffix(s.substr(suffix_begin));
  if (!suffix) return std::nullopt;

  // Upstream counts an empty integer part as the one digit "0".
  const size_t num_len = std::max<size_t>(num.size(), 1);
  std::string digits(num);
  digits.append(denom);
  int64_t exp10;  // of the magnitude in nanos: digits * 10^exp10
  if (suffix->binary) {
    // Upstream's precision estimate for its int64 path: 15 - len(num) -
    // exponent*3/10 - 1 >= 0, with no fraction.
    p.int64_amount =
        denom.empty() &&
        num_len + static_cast<size_t>(3 * suffix->exponent / 10) <= 14;
    digits = MultiplyByPowerOfTwo(digits, suffix->exponent);
    exp10 = 9 - static_cast<int64_t>(denom.size());
  } else {
    // Upstream computes the scale in int32 (negated on its inf.Dec path), so
    // exponents near INT32_MIN wrap; wrap alike to get the value it stores.
    const int32_t scale =
        static_cast<int32_t>(static_cast<uint32_t>(suffix->exponent) -
                             static_cast<uint32_t>(denom.size()));
    p.int64_amount = num_len + denom.size() <= 18 && scale >= -9;
    exp10 = p.int64_amount
                ? int64_t{9} + scale
                : int64_t{9} - static_cast<int32_t>(
                                   0u - static_cast<uint32_t>(scale));
  }
  // inf.Dec.SetString needs a digit; the fast path does not look.
  if (!p.int64_amount && !has_digits) return std::nullopt;

  p.nanos = CeilScaled(digits, exp10);
  // Upstream caps binary values at INT64_MAX units (on its inf.Dec path, the
  // only one that can exceed it); decimal ones it leaves to overflow.
  constexpr U128 kCap = U128{static_cast<uint64_t>(kInt64Max)} * kNanosPerUnit;
  if (suffix->binary && (!p.nanos || *p.nanos > kCap)) p.nanos = kCap;
  return p;
}

// Quantity.ScaledValue for a unit of `nanos_per_unit` nanos.
QuantityResult ScaledValue(std::string_view s, uint64_t nanos_per_unit) {
  const std::optional<Parsed> p = Parse(s);
  if (!p) return {0, kSyntaxError};
  if (!p->nanos) return {0, kRangeError};
  const I128 quotient = static_cast<I128>(*p->nanos / nanos_per_unit);
  const bool inexact = *p->nanos % nanos_per_unit != 0;
  I128 result;
  if (!p->negative) {
    result = quotient + inexact;
  } else if (p->int64_amount) {
    // int64Amount rounds away from zero.
    result = -(quotient + inexact);
  } else {
    // scaledValue: Go's truncated quotient, plus one when inexact.
    result = -quotient + inexact;
  }
  if (result < kInt64Min || result > kInt64Max) return {0, kRangeError};
  return {static_cast<int64_t>(result), {}};
}

}  // namespace

QuantityResult ParseQuantityMilli(std::string_view s) {
  return ScaledValue(s, kNanosPerMilli);
}

QuantityResult ParseQuantityValue(std::string_view s) {
  return ScaledValue(s, kNanosPerUnit);
}

QuantityNanosResult ParseQuantityNanos(std::string_view s) {
  const std::optional<Parsed> p = Parse(s);
  if (!p) return {0, 0, kSyntaxError};
  if (!p->nanos) return {0, 0, kRangeError};
  // At most 10^29 < 2^97: the negation cannot overflow.
  const I128 magnitude = static_cast<I128>(*p->nanos);
  const U128 bits = static_cast<U128>(p->negative ? -magnitude : magnitude);
  return {static_cast<int64_t>(static_cast<uint64_t>(bits >> 64)),
          static_cast<uint64_t>(bits), {}};
}

}  // namespace sched
