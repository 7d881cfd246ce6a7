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

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string_view>

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
ApiStatus Member(const cJSON* obj, const char* name, const JsonPath& path,
                 const cJSON** out);

// Type checks of one value at `path`.
ApiStatus AsObject(const cJSON* v, const JsonPath& path);
ApiStatus AsArray(const cJSON* v, const JsonPath& path);
// A string longer than kMaxStringBytes is an error.
ApiStatus AsString(const cJSON* v, const JsonPath& path, std::string_view* out);
ApiStatus AsInt(const cJSON* v, const JsonPath& path, int64_t min, int64_t max,
                int64_t* out);

// Member getters: Member() followed by the type check. Absent or null
// members leave *out unchanged (and *out null for the object/array ones).
ApiStatus GetObject(const cJSON* obj, const char* name, const JsonPath& path,
                    const cJSON** out);
ApiStatus GetArray(const cJSON* obj, const char* name, const JsonPath& path,
                   const cJSON** out);
ApiStatus GetString(const cJSON* obj, const char* name, const JsonPath& path,
                    std::string_view* out);
ApiStatus GetBool(const cJSON* obj, const char* name, const JsonPath& path, bool* out);
ApiStatus GetInt32(const cJSON* obj, const char* name, const JsonPath& path,
                   int32_t* out);
ApiStatus GetInt64(const cJSON* obj, const char* name, const JsonPath& path,
                   int64_t* out);

// "Too many" at `path` (the array or map) when `array_or_map` has more than
// `max_items` elements, in upstream's words (field.TooMany).
ApiStatus CheckItemCount(const cJSON* array_or_map, const JsonPath& path, size_t max_items);
// The same for a count of `n` items.
ApiStatus CheckCount(size_t n, const JsonPath& path, size_t max_items);

// Calls fn(element, element_path) -> ApiStatus for each element of the
// array member `name` of `obj` (none when absent or null); stops at the
// first error. An array of more than `max_items` elements is an error.
template <class Fn>
ApiStatus ForEachElement(const cJSON* obj, const char* name, const JsonPath& path, Fn&& fn,
                         size_t max_items = kMaxItems) {
  const cJSON* array;
  CAPI_RETURN_IF_ERROR(GetArray(obj, name, path, &array));
  if (array == nullptr) return ApiStatus();
  const JsonPath array_path = path.Child(name);
  CAPI_RETURN_IF_ERROR(CheckItemCount(array, array_path, max_items));
  size_t i = 0;
  for (const cJSON* e = array->child; e != nullptr; e = e->next, ++i) {
    CAPI_RETURN_IF_ERROR(fn(e, array_path.Index(i)));
  }
  return ApiStatus();
}

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
