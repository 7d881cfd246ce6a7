// JsonReader helpers: parsing input text with cJSON and reading members with
// type, integrality and range checks, reporting the failing member's path.
//
// Conventions shared by every decoder:
//  - A member that is absent or JSON null leaves the output untouched, as Go
//    decodes null into a zero value (callers pre-set defaults).
//  - A member name repeated within one object is an error: which occurrence
//    counts would be ambiguous (cJSON keeps both; Go keeps the last).
//  - Numbers come from valuedouble and must be integral and within
//    |x| <= 2^53, where a double is exact (valueint saturates at INT_MAX).
//  - Member names are case-sensitive, as sigs.k8s.io/json decodes them.
//  - Sizes are bounded (capi/limits.h): strings by kMaxStringBytes, arrays
//    read with ForEachElement and maps checked with CheckUniqueKeys by
//    kMaxItems, nesting by kMaxJsonDepth.
//
// Thread-safety: every function may be called concurrently. cJSON's parser
// writes a process-wide error record (cJSON_GetErrorPtr's) on every parse,
// even when given an end pointer, so ParseJson serializes the cJSON call
// itself on one process-wide mutex; reading a parsed tree needs no lock.
#ifndef CAPI_JSON_READER_H_
#define CAPI_JSON_READER_H_

#include <cJSON.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <utility>

#include "capi/error.h"
#include "capi/json_path.h"
#include "capi/json_scan.h"
#include "capi/limits.h"

namespace sched::capi {

struct CJsonDeleter {
  void operator()(cJSON* p) const { cJSON_Delete(p); }
};
using JsonDoc = std::unique_ptr<cJSON, CJsonDeleter>;

// The largest integer magnitude a double holds exactly.
inline constexpr int64_t kMaxExactInt = int64_t{1} << 53;

// Parses `text` as exactly one JSON value (surrounding whitespace allowed).
// Rejects, before parsing, a text longer than `max_bytes` and containers
// nested deeper than kMaxJsonDepth (naming the path where the limit is
// crossed; a key written with escapes appears as written). Reports syntax
// errors with their byte offset (from cJSON's end pointer, never the global
// cJSON_GetErrorPtr). Throws std::bad_alloc when cJSON fails on a text
// ScanJson found strict (capi/json_scan.h): an allocation failed.
ApiStatus ParseJson(std::string_view text, JsonDoc* out, size_t max_bytes = kMaxObjectBytes);

// ParseJson in two steps, for callers that parse parts of a text: the checks
// before parsing, with the strict scan's findings in *scan; then cJSON's
// parse of `text` (or of a part of it, strict when its whole was). With
// `end`, the value may be followed by more text: *end is set one past it
// (the element of an array is parsed without first finding its end).
ApiStatus CheckJsonText(std::string_view text, size_t max_bytes, JsonScan* scan);
ApiStatus ParseCheckedJson(std::string_view text, bool strict, JsonDoc* out, size_t* end = nullptr);

// The member `name` of object `obj`, or null when absent or JSON null.
ApiStatus Member(const cJSON* obj, std::string_view name, const JsonPath& path,
                 const cJSON** out);

// Type checks of one value at `path`.
ApiStatus AsObject(const cJSON* v, const JsonPath& path);
ApiStatus AsArray(const cJSON* v, const JsonPath& path);
// A string longer than kMaxStringBytes is an error.
ApiStatus AsString(const cJSON* v, const JsonPath& path, std::string_view* out);
ApiStatus AsInt(const cJSON* v, const JsonPath& path, int64_t min, int64_t max,
                int64_t* out);
// AsInt within int32_t's range.
ApiStatus AsInt32(const cJSON* v, const JsonPath& path, int32_t* out);

// "duplicate field" at `path`, the member written twice: Member()'s error.
ApiStatus DuplicateField(const JsonPath& path);

// Member getters: Member() followed by the type check. Absent or null
// members leave *out unchanged (and *out null for the object/array ones).
ApiStatus GetObject(const cJSON* obj, std::string_view name, const JsonPath& path,
                    const cJSON** out);
ApiStatus GetArray(const cJSON* obj, std::string_view name, const JsonPath& path,
                   const cJSON** out);
ApiStatus GetString(const cJSON* obj, std::string_view name, const JsonPath& path,
                    std::string_view* out);
ApiStatus GetBool(const cJSON* obj, std::string_view name, const JsonPath& path, bool* out);
ApiStatus GetInt32(const cJSON* obj, std::string_view name, const JsonPath& path,
                   int32_t* out);
ApiStatus GetInt64(const cJSON* obj, std::string_view name, const JsonPath& path,
                   int64_t* out);

// "Too many" at `path` (the array or map) when `array_or_map` has more than
// `max_items` elements, in upstream's words (field.TooMany).
ApiStatus CheckItemCount(const cJSON* array_or_map, const JsonPath& path, size_t max_items);
// The same for a count of `n` items.
ApiStatus CheckCount(size_t n, const JsonPath& path, size_t max_items);

// Calls fn(element, element_path) -> ApiStatus for each element of
// `array` (an array, or null for none) at `array_path`; stops at the first
// error. An array of more than `max_items` elements is an error.
template <class Fn>
ApiStatus ForEachItem(const cJSON* array, const JsonPath& array_path, Fn&& fn,
                      size_t max_items = kMaxItems) {
  if (array == nullptr) return ApiStatus();
  CAPI_RETURN_IF_ERROR(CheckItemCount(array, array_path, max_items));
  size_t i = 0;
  for (const cJSON* e = array->child; e != nullptr; e = e->next, ++i) {
    CAPI_RETURN_IF_ERROR(fn(e, array_path.Index(i)));
  }
  return ApiStatus();
}
// ForEachItem over the array member `name` of `obj` (none when absent or
// null).
template <class Fn>
ApiStatus ForEachElement(const cJSON* obj, std::string_view name, const JsonPath& path, Fn&& fn,
                         size_t max_items = kMaxItems) {
  const cJSON* array;
  CAPI_RETURN_IF_ERROR(GetArray(obj, name, path, &array));
  return ForEachItem(array, path.Child(name), std::forward<Fn>(fn), max_items);
}

// Whether the member name `key` is `name` (which holds no NUL), inline and
// without the key's length: most members differ at the first byte.
inline bool KeyIs(const char* key, std::string_view name) {
  if (name.empty()) return key[0] == '\0';
  if (key[0] != name[0]) return false;
  size_t i = 1;
  // Stops at the key's NUL at the latest: `name` holds none.
  while (i < name.size() && key[i] == name[i]) ++i;
  return i == name.size() && key[i] == '\0';
}

// The index of `name` in `names`, for ObjectMembers; at compile time, so
// that a name not listed does not compile.
template <size_t N>
consteval size_t MemberIndex(const std::array<std::string_view, N>& names,
                             std::string_view name) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == name) return i;
  }
  throw "not a listed member name";
}

