#include "libsched/model/quantity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace sched {
namespace quantity_test {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

struct Want {
  int64_t value;
  std::string_view error;  // empty on success
};

constexpr Want V(int64_t v) { return {v, ""}; }
constexpr Want kSyntax = {0, "invalid quantity syntax"};
constexpr Want kRange = {0, "quantity out of range"};

struct Case {
  std::string_view input;
  Want milli;  // ParseQuantityMilli
  Want value;  // ParseQuantityValue
};

// Expectations are Quantity.MilliValue() / Quantity.Value() from
// k8s.io/apimachinery v0.36.3, except where upstream's int64 arithmetic
// overflows (it returns garbage there and we return kRange or the exact value).
constexpr Case kCases[] = {
    // Decimal SI suffixes.
    {"1n", V(1), V(1)},
    {"5n", V(1), V(1)},
    {"4u", V(1), V(1)},
    {"1m", V(1), V(1)},
    {"3m", V(3), V(1)},
    {"500m", V(500), V(1)},
    {"1", V(1000), V(1)},
    {"9", V(9000), V(9)},
    {"1k", V(1000000), V(1000)},
    {"8k", V(8000000), V(8000)},
    {"50k", V(50000000), V(50000)},
    {"7M", V(7000000000), V(7000000)},
    {"6G", V(6000000000000), V(6000000000)},
    {"5T", V(5000000000000000), V(5000000000000)},
    {"40T", V(40000000000000000), V(40000000000000)},
    {"2P", V(2000000000000000000), V(2000000000000000)},
    {"1E", kRange, V(1000000000000000000)},
    {"12E", kRange, kRange},
    {"0n", V(0), V(0)},
    {"0m", V(0), V(0)},
    {"0k", V(0), V(0)},
    {"0T", V(0), V(0)},
    // Binary SI suffixes.
    {"1Ki", V(1024000), V(1024)},
    {"8Ki", V(8192000), V(8192)},
    {"7Mi", V(7340032000), V(7340032)},
    {"64Gi", V(68719476736000), V(68719476736)},
    {"5Ti", V(5497558138880000), V(5497558138880)},
    {"4Pi", V(4503599627370496000), V(4503599627370496)},
    {"3Ei", kRange, V(3458764513820540928)},
    {"7Ei", kRange, V(8070450532247928832)},
    {"100Ti", V(109951162777600000), V(109951162777600)},
    {"0Ki", V(0), V(0)},
    {"0Mi", V(0), V(0)},
    {"0Ei", V(0), V(0)},
    // Decimal exponents.
    {"1e3", V(1000000), V(1000)},
    {"1E3", V(1000000), V(1000)},
    {"1e+3", V(1000000), V(1000)},
    {"1E+6", V(1000000000), V(1000000)},
    {"1e0", V(1000), V(1)},
    {"5e-0", V(5000), V(5)},
    {"1e9", V(1000000000000), V(1000000000)},
    {"1E18", kRange, V(1000000000000000000)},
    {"1E-3", V(1), V(1)},
    {"12E-3", V(12), V(1)},
    {"1e-9", V(1), V(1)},
    {"1e-10", V(1), V(1)},
    {"1.2e3", V(1200000), V(1200)},
    {"1.3E+6", V(1300000000), V(1300000)},
    {"1.7E18", kRange, V(1700000000000000000)},
    {"0.5e-1", V(50), V(1)},
    {"0.5e-9", V(1), V(1)},
    {"100000000000000000000e-10", V(10000000000000), V(10000000000)},
    {"1e00000000000000000000000000000000000003", V(1000000), V(1000)},
    // Fractions.
    {"0.5", V(500), V(1)},
    {".5", V(500), V(1)},
    {"5.", V(5000), V(5)},
    {"1.", V(1000), V(1)},
    {"1.25", V(1250), V(2)},
    {"9.01", V(9010), V(10)},
    {"0.001", V(1), V(1)},
    {".001", V(1), V(1)},
    {"0.0005k", V(500), V(1)},
    {"0.00050k", V(500), V(1)},
    {".0001k", V(100), V(1)},
    {"100.035k", V(100035000), V(100035)},
    {"10.035M", V(10035000000), V(10035000)},
    {"6.987654321G", V(6987654321000), V(6987654321)},
    {"2.5P", V(2500000000000000000), V(2500000000000000)},
    {"1.01E", kRange, V(1010000000000000000)},
    {"1.G", V(1000000000000), V(1000000000)},
    {"1.5Gi", V(1610612736000), V(1610612736)},
    {"0.5Mi", V(524288000), V(524288)},
    {"0.05Gi", V(53687091200), V(53687092)},
    {"0.025Ti", V(27487790694400), V(27487790695)},
    {"100.035Ki", V(102435840), V(102436)},
    {"+.5Ki", V(512000), V(512)},
    {"5.Ki", V(5120000), V(5120)},
    {"1.000000000000000000000000000000000000001", V(1001), V(2)},
    {"123456789012345678", kRange, V(123456789012345678)},
    {"0.000000001", V(1), V(1)},
    // Tiny values round up.
    {"100m", V(100), V(1)},
    {"1001m", V(1001), V(2)},
    {"1.0001m", V(2), V(1)},
    {"0.1m", V(1), V(1)},
    {"0.9n", V(1), V(1)},
    {"3.001n", V(1), V(1)},
    {"1.1E-9", V(1), V(1)},
    {"0.0000000001", V(1), V(1)},
    {"0.0000000005", V(1), V(1)},
    {"0.00000012345", V(1), V(1)},
    {"999999999n", V(1000), V(1)},
    {"1u", V(1), V(1)},
    {"1.5u", V(1), V(1)},
    {"0.000000000001Ki", V(1), V(1)},
    {"1.5e-20", V(1), V(1)},
    // Signs.
    {"+1", V(1000), V(1)},
    {"-1", V(-1000), V(-1)},
    {"-0", V(0), V(0)},
    {"+0", V(0), V(0)},
    // Stored as int64Amount: negatives round away from zero.
    {"-1.5", V(-1500), V(-2)},
    {"-0.5", V(-500), V(-1)},
    {"-100m", V(-100), V(-1)},
    {"-0.1m", V(-1), V(-1)},
    {"-1n", V(-1), V(-1)},
    {"-999999999n", V(-1000), V(-1)},
    {"-1.5Gi", V(-1610612736000), V(-1610612736)},
    {"-0.5Ki", V(-512000), V(-512)},
    // Stored as inf.Dec: Go's truncated quotient, plus one if inexact, so
    // -0.1024 is +1 unit.
    {"-1.1Ki", V(-1126400), V(-1125)},
    {"-0.0001Ki", V(-101), V(1)},
    {"-1.5e-20", V(1), V(1)},
    {"-1.000000000000000000000000000000000000001", V(-999), V(0)},
    {"-100000000000000000000e-10", V(-10000000000000), V(-10000000000)},
    // Rounded up to -1.000000000 at parse time, then exact.
    {"-0.9999999999", V(-1000), V(-1)},
    // int64 boundaries.
    {"9223372036854775807", kRange, V(kMax)},
    {"9223372036854775808", kRange, kRange},
    // Upstream overflows internally here; we return the exact value.
    {"-9223372036854775807", kRange, V(-kMax)},
    {"-9223372036854775808", kRange, V(kMin)},
    {"-9223372036854775809", kRange, kRange},
    {"9223372036854775.807", V(kMax), V(9223372036854776)},
    {"9223372036854775.808", kRange, V(9223372036854776)},
    {"9223372036854775807m", V(kMax), V(9223372036854776)},
    {"9223372036854775807001m", kRange, kRange},
    {"9223372036854775.807k", kRange, V(kMax)},
    {"9223372036854775.808k", kRange, kRange},
    {"9.223372036854775807E", kRange, V(kMax)},
    {"9.223372036854775808E", kRange, kRange},
    {"1e18", kRange, V(1000000000000000000)},
    {"1e19", kRange, kRange},
    // Binary suffixes are capped at INT64_MAX units; decimal ones are not.
    {"8Ei", kRange, V(kMax)},
    {"9Ei", kRange, V(kMax)},
    {"8192Pi", kRange, V(kMax)},
    {"7.999999999999999999Ei", kRange, V(kMax)},
    {"9223372036854775807Ki", kRange, V(kMax)},
    {"-8Ei", kRange, V(-kMax)},
    // The exponent is truncated to int32: -1 here, 0 for 2^32.
    {"1e9223372036854775807", V(100), V(1)},
    {"1e9223372036854775808", kSyntax, kSyntax},
    {"1e4294967296", V(1000), V(1)},
    // Exponents near -2^31: upstream's int32 scale wraps to about +2^31.
    {"1e2147483648", kRange, kRange},
    {"1.5e-2147483648", kRange, kRange},
    {"0e99999999999", V(0), V(0)},
    // Upstream accepts a number part without digits.
    {"Mi", V(0), V(0)},
    {"m", V(0), V(0)},
    {"-", V(0), V(0)},
    {"+", V(0), V(0)},
    {".", V(0), V(0)},
    {"-.", V(0), V(0)},
    {"e3", V(0), V(0)},
    {"Ti", V(0), V(0)},
    // Malformed.
    // No digits: zero on upstream's int64 path ("Ti"), an error on its inf.Dec
    // path.
    {"Pi", kSyntax, kSyntax},
    {"Ei", kSyntax, kSyntax},
    {".e-10", kSyntax, kSyntax},
    {" ", kSyntax, kSyntax},
    {" 1", kSyntax, kSyntax},
    {"1 ", kSyntax, kSyntax},
    {"\t1", kSyntax, kSyntax},
    {"1.2.3", kSyntax, kSyntax},
    {"1.1.M", kSyntax, kSyntax},
    {"1+1.0M", kSyntax, kSyntax},
    {"0.1mi", kSyntax, kSyntax},
    {"0.1am", kSyntax, kSyntax},
    {"aoeu", kSyntax, kSyntax},
    {".5i", kSyntax, kSyntax},
    {"1i", kSyntax, kSyntax},
    {"-3.01i", kSyntax, kSyntax},
    {"-3.01e-", kSyntax, kSyntax},
    {"5KB", kSyntax, kSyntax},
    {"5K", kSyntax, kSyntax},
    {"1e", kSyntax, kSyntax},
    {"1E+", kSyntax, kSyntax},
    {"1e-", kSyntax, kSyntax},
    {"1ee3", kSyntax, kSyntax},
    {"1Ee3", kSyntax, kSyntax},
    {"1k3", kSyntax, kSyntax},
    {"1+3", kSyntax, kSyntax},
    {"1e3.5", kSyntax, kSyntax},
    {"1e1.5", kSyntax, kSyntax},
    {"1Mii", kSyntax, kSyntax},
    {"1iM", kSyntax, kSyntax},
    {"++1", kSyntax, kSyntax},
    {"--1", kSyntax, kSyntax},
    {"+-1", kSyntax, kSyntax},
    {"1.5.", kSyntax, kSyntax},
    {"0x10", kSyntax, kSyntax},
    {"1,000", kSyntax, kSyntax},
    {"1_000", kSyntax, kSyntax},
    {"NaN", kSyntax, kSyntax},
    {"Inf", kSyntax, kSyntax},
    {"1e9223372036854775808", kSyntax, kSyntax},
};

void ExpectEq(const QuantityResult& got, const Want& want) {
  EXPECT_EQ(got.error, want.error);
  EXPECT_EQ(got.value, want.value);
  EXPECT_EQ(got.ok(), want.error.empty());
}

TEST(QuantityTest, Table) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(testing::Message() << "input \"" << c.input << "\"");
    ExpectEq(ParseQuantityMilli(c.input), c.milli);
    ExpectEq(ParseQuantityValue(c.input), c.value);
  }
}

