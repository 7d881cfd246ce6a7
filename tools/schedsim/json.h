// Typed reads from cJSON trees that report the offending field, plus the
// little JSON writing the simulator needs.
#ifndef TOOLS_SCHEDSIM_JSON_H_
#define TOOLS_SCHEDSIM_JSON_H_

#include <cjson/cJSON.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "loc.h"

namespace schedsim {

struct JsonDeleter {
  void operator()(cJSON* j) const { cJSON_Delete(j); }
};
using JsonPtr = std::unique_ptr<cJSON, JsonDeleter>;

// The member `key` of `obj`, or nullptr when it is absent or null (as the
// API server treats an explicit null).
cJSON* Member(const cJSON* obj, const char* key);

// Typed reads of `v`, which sits at `loc`; wrong types throw InputError.
std::optional<std::string> OptString(const cJSON* v, const Loc& loc);
std::optional<int64_t> OptInt(const cJSON* v, const Loc& loc, int64_t min, int64_t max);
std::optional<bool> OptBool(const cJSON* v, const Loc& loc);
// An object or absent (nullptr); anything else throws.
cJSON* OptObject(cJSON* v, const Loc& loc);

// obj[key] as an object (or array), made empty in place of what was there
// when it is absent, null or another type: for writing into it.
cJSON* WritableObject(cJSON* obj, const char* key);
cJSON* WritableArray(cJSON* obj, const char* key);

// Sets obj[key] to the string `value`, replacing what was there.
void SetString(cJSON* obj, const char* key, const std::string& value);

// Compact JSON text of `v`.
std::string Print(const cJSON* v);
// `s` as a JSON string literal, quotes included.
std::string Quote(const std::string& s);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_JSON_H_
