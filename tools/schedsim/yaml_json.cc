#include "yaml_json.h"

#include <yaml.h>

#include <cstdlib>
#include <cstring>
#include <map>

namespace schedsim {
namespace {

// Aliases copy their anchor; this caps the copies so a "billion laughs"
// document fails cleanly instead of exhausting memory.
constexpr size_t kMaxAliasNodes = 1'000'000;
// Deeper documents would overflow the stack of cJSON's recursive functions.
constexpr size_t kMaxDepth = 512;

bool OneOf(const std::string& s, std::initializer_list<const char*> words) {
  for (const char* w : words) {
    if (s == w) return true;
  }
  return false;
}

// strconv.ParseInt(s, 0, 64) / ParseUint as go-yaml calls them, on the text
// with '_' removed: optional sign, then 0x / 0o / 0b / leading-0 octal or
// decimal digits. Values beyond 64 bits are not ints.
bool ParseGoInt(std::string s, double* out) {
  std::erase(s, '_');
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) neg = s[i++] == '-';
  int base = 10;
  if (s.size() - i > 2 && s[i] == '0' && std::strchr("xXoObB", s[i + 1]) != nullptr) {
    char p = static_cast<char>(s[i + 1] | 0x20);
    base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
    i += 2;
  } else if (s.size() - i > 1 && s[i] == '0') {
    base = 8;
  }
  if (i >= s.size()) return false;
  unsigned long long v = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    if (d >= base) return false;
    if (v > (~0ULL - static_cast<unsigned>(d)) / static_cast<unsigned>(base)) return false;
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  if (neg && v > (1ULL << 63)) return false;
  *out = neg ? -static_cast<double>(v) : static_cast<double>(v);
  return true;
}

// go-yaml's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlFloat(const std::string& s) {
  size_t i = 0, n = s.size();
  auto digits = [&] {
    size_t start = i;
    while (i < n && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < n && s[i] == '.') {
    ++i;
    if (!digits()) return false;
  } else {
    if (!digits()) return false;
    if (i < n && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == n;
}

cJSON* ResolvePlain(const std::string& s) {
  if (OneOf(s, {"", "~", "null", "Null", "NULL"})) return cJSON_CreateNull();
  if (OneOf(s, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
    return cJSON_CreateTrue();
  }
  if (OneOf(s, {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
    return cJSON_CreateFalse();
  }
  double d;
  if (ParseGoInt(s, &d)) return cJSON_CreateNumber(d);
  std::string plain = s;
  std::erase(plain, '_');
  if (IsYamlFloat(plain)) return cJSON_CreateNumber(std::strtod(plain.c_str(), nullptr));
  return cJSON_CreateString(s.c_str());
}

size_t CountNodes(const cJSON* v) {
  size_t n = 1;
  for (const cJSON* c = v->child; c != nullptr; c = c->next) n += CountNodes(c);
  return n;
}

// Builds JSON trees from the parser's events.
class Builder {
 public:
  Builder(std::string file, Lines* lines) : file_(std::move(file)), lines_(lines) {}

  void On(const yaml_event_t& ev) {
    line_ = static_cast<int>(ev.start_mark.line) + 1;
    switch (ev.type) {
      case YAML_DOCUMENT_START_EVENT:
        ++document_;
        anchors_.clear();
        break;
      case YAML_DOCUMENT_END_EVENT:
        if (root_ != nullptr && !cJSON_IsNull(root_.get())) docs_.push_back(std::move(root_));
        root_.reset();
        break;
      case YAML_SCALAR_EVENT: {
        const auto& s = ev.data.scalar;
        std::string text(reinterpret_cast<const char*>(s.value), s.length);
        if (ExpectingKey()) return SetKey(text);
        const char* tag = reinterpret_cast<const char*>(s.tag);
        bool is_str = tag != nullptr && std::strcmp(tag, YAML_STR_TAG) == 0;
        bool plain = s.style == YAML_PLAIN_SCALAR_STYLE && !is_str;
        Attach(plain ? ResolvePlain(text) : cJSON_CreateString(text.c_str()), s.anchor);
        break;
      }
      case YAML_SEQUENCE_START_EVENT:
        StartContainer(cJSON_CreateArray(), ev.data.sequence_start.anchor);
        break;
      case YAML_MAPPING_START_EVENT:
        StartContainer(cJSON_CreateObject(), ev.data.mapping_start.anchor);
        break;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        stack_.pop_back();
        break;
      case YAML_ALIAS_EVENT: {
        std::string name(reinterpret_cast<const char*>(ev.data.alias.anchor));
        auto it = anchors_.find(name);
        if (it == anchors_.end()) throw InputError(Here(), "unknown alias *" + name);
        if (ExpectingKey()) {
          if (!cJSON_IsString(it->second)) {
            throw InputError(Here(), "alias *" + name + " is not a valid key");
          }
          return SetKey(it->second->valuestring);
        }
        alias_nodes_ += CountNodes(it->second);
        if (alias_nodes_ > kMaxAliasNodes) throw InputError(Here(), "too many alias expansions");
        Attach(cJSON_Duplicate(it->second, true), nullptr);
        break;
      }
      default:
        break;
    }
  }

  std::vector<JsonPtr> Take() { return std::move(docs_); }

 private:
  struct Frame {
    cJSON* node;
    Loc loc;
    std::string key;
    bool have_key = false;
    size_t index = 0;
    int key_line = 0;
  };

  bool ExpectingKey() const {
    return !stack_.empty() && cJSON_IsObject(stack_.back().node) && !stack_.back().have_key;
  }

  void SetKey(const std::string& key) {
    Frame& f = stack_.back();
    if (cJSON_GetObjectItemCaseSensitive(f.node, key.c_str()) != nullptr) {
      throw InputError(f.loc.Key(key), "duplicate key");
    }
    f.key = key;
    f.key_line = line_;
    f.have_key = true;
  }

  // Where the next value goes (the mapping itself while its key is awaited).
  Loc Here() const {
    if (stack_.empty()) return Loc{file_, document_, ""};
    const Frame& f = stack_.back();
    if (cJSON_IsArray(f.node)) return f.loc.Index(f.index);
    return f.have_key ? f.loc.Key(f.key) : f.loc;
  }

  void StartContainer(cJSON* node, const yaml_char_t* anchor) {
    if (ExpectingKey()) {
      cJSON_Delete(node);
      throw InputError(Here(), "complex mapping keys are not supported");
    }
    if (stack_.size() >= kMaxDepth) {
      cJSON_Delete(node);
      throw InputError(Here(), "nested too deeply");
    }
    Loc loc = Here();
    Attach(node, anchor);
    stack_.push_back(Frame{node, std::move(loc), "", false, 0});
  }

  // Adds a value to the current container (or makes it the root); the tree
  // owns it from here on, so an exception later leaks nothing.
  void Attach(cJSON* v, const yaml_char_t* anchor) {
    if (v == nullptr) throw std::bad_alloc();
    if (lines_ != nullptr) {
      const bool member = !stack_.empty() && cJSON_IsObject(stack_.back().node);
      (*lines_)[v] = member ? stack_.back().key_line : line_;
    }
    if (stack_.empty()) {
      root_.reset(v);
    } else if (Frame& f = stack_.back(); cJSON_IsArray(f.node)) {
      cJSON_AddItemToArray(f.node, v);
      ++f.index;
    } else {
      cJSON_AddItemToObject(f.node, f.key.c_str(), v);
      f.have_key = false;
    }
    if (anchor != nullptr) anchors_[reinterpret_cast<const char*>(anchor)] = v;
  }

  std::string file_;
  Lines* lines_;
  int line_ = 0;  // of the event being handled
  int document_ = 0;
  JsonPtr root_;
  std::vector<Frame> stack_;
  std::map<std::string, cJSON*> anchors_;
  size_t alias_nodes_ = 0;
  std::vector<JsonPtr> docs_;
};

struct ParserGuard {
  yaml_parser_t* p;
  ~ParserGuard() { yaml_parser_delete(p); }
};

struct EventGuard {
  yaml_event_t* e;
  ~EventGuard() { yaml_event_delete(e); }
};

}  // namespace

std::vector<JsonPtr> ParseYaml(const std::string& text, const std::string& file, Lines* lines) {
  yaml_parser_t parser;
  if (!yaml_parser_initialize(&parser)) throw std::bad_alloc();
  ParserGuard pg{&parser};
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  Builder builder(file, lines);
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&parser, &ev)) {
      const yaml_mark_t& m = parser.problem_mark;
      std::string msg = parser.problem != nullptr ? parser.problem : "syntax error";
      if (parser.context != nullptr) msg += " " + std::string(parser.context);
      throw InputError(file + ":" + std::to_string(m.line + 1) + ":" +
                       std::to_string(m.column + 1) + ": invalid YAML: " + msg);
    }
    EventGuard eg{&ev};
    builder.On(ev);
    if (ev.type == YAML_STREAM_END_EVENT) break;
  }
  return builder.Take();
}

}  // namespace schedsim