// The members of an object named in `names`, found in one walk over its
// members. A pod's spec is read for a dozen names and sets a few; Member()
// per name would walk every member each time. Get(i) gives "duplicate
// field" when asked, so a decoder's errors come in the order it reads its
// members. Member() is ObjectMembers<1>.
template <size_t N>
class ObjectMembers {
  static_assert(N <= 64, "one duplicate bit per name");

 public:
  // `obj` is an object; `names` outlives this.
  ObjectMembers(const cJSON* obj, const std::array<std::string_view, N>& names)
      : names_(names) {
    for (const cJSON* c = obj->child; c != nullptr; c = c->next) {
      if (c->string == nullptr) continue;
      // One name (Member()): compared in place. Several: the key's length
      // once, then each name compared length first.
      if constexpr (N == 1) {
        if (KeyIs(c->string, names[0])) Found(0, c);
        continue;
      }
      const std::string_view key = c->string;
      for (size_t i = 0; i < N; ++i) {
        if (names[i] != key) continue;
        Found(i, c);
        break;
      }
    }
  }

  // The value of member names[i] at `path` (the object's path): null when
  // absent or JSON null.
  ApiStatus Get(size_t i, const JsonPath& path, const cJSON** out) const {
    if ((duplicates_ >> i) & 1) return DuplicateField(path.Child(names_[i]));
    const cJSON* v = found_[i];
    // cJSON_IsNull inline: this runs for every listed name of every pod.
    *out = v != nullptr && (v->type & 0xFF) == cJSON_NULL ? nullptr : v;
    return ApiStatus();
  }
  // Get and the type check, as the Get* getters above.
  ApiStatus GetObject(size_t i, const JsonPath& path, const cJSON** out) const {
    CAPI_RETURN_IF_ERROR(Get(i, path, out));
    return *out == nullptr ? ApiStatus() : AsObject(*out, path.Child(names_[i]));
  }
  ApiStatus GetArray(size_t i, const JsonPath& path, const cJSON** out) const {
    CAPI_RETURN_IF_ERROR(Get(i, path, out));
    return *out == nullptr ? ApiStatus() : AsArray(*out, path.Child(names_[i]));
  }
  ApiStatus GetString(size_t i, const JsonPath& path, std::string_view* out) const {
    const cJSON* v = nullptr;
    CAPI_RETURN_IF_ERROR(Get(i, path, &v));
    return v == nullptr ? ApiStatus() : AsString(v, path.Child(names_[i]), out);
  }
  ApiStatus GetInt32(size_t i, const JsonPath& path, int32_t* out) const {
    const cJSON* v = nullptr;
    CAPI_RETURN_IF_ERROR(Get(i, path, &v));
    return v == nullptr ? ApiStatus() : AsInt32(v, path.Child(names_[i]), out);
  }

 private:
  void Found(size_t i, const cJSON* c) {
    if (found_[i] != nullptr) duplicates_ |= uint64_t{1} << i;
    found_[i] = c;
  }

  const std::array<std::string_view, N>& names_;
  std::array<const cJSON*, N> found_{};
  uint64_t duplicates_ = 0;
};

// Checks the object `obj`, a map such as labels: at most kMaxItems
// entries, keys of at most kMaxStringBytes, no key twice.
ApiStatus CheckUniqueKeys(const cJSON* obj, const JsonPath& path);

// "Too long" at `path` when `s` is longer than `max_bytes` bytes, in
// upstream's words (field.TooLong).
ApiStatus CheckLength(std::string_view s, const JsonPath& path, size_t max_bytes);

// AsObject and CheckUniqueKeys, then "unknown field" at the first member
// not in `allowed`: strict decoding of a config object.
ApiStatus CheckFields(const cJSON* v, const JsonPath& path,
                      std::initializer_list<std::string_view> allowed);

// "Required value" at `path`.
ApiStatus Required(const JsonPath& path);

// The text of a JSON number as its shortest decimal form that reads back to
// the same double ("0.1", "1000", "2.5e-07"), for values whose raw text
// cJSON has dropped (a Quantity may be written as a bare number).
std::string NumberText(double v);

}  // namespace sched::capi

#endif  // CAPI_JSON_READER_H_
