// Hashing for unordered containers keyed by std::string that are looked up
// by std::string_view without building a string (C++20 heterogeneous
// lookup: pair it with std::equal_to<>).
#ifndef LIBSCHED_MODEL_STRING_HASH_H_
#define LIBSCHED_MODEL_STRING_HASH_H_

#include <cstddef>
#include <functional>
#include <string_view>

namespace sched {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_STRING_HASH_H_
