#include "capi/json_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <mutex>
#include <new>
#include <span>
#include <string>
#include <vector>

namespace sched::capi {
namespace {

// cJSON_IsNull and the like without a call into libcjson each: the type
// checks run once or more per member read.
bool HasType(const cJSON* v, int type) { return v != nullptr && (v->type & 0xFF) == type; }

const char* TypeName(const cJSON* v) {
  if (cJSON_IsNull(v)) return "null";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  return "an invalid value";
}

ApiStatus WrongType(const cJSON* v, const JsonPath& path, std::string_view want) {
  return ApiStatus::Invalid(path, "expected " + std::string(want) + ", got " +
                                      std::string(TypeName(v)));
}

// A container enclosing the pre-scan's position: the array index or the
// object key (as written, between its quotes) the scan is inside.
struct Frame {
  bool array;
  size_t index = 0;
  std::string_view key;
};

ApiStatus TooDeep(const std::vector<Frame>& frames, size_t i, const JsonPath& path) {
  if (i == frames.size()) {
    return ApiStatus::Invalid(path, "JSON nested deeper than " + std::to_string(kMaxJsonDepth) +
                                        " levels");
  }
  const Frame& f = frames[i];
  // The pre-scan's keys are raw bytes: one with a control byte (a NUL would
  // cut the C error message short; cJSON rejects such keys anyway) is not
  // named, so the path stops at its object.
  if (!f.array && std::any_of(f.key.begin(), f.key.end(),
                              [](char c) { return static_cast<unsigned char>(c) < 0x20; })) {
    return TooDeep(frames, frames.size(), path);
  }
  return TooDeep(frames, i + 1, f.array ? path.Index(f.index) : path.Child(f.key));
}

// Rejects containers nested deeper than kMaxJsonDepth before cJSON's
// recursive parser sees them. Tracks strings exactly as cJSON does (a
// backslash skips the next byte), so for any text cJSON accepts the depth
// counted here is the depth it would build; malformed text is left to cJSON.
ApiStatus CheckDepth(std::string_view text) {
  std::vector<Frame> frames;
  bool expect_key = false;  // the next string in an object is a key
  for (size_t i = 0; i < text.size(); ++i) {
    switch (text[i]) {
      case '"': {
        const size_t begin = i + 1;
        for (++i; i < text.size() && text[i] != '"'; ++i) {
          if (text[i] == '\\') ++i;
        }
        if (expect_key && !frames.empty()) {
          frames.back().key = text.substr(begin, std::min(i, text.size()) - begin);
        }
        expect_key = false;
        break;
      }
      case '{':
      case '[':
        if (frames.size() == static_cast<size_t>(kMaxJsonDepth)) {
          return TooDeep(frames, 0, JsonPath());
        }
        frames.push_back({text[i] == '[', 0, {}});
        expect_key = text[i] == '{';
        break;
      case '}':
      case ']':
        if (!frames.empty()) frames.pop_back();
        break;
      case ',':
        if (!frames.empty()) {
          ++frames.back().index;
          expect_key = !frames.back().array;
        }
        break;
      default:
        break;
    }
  }
  return ApiStatus();
}

// cJSON_ParseWithLengthOpts resets, and on failure sets, a process-wide
// error record: concurrent parses would race on it.
std::mutex& CJsonParseMutex() {
  static std::mutex mu;
  return mu;
}

}  // namespace

ApiStatus CheckJsonText(std::string_view text, size_t max_bytes, JsonScan* scan) {
  const JsonPath root;
  if (text.size() > max_bytes) {
    return ApiStatus::Invalid(root, "document of " + std::to_string(text.size()) +
                                        " bytes exceeds the limit of " +
                                        std::to_string(max_bytes) + " bytes");
  }
  size_t begin = 0;
  while (begin < text.size() && IsJsonSpace(text[begin])) ++begin;
  if (begin == text.size()) return ApiStatus::Invalid(root, "empty JSON document");
  *scan = ScanJson(text, kMaxJsonDepth);
  // A strict text nests at most kMaxJsonDepth deep (deeper is not strict):
  // only the others need the depth check, which names where it is crossed.
  if (!scan->strict) CAPI_RETURN_IF_ERROR(CheckDepth(text));
  return ApiStatus();
}

ApiStatus ParseCheckedJson(std::string_view text, bool strict, JsonDoc* out, size_t* end_out) {
  const JsonPath root;
  const char* end = nullptr;
  JsonDoc doc;
  {
    std::lock_guard<std::mutex> lock(CJsonParseMutex());
    doc.reset(cJSON_ParseWithLengthOpts(text.data(), text.size(), &end,
                                        /*require_null_terminated=*/false));
  }
  if (doc == nullptr) {
    // cJSON parses every strict text: only an allocation can have failed.
    if (strict) throw std::bad_alloc();
    const size_t offset = end != nullptr ? static_cast<size_t>(end - text.data()) : 0;
    return ApiStatus::Invalid(root, "invalid JSON at byte offset " + std::to_string(offset));
  }
  size_t rest = static_cast<size_t>(end - text.data());
  if (end_out != nullptr) {
    *end_out = rest;
    *out = std::move(doc);
    return ApiStatus();
  }
  while (rest < text.size() && IsJsonSpace(text[rest])) ++rest;
  if (rest != text.size()) {
    return ApiStatus::Invalid(root, "invalid JSON at byte offset " + std::to_string(rest) +
                                        ": data after the end of the document");
  }
  *out = std::move(doc);
  return ApiStatus();
}

ApiStatus ParseJson(std::string_view text, JsonDoc* out, size_t max_bytes) {
  JsonScan scan;
  CAPI_RETURN_IF_ERROR(CheckJsonText(text, max_bytes, &scan));
  return ParseCheckedJson(text, scan.strict, out);
}

ApiStatus Member(const cJSON* obj, std::string_view name, const JsonPath& path,
                 const cJSON** out) {
  const std::array<std::string_view, 1> names = {name};
  return ObjectMembers<1>(obj, names).Get(0, path, out);
}

ApiStatus AsObject(const cJSON* v, const JsonPath& path) {
  return HasType(v, cJSON_Object) ? ApiStatus() : WrongType(v, path, "an object");
}

ApiStatus AsArray(const cJSON* v, const JsonPath& path) {
  return HasType(v, cJSON_Array) ? ApiStatus() : WrongType(v, path, "an array");
}

ApiStatus AsString(const cJSON* v, const JsonPath& path, std::string_view* out) {
  if (!HasType(v, cJSON_String)) return WrongType(v, path, "a string");
  const std::string_view s = v->valuestring;
  CAPI_RETURN_IF_ERROR(CheckLength(s, path, kMaxStringBytes));
  *out = s;
  return ApiStatus();
}

ApiStatus AsInt(const cJSON* v, const JsonPath& path, int64_t min, int64_t max,
                int64_t* out) {
  if (!cJSON_IsNumber(v)) return WrongType(v, path, "an integer");
  const double d = v->valuedouble;
  if (!std::isfinite(d) || std::trunc(d) != d) {
    return ApiStatus::Invalid(path, "expected an integer, got " + NumberText(d));
  }
  if (std::fabs(d) > static_cast<double>(kMaxExactInt)) {
    return ApiStatus::Invalid(path, "integer " + NumberText(d) +
                                        " is too large to be exact (|x| must be <= 2^53)");
  }
  const auto i = static_cast<int64_t>(d);
  if (i < min || i > max) {
    return ApiStatus::Invalid(path, "must be between " + std::to_string(min) + " and " +
                                        std::to_string(max) + ", got " + std::to_string(i));
  }
  *out = i;
  return ApiStatus();
}

ApiStatus DuplicateField(const JsonPath& path) {
  return ApiStatus::Invalid(path, "duplicate field");
}

ApiStatus AsInt32(const cJSON* v, const JsonPath& path, int32_t* out) {
  int64_t i;
  CAPI_RETURN_IF_ERROR(AsInt(v, path, INT32_MIN, INT32_MAX, &i));
  *out = static_cast<int32_t>(i);
  return ApiStatus();
}

ApiStatus GetObject(const cJSON* obj, std::string_view name, const JsonPath& path,
                    const cJSON** out) {
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, out));
  return *out == nullptr ? ApiStatus() : AsObject(*out, path.Child(name));
}

