// Hashing for unordered containers keyed by std::string that are looked up
// by std::string_view without building a string (C++20 heterogeneous
// lookup: pair it with std::equal_to<>), and by a HashedKey without hashing
// the key again.
#ifndef LIBSCHED_MODEL_STRING_HASH_H_
#define LIBSCHED_MODEL_STRING_HASH_H_

#include <cstddef>
#include <functional>
#include <string_view>

namespace sched {

// A key with its StringHash, computed once: a key looked up in several maps
// (the scheduling queue's, several times per pod) is hashed once. It views
// the key: the key's storage must outlive it.
struct HashedKey {
  std::string_view key;
  size_t hash;

  explicit HashedKey(std::string_view k) : key(k), hash(std::hash<std::string_view>{}(k)) {}
  // REQUIRES: h is StringHash of k (a HashedKey's hash, kept).
  HashedKey(std::string_view k, size_t h) : key(k), hash(h) {}

  friend bool operator==(const HashedKey& a, const HashedKey& b) { return a.key == b.key; }
  friend bool operator==(const HashedKey& a, std::string_view b) { return a.key == b; }
};

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  size_t operator()(const HashedKey& k) const { return k.hash; }
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_STRING_HASH_H_
