#include "json.h"

#include <cmath>
#include <cstdlib>

namespace schedsim {
namespace {

const char* TypeName(const cJSON* v) {
  if (cJSON_IsString(v)) return "a string";
  if (cJSON_IsNumber(v)) return "a number";
  if (cJSON_IsBool(v)) return "a boolean";
  if (cJSON_IsArray(v)) return "an array";
  if (cJSON_IsObject(v)) return "an object";
  return "null";
}

[[noreturn]] void WrongType(const cJSON* v, const Loc& loc, const char* want) {
  throw InputError(loc, std::string("must be ") + want + ", got " + TypeName(v));
}

}  // namespace

cJSON* Member(const cJSON* obj, const char* key) {
  if (!cJSON_IsObject(obj)) return nullptr;
  cJSON* v = cJSON_GetObjectItemCaseSensitive(obj, key);
  return cJSON_IsNull(v) ? nullptr : v;
}

std::optional<std::string> OptString(const cJSON* v, const Loc& loc) {
  if (v == nullptr) return std::nullopt;
  if (!cJSON_IsString(v)) WrongType(v, loc, "a string");
  return std::string(v->valuestring);
}

std::optional<int64_t> OptInt(const cJSON* v, const Loc& loc, int64_t min, int64_t max) {
  if (v == nullptr) return std::nullopt;
  // valuedouble, not valueint: cJSON saturates valueint at INT_MAX.
  if (!cJSON_IsNumber(v) || std::trunc(v->valuedouble) != v->valuedouble) {
    WrongType(v, loc, "an integer");
  }
  double d = v->valuedouble;
  if (d < static_cast<double>(min) || d > static_cast<double>(max)) {
    throw InputError(loc, "must be between " + std::to_string(min) + " and " + std::to_string(max) +
                              ", got " + Print(v));
  }
  return static_cast<int64_t>(d);
}

std::optional<bool> OptBool(const cJSON* v, const Loc& loc) {
  if (v == nullptr) return std::nullopt;
  if (!cJSON_IsBool(v)) WrongType(v, loc, "a boolean");
  return cJSON_IsTrue(v);
}

cJSON* OptObject(cJSON* v, const Loc& loc) {
  if (v != nullptr && !cJSON_IsObject(v)) WrongType(v, loc, "an object");
  return v;
}

cJSON* WritableObject(cJSON* obj, const char* key) {
  cJSON* m = Member(obj, key);
  if (cJSON_IsObject(m)) return m;
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  return cJSON_AddObjectToObject(obj, key);
}

cJSON* WritableArray(cJSON* obj, const char* key) {
  cJSON* m = Member(obj, key);
  if (cJSON_IsArray(m)) return m;
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  return cJSON_AddArrayToObject(obj, key);
}

void SetString(cJSON* obj, const char* key, const std::string& value) {
  cJSON_DeleteItemFromObjectCaseSensitive(obj, key);
  cJSON_AddStringToObject(obj, key, value.c_str());
}

std::string Print(const cJSON* v) {
  char* s = cJSON_PrintUnformatted(v);
  if (s == nullptr) throw std::bad_alloc();
  std::string out(s);
  cJSON_free(s);
  return out;
}

std::string Quote(const std::string& s) {
  // cJSON does the escaping; the library's output is the one to match.
  JsonPtr str(cJSON_CreateString(s.c_str()));
  if (!str) throw std::bad_alloc();
  return Print(str.get());
}

}  // namespace schedsim