ApiStatus GetArray(const cJSON* obj, std::string_view name, const JsonPath& path,
                   const cJSON** out) {
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, out));
  return *out == nullptr ? ApiStatus() : AsArray(*out, path.Child(name));
}

ApiStatus GetString(const cJSON* obj, std::string_view name, const JsonPath& path,
                    std::string_view* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  return v == nullptr ? ApiStatus() : AsString(v, path.Child(name), out);
}

ApiStatus GetBool(const cJSON* obj, std::string_view name, const JsonPath& path, bool* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  if (!cJSON_IsBool(v)) return WrongType(v, path.Child(name), "a boolean");
  *out = cJSON_IsTrue(v);
  return ApiStatus();
}

ApiStatus GetInt32(const cJSON* obj, std::string_view name, const JsonPath& path,
                   int32_t* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  return v == nullptr ? ApiStatus() : AsInt32(v, path.Child(name), out);
}

ApiStatus GetInt64(const cJSON* obj, std::string_view name, const JsonPath& path,
                   int64_t* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  return AsInt(v, path.Child(name), -kMaxExactInt, kMaxExactInt, out);
}

ApiStatus CheckItemCount(const cJSON* array_or_map, const JsonPath& path, size_t max_items) {
  size_t n = 0;
  for (const cJSON* c = array_or_map->child; c != nullptr; c = c->next) ++n;
  return CheckCount(n, path, max_items);
}

