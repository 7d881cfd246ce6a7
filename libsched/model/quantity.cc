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

// The suffixes that are not exponents: "", n u m (10^-9, -6, -3), k M G T P
// E (10^3 up to 10^18) and Ki Mi Gi Ti Pi Ei (2^10 up to 2^60).
std::optional<Suffix> NamedSuffix(std::string_view s) {
  constexpr std::string_view kDown = "num";
  constexpr std::string_view kUp = "kMGTPE";
  if (s.empty()) return Suffix{false, 0};
  if (s.size() == 1) {
    if (const size_t i = kDown.find(s[0]); i != std::string_view::npos) {
      return Suffix{false, static_cast<int32_t>(3 * i) - 9};
    }
    if (const size_t i = kUp.find(s[0]); i != std::string_view::npos) {
      return Suffix{false, static_cast<int32_t>(3 * (i + 1))};
    }
    return std::nullopt;
  }
  if (s.size() != 2 || s[1] != 'i' || s[0] == 'k') return std::nullopt;
  const size_t i = s[0] == 'K' ? 0 : kUp.find(s[0]);
  if (i == std::string_view::npos) return std::nullopt;
  return Suffix{true, static_cast<int32_t>(10 * (i + 1))};
}

std::optional<Suffix> InterpretSuffix(std::string_view s) {
  if (const std::optional<Suffix> named = NamedSuffix(s)) return named;
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

constexpr U128 kBinaryCap = U128{static_cast<uint64_t>(kInt64Max)} * kNanosPerUnit;

// The common form, digits and a named suffix ("100m", "500Mi", "2"), with at
// most 15 digits so that they fit a uint64_t: what ParseGeneral returns for
// it, without building digit strings. nullopt for any other form.
std::optional<Parsed> ParsePlain(std::string_view s) {
  constexpr size_t kMaxDigits = 15;
  size_t pos = 0;
  size_t num_len = 0;  // digits after the leading zeros, as ParseGeneral's num
  uint64_t v = 0;
  for (; pos < s.size() && pos <= kMaxDigits && IsDigit(s[pos]); ++pos) {
    v = v * 10 + static_cast<uint64_t>(s[pos] - '0');
    if (v != 0) ++num_len;
  }
  if (pos == 0 || pos > kMaxDigits) return std::nullopt;
  const std::optional<Suffix> suffix = NamedSuffix(s.substr(pos));
  if (!suffix) return std::nullopt;
  Parsed p;
  num_len = std::max<size_t>(num_len, 1);
  if (suffix->binary) {
    p.int64_amount = num_len + static_cast<size_t>(3 * suffix->exponent / 10) <= 14;
    // v < 2^50 and the shift is at most 60: no overflow in 128 bits.
    const U128 units = U128{v} << suffix->exponent;
    p.nanos = units > static_cast<U128>(kInt64Max) ? kBinaryCap : units * kNanosPerUnit;
    return p;
  }
  // At most 15 digits and an exponent of at least -9: upstream's int64Amount,
  // and an integral number of nanos.
  p.int64_amount = true;
  U128 nanos = v;
  for (int32_t z = 0; z < 9 + suffix->exponent && nanos != 0; ++z) {
    nanos *= 10;
    if (nanos > kMaxNanos) return p;  // nanos stays nullopt: out of range
  }
  p.nanos = nanos;
  return p;
}

std::optional<Parsed> ParseGeneral(std::string_view s) {
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
  if (suffix->binary && (!p.nanos || *p.nanos > kBinaryCap)) p.nanos = kBinaryCap;
  return p;
}

std::optional<Parsed> Parse(std::string_view s) {
  if (std::optional<Parsed> p = ParsePlain(s)) return p;
  return ParseGeneral(s);
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
