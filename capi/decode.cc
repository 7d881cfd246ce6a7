#include "capi/decode.h"

#include <string>
#include <string_view>
#include <vector>

#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/limits.h"
#include "libsched/model/quantity.h"

namespace sched::capi {
namespace {

// strings.TrimSpace for the ASCII spaces a quantity may carry.
std::string_view TrimSpace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const size_t b = s.find_first_not_of(kSpace);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(kSpace) - b + 1);
}

// Whether a quantity ParseQuantity accepted is below zero (Quantity.Sign()
// < 0): a '-' sign and a non-zero digit before the suffix. The rounded int64
// cannot tell, as rounding takes some tiny negative amounts to 0 or even 1
// ("-0.0001Ki" is 1).
bool IsNegativeQuantity(std::string_view text) {
  if (text.empty() || text[0] != '-') return false;
  for (const char c : text.substr(1)) {
    if (c >= '1' && c <= '9') return true;
    if (c != '0' && c != '.') return false;  // the suffix: all digits were zero
  }
  return false;
}

}  // namespace

// Quantity.UnmarshalJSON: a string (trimmed of spaces), a bare number, or
// null (a zero quantity). Negative quantities are rejected in the API
// server's words (ValidateResourceQuantityValue), which it applies to the
// spec and node lists; the status lists get the same check so that no
// negative amount reaches the core's arithmetic.
ApiStatus DecodeQuantity(const cJSON* v, const JsonPath& path, bool milli, int64_t* out) {
  if (cJSON_IsNull(v)) {
    *out = 0;
    return ApiStatus();
  }
  std::string number;  // the text of a bare number
  std::string_view text;
  if (cJSON_IsString(v)) {
    text = TrimSpace(v->valuestring);
  } else if (cJSON_IsNumber(v)) {
    // cJSON keeps no raw text; the shortest round-trip form has the same
    // value for any number written with at most 15 significant digits.
    number = NumberText(v->valuedouble);
    text = number;
  } else {
    return ApiStatus::Invalid(path, "expected a quantity string such as \"500m\" or \"64Gi\"");
  }
  const QuantityResult q = milli ? ParseQuantityMilli(text) : ParseQuantityValue(text);
  if (!q.ok()) {
    std::string quoted;
    AppendJsonString(quoted, text);
    return ApiStatus::Invalid(path, "invalid quantity " + quoted + ": " + q.error);
  }
  if (IsNegativeQuantity(text) || q.value < 0) {
    std::string msg = "Invalid value: ";
    AppendJsonString(msg, text);
    msg += ": must be greater than or equal to 0";
    return ApiStatus::Invalid(path, msg);
  }
  *out = q.value;
  return ApiStatus();
}


ApiStatus DecodeResourceList(const cJSON* v, const JsonPath& path, Interner& in,
                             ResourceList* out) {
  *out = ResourceList();
  if (v == nullptr) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  for (const cJSON* e = v->child; e != nullptr; e = e->next) {
    const std::string_view name = e->string;
    const JsonPath p = path.Child(name);
    Resource& r = out->amounts;
    if (name == kResourceCPU) {
      CAPI_RETURN_IF_ERROR(DecodeQuantity(e, p, /*milli=*/true, &r.milli_cpu));
      out->has_cpu = true;
    } else if (name == kResourceMemory) {
      CAPI_RETURN_IF_ERROR(DecodeQuantity(e, p, false, &r.memory));
      out->has_memory = true;
    } else if (name == kResourceEphemeralStorage) {
      CAPI_RETURN_IF_ERROR(DecodeQuantity(e, p, false, &r.ephemeral_storage));
    } else if (name == kResourcePods) {
      CAPI_RETURN_IF_ERROR(DecodeQuantity(e, p, false, &r.allowed_pods));
    } else if (IsScalarResourceName(name)) {
      int64_t value;
      CAPI_RETURN_IF_ERROR(DecodeQuantity(e, p, false, &value));
      r.SetScalar(in.Pin(name), value);  // pinned: NodeInfo keeps sums
    }
  }
  return ApiStatus();
}

ApiStatus DecodeLabels(const cJSON* v, const JsonPath& path, Interner& in, LabelSet* out) {
  *out = LabelSet();
  if (v == nullptr) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(v, path));
  std::vector<LabelSet::Entry> entries;
  size_t n = 0;
  for (const cJSON* e = v->child; e != nullptr; e = e->next) ++n;
  entries.reserve(n);  // one allocation, not one per doubling
  for (const cJSON* e = v->child; e != nullptr; e = e->next) {
    std::string_view value;  // null decodes as ""
    if (!cJSON_IsNull(e)) CAPI_RETURN_IF_ERROR(AsString(e, path.Child(e->string), &value));
    CAPI_RETURN_IF_ERROR(CheckLabelLengths(e->string, value, path));
    entries.emplace_back(in.Intern(e->string), in.Intern(value));
  }
  *out = LabelSet(std::move(entries));
  return ApiStatus();
}

ApiStatus DecodeName(const cJSON* obj, const JsonPath& path, const cJSON** meta,
                     std::string_view* name) {
  const JsonPath meta_path = path.Child("metadata");
  CAPI_RETURN_IF_ERROR(GetObject(obj, "metadata", path, meta));
  *name = {};
  if (*meta != nullptr) CAPI_RETURN_IF_ERROR(GetString(*meta, "name", meta_path, name));
  if (name->empty()) return Required(meta_path.Child("name"));
  return CheckMaxLen(*name, meta_path.Child("name"), "", kMaxNameBytes);
}

ApiStatus CheckMaxLen(std::string_view s, const JsonPath& path, std::string_view what,
                      size_t max) {
  if (s.size() <= max) return ApiStatus();
  return ApiStatus::Invalid(path, std::string(what) + "must be no more than " +
                                      std::to_string(max) + " characters");
}

ApiStatus CheckLabelKeyLength(std::string_view key, const JsonPath& path) {
  const size_t slash = key.find('/');
  if (slash != std::string_view::npos) {
    CAPI_RETURN_IF_ERROR(
        CheckMaxLen(key.substr(0, slash), path, "key prefix part ", kMaxLabelKeyPrefixBytes));
  }
  const std::string_view name = slash == std::string_view::npos ? key : key.substr(slash + 1);
  return CheckMaxLen(name, path, "key name part ", kMaxLabelKeyNameBytes);
}

ApiStatus CheckLabelValueLength(std::string_view value, const JsonPath& path) {
  return CheckMaxLen(value, path, "", kMaxLabelValueBytes);
}

ApiStatus CheckLabelLengths(std::string_view key, std::string_view value,
                            const JsonPath& map_path) {
  const JsonPath path = map_path.Child(key);
  CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(key, path));
  return CheckLabelValueLength(value, path);
}

ApiStatus Unsupported(const JsonPath& path, std::string_view value,
                      std::initializer_list<std::string_view> supported) {
  std::string msg = "Unsupported value: ";
  AppendJsonString(msg, value);
  msg += ": supported values: ";
  bool first = true;
  for (std::string_view s : supported) {
    if (!first) msg += ", ";
    AppendJsonString(msg, s);
    first = false;
  }
  return ApiStatus::Invalid(path, msg);
}

}  // namespace sched::capi