ApiStatus CheckCount(size_t n, const JsonPath& path, size_t max_items) {
  if (n <= max_items) return ApiStatus();
  return ApiStatus::Invalid(path, "Too many: " + std::to_string(n) + ": must have at most " +
                                      std::to_string(max_items) + " items");
}

ApiStatus CheckLength(std::string_view s, const JsonPath& path, size_t max_bytes) {
  if (s.size() <= max_bytes) return ApiStatus();
  return ApiStatus::Invalid(path, "Too long: may not be more than " + std::to_string(max_bytes) +
                                      " bytes");
}

ApiStatus CheckUniqueKeys(const cJSON* obj, const JsonPath& path) {
  CAPI_RETURN_IF_ERROR(CheckItemCount(obj, path, kMaxItems));
  // The keys of a small map (most: labels, a pod's metadata) sort on the
  // stack; a larger one in a vector. Same order, same duplicate reported.
  constexpr size_t kOnStack = 16;
  std::array<std::string_view, kOnStack> small;
  std::vector<std::string_view> large;
  size_t n = 0;
  for (const cJSON* c = obj->child; c != nullptr; c = c->next) {
    const std::string_view key(c->string);
    if (key.size() > kMaxStringBytes) {  // reported at the map: the key is the problem
      return ApiStatus::Invalid(path, "Too long: a key may not be more than " +
                                          std::to_string(kMaxStringBytes) + " bytes");
    }
    if (n < kOnStack) {
      small[n] = key;
    } else {
      if (n == kOnStack) large.assign(small.begin(), small.end());
      large.push_back(key);
    }
    ++n;
  }
  if (n < 2) return ApiStatus();
  const std::span<std::string_view> keys =
      n <= kOnStack ? std::span<std::string_view>(small.data(), n) : std::span(large);
  std::sort(keys.begin(), keys.end());
  const auto dup = std::adjacent_find(keys.begin(), keys.end());
  if (dup != keys.end()) return ApiStatus::Invalid(path.Child(*dup), "duplicate key");
  return ApiStatus();
}

ApiStatus CheckFields(const cJSON* v, const JsonPath& path,
                      std::initializer_list<std::string_view> allowed) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* m = v->child; m != nullptr; m = m->next) {
    if (std::find(allowed.begin(), allowed.end(), m->string) == allowed.end()) {
      return ApiStatus::Invalid(path.Child(m->string), "unknown field");
    }
  }
  return ApiStatus();
}

ApiStatus Required(const JsonPath& path) {
  return ApiStatus::Invalid(path, "Required value");
}

std::string NumberText(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, end);
}

}  // namespace sched::capi
