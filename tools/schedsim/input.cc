#include "input.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "schema.h"
#include "simulator_export.h"
#include "strip.h"
#include "yaml_json.h"

namespace schedsim {
namespace fs = std::filesystem;
namespace {

bool HasExt(const std::string& path, std::initializer_list<const char*> exts) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
  return std::any_of(exts.begin(), exts.end(), [&](const char* e) { return ext == e; });
}

std::string ReadAll(const std::string& path) {
  if (path == "-") {
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read: " + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path + ": cannot read: " + std::strerror(errno));
  std::string text = ss.str();
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);  // UTF-8 BOM
  return text;
}

// "FILE:LINE:COL" of a byte offset.
std::string Position(const std::string& file, const std::string& text, size_t offset) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

// Why cJSON stopped at `at` (it says only where): the end of the input,
// a container or string it could not finish (cJSON points at its start), or
// the character it could not take.
std::string ParseProblem(const std::string& text, size_t at) {
  if (at >= text.size()) return "unexpected end of input";
  const char c = text[at];
  if (c == '{' || c == '[') {
    return std::string("the ") + (c == '{' ? "object" : "array") +
           " starting here is unclosed or holds a syntax error";
  }
  if (c == '"') return "the string starting here is unterminated or has a bad escape";
  const auto u = static_cast<unsigned char>(c);
  if (u < 0x20 || u >= 0x7f) return "unexpected byte " + std::to_string(u);
  return std::string("unexpected '") + c + "' (a missing comma or quote, a trailing comma?)";
}

// A stream of JSON values separated by whitespace (usually exactly one).
std::vector<JsonPtr> ParseJson(const std::string& text, const std::string& file) {
  std::vector<JsonPtr> docs;
  size_t pos = 0;
  for (;;) {
    pos = text.find_first_not_of(" \t\r\n", pos);
    if (pos == std::string::npos) break;
    const char* end = nullptr;
    cJSON* v = cJSON_ParseWithLengthOpts(text.data() + pos, text.size() - pos, &end, false);
    if (v == nullptr) {
      size_t at = end != nullptr ? static_cast<size_t>(end - text.data()) : pos;
      throw InputError(Position(file, text, at) + ": invalid JSON: " + ParseProblem(text, at));
    }
    docs.emplace_back(v);
    pos = static_cast<size_t>(end - text.data());
  }
  return docs;
}

bool LooksLikeJson(const std::string& text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  return i != std::string::npos && (text[i] == '{' || text[i] == '[');
}

void Flatten(cJSON* v, const Loc& loc, std::vector<InputObject>& out) {
  if (cJSON_IsArray(v)) {
    size_t i = 0;
    for (cJSON* item = v->child; item != nullptr; item = item->next) {
      Flatten(item, loc.Index(i++), out);
    }
    return;
  }

  if (!cJSON_IsObject(v)) throw InputError(loc, "must be a Kubernetes object (a JSON object)");
  std::optional<std::string> kind = OptString(Member(v, "kind"), loc.Key("kind"));
  if (!kind || kind->empty()) {
    throw InputError(loc.Key("kind"), "missing; every object needs a kind");
  }
  cJSON* items = Member(v, "items");
  if (kind->ends_with("List") && (items != nullptr || kind == "List")) {
    if (items != nullptr && !cJSON_IsArray(items)) {
      throw InputError(loc.Key("items"), "must be an array");
    }
    size_t i = 0;
    for (cJSON* item = items ? items->child : nullptr; item != nullptr; item = item->next) {
      Flatten(item, loc.Key("items").Index(i++), out);
    }
    return;
  }
  out.push_back(InputObject{v, *kind, loc});
}

std::vector<JsonPtr> ReadDocs(const std::string& path, bool* yaml, Lines* lines = nullptr);

void ReadFile(const std::string& path, Input& input, Diagnostics& diag) {
  bool yaml = false;
  Lines lines;  // YAML only: cJSON keeps no positions
  std::vector<JsonPtr> docs = ReadDocs(path, &yaml, &lines);
  for (size_t i = 0; i < docs.size(); ++i) {
    // YAML documents are numbered always, a JSON stream's only when it has several.
    int document = yaml || docs.size() > 1 ? static_cast<int>(i + 1) : 0;
    const size_t first = input.objects.size();
    if (IsSimulatorExport(docs[i].get())) {
      ReadSimulatorExport(docs[i].get(), Loc{path, document, ""}, input.objects, &input.config);
    } else {
      Flatten(docs[i].get(), Loc{path, document, ""}, input.objects);
    }
    // Early, so that a large dump shrinks before the next file is read.
    for (size_t j = first; j < input.objects.size(); ++j) {
      // Every later message about the object names its first line.
      if (auto line = lines.find(input.objects[j].json); line != lines.end()) {
        input.objects[j].loc.line = line->second;
      }
      CheckSchema(input.objects[j], lines, diag);
      StripUnread(input.objects[j].json, input.objects[j].kind);
    }
    input.docs.push_back(std::move(docs[i]));
  }
}

std::vector<JsonPtr> ReadDocs(const std::string& path, bool* yaml, Lines* lines) {
  std::string text = ReadAll(path);
  *yaml = HasExt(path, {".yaml", ".yml"}) || (!HasExt(path, {".json"}) && !LooksLikeJson(text));
  return *yaml ? ParseYaml(text, path, lines) : ParseJson(text, path);
}

}  // namespace

