// Kubernetes resource quantities ("500m", "64Gi", "1e3"), parsed as
// k8s.io/apimachinery/pkg/api/resource.ParseQuantity does and read back as
// Quantity.MilliValue / Quantity.Value would, with exact arithmetic.
//
// Upstream quirks kept on purpose, so that we agree with what the API server
// accepts and stores:
//   - a number part without digits is zero: "Mi", "-", "." parse as 0
//     (unless the value takes upstream's inf.Dec path, e.g. "Pi", ".e-10",
//     where it is a syntax error);
//   - the exponent of "e"/"E" is truncated to 32 bits ("1e4294967296" is 1);
//   - binary-suffixed values are capped at INT64_MAX units ("8Ei" is
//     9223372036854775807), decimal ones are not;
//   - negative values round away from zero when upstream stores them as an
//     int64 amount, but as Go's truncated quotient plus one when inexact when
//     it stores them as inf.Dec ("-1.5" is -2, "-1.1Ki" is -1125).
// Where upstream's own int64 arithmetic would overflow (it returns garbage),
// we return "quantity out of range" instead. Leading or trailing whitespace is
// a syntax error, as in ParseQuantity; Quantity.UnmarshalJSON trims it first.
//
// Pure functions: safe to call concurrently; never throw.
#ifndef LIBSCHED_MODEL_QUANTITY_H_
#define LIBSCHED_MODEL_QUANTITY_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace sched {

// Result of parsing; `error` is empty on success.
struct QuantityResult {
  int64_t value = 0;
  std::string error;
  bool ok() const { return error.empty(); }
};

// The quantity in thousandths, rounded up as Quantity.MilliValue: used for cpu.
QuantityResult ParseQuantityMilli(std::string_view s);
// The quantity in units, rounded up as Quantity.Value: used for memory,
// storage, pods and extended resources.
QuantityResult ParseQuantityValue(std::string_view s);

// The exact value upstream's parser keeps (its magnitude rounded up to 1n,
// the sign applied after), in nano-units as a two's complement 128-bit
// number split in halves: for CEL's quantity library (Quantity.Cmp, Add,
// AsInt64), which compares values, not rounded units. Values beyond 10^29
// nano-units are "quantity out of range" (upstream keeps them as inf.Dec).
struct QuantityNanosResult {
  int64_t high = 0;
  uint64_t low = 0;
  std::string error;
  bool ok() const { return error.empty(); }
};
QuantityNanosResult ParseQuantityNanos(std::string_view s);

}  // namespace sched

#endif  // LIBSCHED_MODEL_QUANTITY_H_
