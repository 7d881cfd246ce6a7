// The bytes a JSON string holds as they are (not a control byte, quote or
// backslash), found eight at a time: what the scanner steps over and what
// the writer copies without escaping.
#ifndef CAPI_JSON_BYTES_H_
#define CAPI_JSON_BYTES_H_

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sched::capi {

inline constexpr std::array<bool, 256> kPlainJsonByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 256; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

// The offset in `w`, eight bytes read in text order, of its first quote,
// backslash or control byte (8 when none). SWAR tests for a zero byte
// (after xor) and for a byte below 0x20: a borrow makes false hits only
// above a true one, so the lowest hit is the first.
inline unsigned FirstSpecialByte(uint64_t w) {
  if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
  constexpr uint64_t kOnes = 0x0101010101010101;
  constexpr uint64_t kHigh = 0x8080808080808080;
  const uint64_t quote = w ^ (kOnes * '"');
  const uint64_t backslash = w ^ (kOnes * '\\');
  const uint64_t found = (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
                          ((w - kOnes * 0x20) & ~w)) &
                         kHigh;
  return found == 0 ? 8 : static_cast<unsigned>(std::countr_zero(found)) / 8;
}

// The length of the run of plain bytes the `n` bytes at `p` start with.
inline size_t PlainPrefix(const char* p, size_t n) {
  size_t i = 0;
  uint64_t w;
  while (i + sizeof w <= n) {
    std::memcpy(&w, p + i, sizeof w);
    const unsigned k = FirstSpecialByte(w);
    i += k;
    if (k < sizeof w) return i;
  }
  while (i < n && kPlainJsonByte[static_cast<unsigned char>(p[i])]) ++i;
  return i;
}

}  // namespace sched::capi

#endif  // CAPI_JSON_BYTES_H_