namespace {

// The one object of `path`; `what` names it in errors.
JsonPtr ReadOneObject(const std::string& path, const std::string& what, bool* yaml) {
  std::vector<JsonPtr> docs = ReadDocs(path, yaml);
  if (docs.size() != 1) {
    throw InputError(path + ": want one document (" + what + "), got " +
                     std::to_string(docs.size()));
  }
  if (!cJSON_IsObject(docs[0].get())) {
    throw InputError(Loc{path, *yaml ? 1 : 0, ""}, "must be an object (" + what + ")");
  }
  return std::move(docs[0]);
}

}  // namespace

JsonPtr ReadConfig(const std::string& path) {
  bool yaml = false;
  return ReadOneObject(path, "a KubeSchedulerConfiguration or a Policy", &yaml);
}

std::string ReadNodeTemplate(const std::string& path) {
  bool yaml = false;
  JsonPtr node = ReadOneObject(path, "a Node", &yaml);
  const Loc loc{path, yaml ? 1 : 0, ""};
  const cJSON* kind = cJSON_GetObjectItemCaseSensitive(node.get(), "kind");
  if (!cJSON_IsString(kind) || std::string(kind->valuestring) != "Node") {
    throw InputError(loc.Key("kind"), "want Node");
  }
  cJSON* status = cJSON_GetObjectItemCaseSensitive(node.get(), "status");
  const cJSON* capacity = cJSON_GetObjectItemCaseSensitive(status, "capacity");
  if (cJSON_IsObject(capacity) && !cJSON_HasObjectItem(status, "allocatable")) {
    cJSON_AddItemToObject(status, "allocatable", cJSON_Duplicate(capacity, true));
  }
  StripUnread(node.get(), "Node");
  return Print(node.get());
}

Input ReadInput(const std::vector<std::string>& paths, Diagnostics& diag) {
  Input input;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (path != "-" && fs::is_directory(path, ec)) {
      std::vector<std::string> files;
      for (const auto& e : fs::directory_iterator(path, ec)) {
        std::string f = e.path().string();
        if (e.is_regular_file() && HasExt(f, {".json", ".yaml", ".yml"})) files.push_back(f);
      }
      if (ec) throw InputError(path + ": cannot list: " + ec.message());
      std::sort(files.begin(), files.end());
      for (const std::string& f : files) ReadFile(f, input, diag);
    } else {
      ReadFile(path, input, diag);
    }
  }
  return input;
}

}  // namespace schedsim
