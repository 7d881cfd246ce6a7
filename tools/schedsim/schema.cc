#include "schema.h"

#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

extern const char kKnownFieldsJson[];  // known_fields.json, embedded

namespace schedsim {
namespace {

using Fields = std::unordered_map<std::string, std::string>;  // field -> shape

struct Schema {
  // kind -> (apiVersion, type), in the data's order
  std::unordered_map<std::string, std::vector<std::pair<std::string, std::string>>> kinds;
  std::unordered_map<std::string, Fields> types;

  static const Schema& Get() {
    static const Schema s = Load();
    return s;
  }

  static Schema Load() {
    JsonPtr data(cJSON_Parse(kKnownFieldsJson));
    if (data == nullptr) throw std::runtime_error("known_fields.json: unreadable");
    Schema s;
    for (const cJSON* k = Member(data.get(), "kinds")->child; k != nullptr; k = k->next) {
      s.kinds[cJSON_GetArrayItem(k, 1)->valuestring].emplace_back(
          cJSON_GetArrayItem(k, 0)->valuestring, cJSON_GetArrayItem(k, 2)->valuestring);
    }
    for (const cJSON* t = Member(data.get(), "types")->child; t != nullptr; t = t->next) {
      Fields& f = s.types[t->string];
      for (const cJSON* m = t->child; m != nullptr; m = m->next) f[m->string] = m->valuestring;
    }
    return s;
  }
};

// The type of `kind` in `api_version` ("" for any: the first the data
// lists, stable versions sort first), or nullptr.
const std::string* TypeOf(const Schema& s, const std::string& kind,
                          const std::string& api_version) {
  auto it = s.kinds.find(kind);
  if (it == s.kinds.end()) return nullptr;
  for (const auto& [version, type] : it->second) {
    if (api_version.empty() || version == api_version) return &type;
  }
  return nullptr;
}

class Walker {
 public:
  Walker(const Schema& s, const InputObject& obj, const Lines& lines, Diagnostics& diag)
      : s_(s), obj_(obj), lines_(lines), diag_(diag) {}

  void Walk(const cJSON* v, std::string_view shape, const std::string& path) {
    if (shape.empty() || v == nullptr) return;
    if (shape[0] == '[') {
      if (!cJSON_IsArray(v)) return;  // wrong types are the decoders' to report
      size_t i = 0;
      for (const cJSON* e = v->child; e != nullptr; e = e->next) {
        Walk(e, shape.substr(1), path + "[" + std::to_string(i++) + "]");
      }
      return;
    }
    if (!cJSON_IsObject(v)) return;
    if (shape[0] == '{') {
      for (const cJSON* m = v->child; m != nullptr; m = m->next) {
        Walk(m, shape.substr(1), Join(path, m->string));
      }
      return;
    }
    auto type = s_.types.find(std::string(shape));
    if (type == s_.types.end()) return;
    for (const cJSON* m = v->child; m != nullptr; m = m->next) {
      auto f = type->second.find(m->string);
      std::string p = Join(path, m->string);
      if (f == type->second.end()) {
        Loc at = obj_.loc;
        auto line = lines_.find(m);
        if (line != lines_.end()) at.line = line->second;
        diag_.Warn(at, "unknown field \"" + p + "\"");
      } else {
        Walk(m, f->second, p);
      }
    }
  }

 private:
  static std::string Join(const std::string& path, const char* key) {
    return path.empty() ? key : path + "." + key;
  }

  const Schema& s_;
  const InputObject& obj_;
  const Lines& lines_;
  Diagnostics& diag_;
};

}  // namespace

void CheckSchema(const InputObject& obj, const Lines& lines, Diagnostics& diag) {
  const Schema& s = Schema::Get();
  const cJSON* av = Member(obj.json, "apiVersion");
  std::string api_version = cJSON_IsString(av) ? av->valuestring : "";
  const std::string* type = TypeOf(s, obj.kind, api_version);
  if (type == nullptr) {
    Loc at = obj.loc;
    auto line = lines.find(Member(obj.json, "kind"));
    if (line != lines.end()) at.line = line->second;
    diag.Warn(at, "no matches for kind \"" + obj.kind + "\"" +
                      (api_version.empty() ? "" : " in version \"" + api_version + "\""));
    return;
  }
  Walker(s, obj, lines, diag).Walk(obj.json, *type, "");
}

}  // namespace schedsim