// Digit strings far longer than any integer type, as a fuzzer would send.
TEST(QuantityTest, LongDigitStrings) {
  const std::string zeros(100000, '0');
  ExpectEq(ParseQuantityValue(zeros + "5"), V(5));
  ExpectEq(ParseQuantityValue("0." + zeros + "1"), V(1));
  ExpectEq(ParseQuantityMilli("-0." + zeros + "1Ki"), V(1));
  ExpectEq(ParseQuantityValue("1" + zeros), kRange);
  ExpectEq(ParseQuantityValue("1" + zeros + "e-100000"), V(1));
  ExpectEq(ParseQuantityValue(std::string(100000, '9') + "Ei"), V(kMax));
  ExpectEq(ParseQuantityValue("1e" + zeros + "3"), V(1000));
}

TEST(QuantityTest, EmbeddedNul) {
  ExpectEq(ParseQuantityValue(std::string_view("1\0", 2)), kSyntax);
  ExpectEq(ParseQuantityValue(std::string_view("\0", 1)), kSyntax);
}

// The exact values CEL's quantity library compares (ParseQuantityNanos).
TEST(QuantityTest, Nanos) {
  __extension__ typedef __int128 I128;
  __extension__ typedef unsigned __int128 U128;
  struct NanosCase {
    std::string input;
    I128 nanos;
    std::string error;
  };
  const I128 kTen20 = static_cast<I128>(100'000'000'000'000'000) * 1000;
  const std::vector<NanosCase> cases = {
      {"1", 1'000'000'000, ""},
      {"1500m", 1'500'000'000, ""},
      {"1n", 1, ""},
      {"0.1n", 1, ""},    // rounded up to 1n, as upstream's parser does
      {"-0.1n", -1, ""},  // the magnitude rounded up, then negated
      {"-1.5", -1'500'000'000, ""},
      {"1Ki", 1024'000'000'000, ""},
      {"8Ei", static_cast<I128>(INT64_MAX) * 1'000'000'000, ""},  // capped
      {"1e20", kTen20 * 1'000'000'000, ""},
      {"1e21", 0, "quantity out of range"},
      {"1x", 0, "invalid quantity syntax"},
  };
  for (const NanosCase& c : cases) {
    SCOPED_TRACE(testing::Message() << "input \"" << c.input << "\"");
    const QuantityNanosResult got = ParseQuantityNanos(c.input);
    EXPECT_EQ(got.error, c.error);
    const I128 nanos =
        static_cast<I128>((static_cast<U128>(static_cast<uint64_t>(got.high)) << 64) | got.low);
    EXPECT_TRUE(nanos == c.nanos) << static_cast<long long>(nanos / 1'000'000'000);
  }
}

// Digits and a named suffix take a shorter path than other forms; a '+'
// sends the same value through the general one. Both must agree on every
// digit count around the shorter path's limit of 15, on leading zeros, and
// on every named suffix, including values capped or out of range.
TEST(QuantityTest, PlainFormAgreesWithGeneralForm) {
  const std::vector<std::string> numbers = {
      "0", "1", "7", "10", "00", "0001", "999", "1023", "1024", "8191", "9007199254740993",
      "123456789012345", "999999999999999", "1000000000000000", "000000000000001",
      "0000000000000000", "9999999999999999", "18446744073709551615", "99999999999999999999",
      "8589934591", "8589934592", "9223372036", "9223372037", "922337203685477", "8796093022207"};
  const std::vector<std::string> suffixes = {"",  "n",  "u",  "m",  "k",  "M",  "G",  "T",
                                             "P", "E",  "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  for (const std::string& n : numbers) {
    for (const std::string& suffix : suffixes) {
      const std::string plain = n + suffix;
      const std::string general = "+" + plain;
      SCOPED_TRACE(testing::Message() << "input \"" << plain << "\"");
      const QuantityResult milli = ParseQuantityMilli(general);
      ExpectEq(ParseQuantityMilli(plain), {milli.value, milli.error});
      const QuantityResult value = ParseQuantityValue(general);
      ExpectEq(ParseQuantityValue(plain), {value.value, value.error});
      const QuantityNanosResult got = ParseQuantityNanos(plain);
      const QuantityNanosResult want = ParseQuantityNanos(general);
      EXPECT_EQ(got.error, want.error);
      EXPECT_EQ(got.high, want.high);
      EXPECT_EQ(got.low, want.low);
    }
  }
  // Values on both sides of the limits, as upstream reads them.
  ExpectEq(ParseQuantityValue("999999999999999Ei"), V(kMax));  // capped
  ExpectEq(ParseQuantityValue("8589934591Gi"), V(9223372035781033984));
  ExpectEq(ParseQuantityValue("8589934592Gi"), V(kMax));  // 2^63: capped
  ExpectEq(ParseQuantityMilli("999999999999999E"), kRange);
  ExpectEq(ParseQuantityValue("9223372036854775807"), V(kMax));
  ExpectEq(ParseQuantityMilli("922337203685477"), V(922337203685477000));
  ExpectEq(ParseQuantityMilli("9223372036854776"), kRange);
  ExpectEq(ParseQuantityValue("100000000000000P"), kRange);  // 10^29 units
  ExpectEq(ParseQuantityValue("9999999999P"), kRange);  // above 2^63 units
  ExpectEq(ParseQuantityMilli("123456789012345n"), V(123456790));  // rounded up
  ExpectEq(ParseQuantityValue("0000000000000001Ki"), V(1024));
}

}  // namespace
}  // namespace quantity_test
}  // namespace sched
