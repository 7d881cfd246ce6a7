#include "names.h"

namespace schedsim {
namespace {

// k8s.io/apimachinery/pkg/util/rand: no vowels, no confusable characters.
constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr uint64_t kSpace = 27ULL * 27 * 27 * 27 * 27;

uint32_t Fnv32a(std::string_view s) {
  uint32_t h = 2166136261u;
  for (unsigned char c : s) {
    h ^= c;
    h *= 16777619u;
  }
  return h;
}

}  // namespace

std::string NameSuffix(std::string_view seed, uint64_t i) {
  // i * odd multiplier not divisible by 3 is a bijection modulo 27^5, so
  // suffixes never repeat within one seed; the hash spreads seeds apart.
  uint64_t x = (Fnv32a(seed) + (i % kSpace) * 2654435761ULL) % kSpace;
  std::string s(5, ' ');
  for (char& c : s) {
    c = kAlphabet[x % 27];
    x /= 27;
  }
  return s;
}

std::string TemplateHash(std::string_view text) {
  std::string s = std::to_string(Fnv32a(text));
  for (char& c : s) c = kAlphabet[static_cast<unsigned char>(c) % kAlphabet.size()];
  return s;
}

}  // namespace schedsim
