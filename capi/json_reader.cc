#include "capi/json_reader.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace sched::capi {
namespace {

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

// Walks the tree and rejects containers deeper than kMaxJsonDepth; `depth`
// counts the containers enclosing `v`, so recursion stops at the limit.
ApiStatus CheckDepth(const cJSON* v, const JsonPath& path, int depth) {
  if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) return ApiStatus();
  if (depth >= kMaxJsonDepth) {
    return ApiStatus::Invalid(path, "JSON nested deeper than " +
                                        std::to_string(kMaxJsonDepth) + " levels");
  }
  size_t i = 0;
  for (const cJSON* c = v->child; c != nullptr; c = c->next, ++i) {
    if (cJSON_IsObject(v)) {
      CAPI_RETURN_IF_ERROR(CheckDepth(c, path.Child(c->string ? c->string : ""), depth + 1));
    } else {
      CAPI_RETURN_IF_ERROR(CheckDepth(c, path.Index(i), depth + 1));
    }
  }
  return ApiStatus();
}

bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

ApiStatus ParseJson(std::string_view text, JsonDoc* out) {
  const JsonPath root;
  size_t begin = 0;
  while (begin < text.size() && IsJsonSpace(text[begin])) ++begin;
  if (begin == text.size()) return ApiStatus::Invalid(root, "empty JSON document");
  const char* end = nullptr;
  JsonDoc doc(cJSON_ParseWithLengthOpts(text.data(), text.size(), &end,
                                        /*require_null_terminated=*/false));
  if (doc == nullptr) {
    const size_t offset = end != nullptr ? static_cast<size_t>(end - text.data()) : 0;
    return ApiStatus::Invalid(root, "invalid JSON at byte offset " + std::to_string(offset));
  }
  size_t rest = static_cast<size_t>(end - text.data());
  while (rest < text.size() && IsJsonSpace(text[rest])) ++rest;
  if (rest != text.size()) {
    return ApiStatus::Invalid(root, "invalid JSON at byte offset " + std::to_string(rest) +
                                        ": data after the end of the document");
  }
  CAPI_RETURN_IF_ERROR(CheckDepth(doc.get(), root, 0));
  *out = std::move(doc);
  return ApiStatus();
}

ApiStatus Member(const cJSON* obj, const char* name, const JsonPath& path,
                 const cJSON** out) {
  const cJSON* found = nullptr;
  for (const cJSON* c = obj->child; c != nullptr; c = c->next) {
    if (c->string == nullptr || std::strcmp(c->string, name) != 0) continue;
    if (found != nullptr) return ApiStatus::Invalid(path.Child(name), "duplicate field");
    found = c;
  }
  *out = cJSON_IsNull(found) ? nullptr : found;
  return ApiStatus();
}

ApiStatus AsObject(const cJSON* v, const JsonPath& path) {
  return cJSON_IsObject(v) ? ApiStatus() : WrongType(v, path, "an object");
}

ApiStatus AsArray(const cJSON* v, const JsonPath& path) {
  return cJSON_IsArray(v) ? ApiStatus() : WrongType(v, path, "an array");
}

ApiStatus AsString(const cJSON* v, const JsonPath& path, std::string_view* out) {
  if (!cJSON_IsString(v)) return WrongType(v, path, "a string");
  *out = v->valuestring;
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

ApiStatus GetObject(const cJSON* obj, const char* name, const JsonPath& path,
                    const cJSON** out) {
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, out));
  return *out == nullptr ? ApiStatus() : AsObject(*out, path.Child(name));
}

ApiStatus GetArray(const cJSON* obj, const char* name, const JsonPath& path,
                   const cJSON** out) {
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, out));
  return *out == nullptr ? ApiStatus() : AsArray(*out, path.Child(name));
}

ApiStatus GetString(const cJSON* obj, const char* name, const JsonPath& path,
                    std::string_view* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  return v == nullptr ? ApiStatus() : AsString(v, path.Child(name), out);
}

ApiStatus GetBool(const cJSON* obj, const char* name, const JsonPath& path, bool* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  if (!cJSON_IsBool(v)) return WrongType(v, path.Child(name), "a boolean");
  *out = cJSON_IsTrue(v);
  return ApiStatus();
}

ApiStatus GetInt32(const cJSON* obj, const char* name, const JsonPath& path,
                   int32_t* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  int64_t i;
  CAPI_RETURN_IF_ERROR(AsInt(v, path.Child(name), INT32_MIN, INT32_MAX, &i));
  *out = static_cast<int32_t>(i);
  return ApiStatus();
}

ApiStatus GetInt64(const cJSON* obj, const char* name, const JsonPath& path,
                   int64_t* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  return AsInt(v, path.Child(name), -kMaxExactInt, kMaxExactInt, out);
}

ApiStatus CheckUniqueKeys(const cJSON* obj, const JsonPath& path) {
  if (obj->child == nullptr || obj->child->next == nullptr) return ApiStatus();
  std::vector<std::string_view> keys;
  for (const cJSON* c = obj->child; c != nullptr; c = c->next) keys.emplace_back(c->string);
  std::sort(keys.begin(), keys.end());
  const auto dup = std::adjacent_find(keys.begin(), keys.end());
  if (dup != keys.end()) return ApiStatus::Invalid(path.Child(*dup), "duplicate key");
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
