// PresentMembers: which of a decoder's member names an object has, found in
// one walk over its members. A decoder asks a pod's spec for a dozen names
// and the spec sets a few; each lookup by name (json_reader.h's Member)
// walks every member. A name the object lacks needs no lookup: the getters
// leave their output as is for it. A name it has is still read by name, so
// type errors and duplicate fields are reported exactly as before.
#ifndef CAPI_PRESENT_MEMBERS_H_
#define CAPI_PRESENT_MEMBERS_H_

#include <cJSON.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace sched::capi {

// The index of `name` in `names`, for PresentMembers::Has; at compile
// time, so that a name not listed does not compile.
template <size_t N>
consteval size_t MemberIndex(const std::array<std::string_view, N>& names,
                             std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return i;
  }
  throw "not a listed member name";
}

template <size_t N>
class PresentMembers {
  static_assert(N <= 64, "one bit per name");

 public:
  // `obj` is an object; `names[i]` is the name Has(i) asks about.
  PresentMembers(const cJSON* obj, const std::array<std::string_view, N>& names) {
    for (const cJSON* c = obj->child; c != nullptr; c = c->next) {
      if (c->string == nullptr) continue;
      const std::string_view key = c->string;
      for (size_t i = 0; i < N; ++i) {
        if (names[i] != key) continue;
        bits_ |= uint64_t{1} << i;
        break;
      }
    }
  }

  // Whether the object has a member named names[i] (null or not).
  bool Has(size_t i) const { return (bits_ >> i) & 1; }

 private:
  uint64_t bits_ = 0;
};

}  // namespace sched::capi

#endif  // CAPI_PRESENT_MEMBERS_H_
