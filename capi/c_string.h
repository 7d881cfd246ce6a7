// Strings handed to C callers: malloc'd, NUL-terminated, released with
// sched_free(). Held in a MallocString until the call can no longer fail.
#ifndef CAPI_C_STRING_H_
#define CAPI_C_STRING_H_

#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string_view>

namespace sched::capi {

struct FreeDeleter {
  void operator()(char* p) const { std::free(p); }
};
using MallocString = std::unique_ptr<char, FreeDeleter>;

// A malloc'd copy of `s`. Throws std::bad_alloc when malloc fails.
inline MallocString NewCString(std::string_view s) {
  auto* p = static_cast<char*>(std::malloc(s.size() + 1));
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, s.data(), s.size());
  p[s.size()] = '\0';
  return MallocString(p);
}

}  // namespace sched::capi

#endif  // CAPI_C_STRING_H_
