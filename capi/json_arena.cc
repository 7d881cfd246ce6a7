#include "capi/json_arena.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <system_error>

#include "capi/json_scan.h"
#include "capi/limits.h"

namespace sched::capi {

// The parser over one text; each step returns false on text that is not
// strict JSON (where cJSON may still accept it: the caller asks cJSON).
class JsonArenaParser {
 public:
  JsonArenaParser(std::string_view text, JsonArena& arena)
      : p_(text.data()), end_(text.data() + text.size()), arena_(arena) {}

  const char* pos() const { return p_; }

  bool Value(cJSON* item, int depth) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return depth < kMaxJsonDepth && Object(item, depth + 1);
      case '[':
        return depth < kMaxJsonDepth && Array(item, depth + 1);
      case '"':
        item->type = cJSON_String;
        return String(&item->valuestring);
      case 't':
        item->type = cJSON_True;
        item->valueint = 1;  // as cJSON sets it
        return Literal("true");
      case 'f':
        item->type = cJSON_False;
        return Literal("false");
      case 'n':
        item->type = cJSON_NULL;
        return Literal("null");
      default:
        return Number(item);
    }
  }

 private:
  cJSON* NewItem() {
    auto* item = static_cast<cJSON*>(arena_.Allocate(sizeof(cJSON)));
    std::memset(item, 0, sizeof(cJSON));
    return item;
  }

  void Whitespace() {
    while (p_ != end_ && IsJsonSpace(*p_)) ++p_;
  }

  bool Consume(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }

  bool Literal(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() ||
        std::memcmp(p_, word.data(), word.size()) != 0) {
      return false;
    }
    p_ += word.size();
    return true;
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }

  // RFC 8259's number, at most 63 characters (what cJSON copies), and not
  // followed by a byte cJSON would take as part of it.
  bool Number(cJSON* item) {
    const char* begin = p_;
    Consume('-');
    if (!Consume('0')) {
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ != end_ && IsDigit(*p_)) ++p_;
    }
    if (Consume('.')) {
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ != end_ && IsDigit(*p_)) ++p_;
    }
    if (Consume('e') || Consume('E')) {
      if (!Consume('+')) Consume('-');
      if (p_ == end_ || !IsDigit(*p_)) return false;
      while (p_ != end_ && IsDigit(*p_)) ++p_;
    }
    if (p_ - begin > 63) return false;
    if (p_ != end_ && (IsDigit(*p_) || *p_ == '+' || *p_ == '-' || *p_ == 'e' || *p_ == 'E' ||
                       *p_ == '.')) {
      return false;
    }
    // strtod's correctly rounded double, with no locale. Out of range
    // (strtod's HUGE_VAL or underflow) is left to cJSON.
    double number;
    const auto [ptr, ec] = std::from_chars(begin, p_, number);
    if (ec != std::errc() || ptr != p_) return false;
    item->type = cJSON_Number;
    item->valuedouble = number;
    // cJSON's saturation.
    if (number >= INT_MAX) {
      item->valueint = INT_MAX;
    } else if (number <= static_cast<double>(INT_MIN)) {
      item->valueint = INT_MIN;
    } else {
      item->valueint = static_cast<int>(number);
    }
    return true;
  }

  static bool Hex4(const char* at, unsigned* out) {
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = at[k];
      unsigned d;
      if (c >= '0' && c <= '9') {
        d = static_cast<unsigned>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        d = static_cast<unsigned>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        d = static_cast<unsigned>(c - 'A' + 10);
      } else {
        return false;
      }
      v = v * 16 + d;
    }
    *out = v;
    return true;
  }

  // A \u escape at `in` (its backslash), before `stop`: one code unit or a
  // surrogate pair, written as UTF-8 at *out. Advances both.
  static bool Unicode(const char** in, const char* stop, char** out) {
    const char* s = *in;
    unsigned code;
    if (stop - s < 6 || !Hex4(s + 2, &code) || (code >= 0xDC00 && code <= 0xDFFF)) return false;
    unsigned long cp = code;
    size_t length = 6;
    if (code >= 0xD800 && code <= 0xDBFF) {
      unsigned low;
      if (stop - s < 12 || s[6] != '\\' || s[7] != 'u' || !Hex4(s + 8, &low) || low < 0xDC00 ||
          low > 0xDFFF) {
        return false;
      }
      cp = 0x10000 + (((code & 0x3FF) << 10) | (low & 0x3FF));
      length = 12;
    }
    auto* o = reinterpret_cast<unsigned char*>(*out);
    size_t n;
    if (cp < 0x80) {
      o[0] = static_cast<unsigned char>(cp);
      n = 1;
    } else if (cp < 0x800) {
      o[0] = static_cast<unsigned char>(0xC0 | (cp >> 6));
      o[1] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
      n = 2;
    } else if (cp < 0x10000) {
      o[0] = static_cast<unsigned char>(0xE0 | (cp >> 12));
      o[1] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
      o[2] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
      n = 3;
    } else {
      o[0] = static_cast<unsigned char>(0xF0 | (cp >> 18));
      o[1] = static_cast<unsigned char>(0x80 | ((cp >> 12) & 0x3F));
      o[2] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
      o[3] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
      n = 4;
    }
    *out += n;
    *in += length;
    return true;
  }

  // The string at p_ (its opening quote), unescaped and NUL-terminated.
  bool String(char** out) {
    const char* begin = ++p_;
    const char* q = begin;
    bool escaped = false;
    for (;;) {
      if (q == end_) return false;
      const auto c = static_cast<unsigned char>(*q);
      if (c == '"') break;
      if (c < 0x20) return false;
      if (c == '\\') {
        escaped = true;
        if (++q == end_) return false;
      }
      ++q;
    }
    // No escape is shorter than what it stands for.
    char* s = static_cast<char*>(arena_.Allocate(static_cast<size_t>(q - begin) + 1));
    char* o = s;
    if (!escaped) {
      std::memcpy(o, begin, static_cast<size_t>(q - begin));
      o += q - begin;
    } else {
      for (const char* in = begin; in != q;) {
        if (*in != '\\') {
          *o++ = *in++;
          continue;
        }
        switch (in[1]) {
          case 'b': *o++ = '\b'; break;
          case 'f': *o++ = '\f'; break;
          case 'n': *o++ = '\n'; break;
          case 'r': *o++ = '\r'; break;
          case 't': *o++ = '\t'; break;
          case '"':
          case '\\':
          case '/':
            *o++ = in[1];
            break;
          case 'u':
            if (!Unicode(&in, q, &o)) return false;
            continue;
          default:
            return false;
        }
        in += 2;
      }
    }
    *o = '\0';
    *out = s;
    p_ = q + 1;
    return true;
  }

  bool Array(cJSON* item, int depth) {
    item->type = cJSON_Array;
    ++p_;
    Whitespace();
    if (Consume(']')) return true;
    cJSON* last = nullptr;
    for (;;) {
      cJSON* e = NewItem();
      Link(item, last, e);
      last = e;
      if (!Value(e, depth)) return false;
      Whitespace();
      if (Consume(']')) return true;
      if (!Consume(',')) return false;
      Whitespace();
    }
  }

  bool Object(cJSON* item, int depth) {
    item->type = cJSON_Object;
    ++p_;
    Whitespace();
    if (Consume('}')) return true;
    cJSON* last = nullptr;
    for (;;) {
      if (p_ == end_ || *p_ != '"') return false;
      cJSON* e = NewItem();
      Link(item, last, e);
      last = e;
      if (!String(&e->string)) return false;
      Whitespace();
      if (!Consume(':')) return false;
      Whitespace();
      if (!Value(e, depth)) return false;
      Whitespace();
      if (Consume('}')) return true;
      if (!Consume(',')) return false;
      Whitespace();
    }
  }

  // Appends `e` after `last` in `parent`'s list; the head's prev is the
  // last node, as cJSON leaves its lists.
  static void Link(cJSON* parent, cJSON* last, cJSON* e) {
    if (last == nullptr) {
      parent->child = e;
    } else {
      last->next = e;
      e->prev = last;
    }
    parent->child->prev = e;
  }

  const char* p_;
  const char* const end_;
  JsonArena& arena_;
};

namespace {

// Most pods' trees fit in one block.
constexpr size_t kBlockBytes = size_t{32} << 10;

}  // namespace

const cJSON* JsonArena::Parse(std::string_view text, size_t* end) {
  Reset();
  JsonArenaParser parser(text, *this);
  auto* root = static_cast<cJSON*>(Allocate(sizeof(cJSON)));
  std::memset(root, 0, sizeof(cJSON));
  if (!parser.Value(root, 0)) return nullptr;
  *end = static_cast<size_t>(parser.pos() - text.data());
  return root;
}

size_t JsonArena::capacity() const {
  size_t n = 0;
  for (const Block& b : blocks_) n += b.size;
  return n;
}

void JsonArena::Reset() {
  block_ = 0;
  used_ = 0;
}

void* JsonArena::Allocate(size_t bytes) {
  bytes = (bytes + 7) & ~size_t{7};  // cJSON's pointers and double
  if (block_ < blocks_.size() && blocks_[block_].size - used_ >= bytes) {
    void* p = reinterpret_cast<char*>(blocks_[block_].data.get()) + used_;
    used_ += bytes;
    return p;
  }
  // The next block, kept from an earlier tree when it is large enough.
  const size_t next = blocks_.empty() ? 0 : block_ + 1;
  if (next == blocks_.size()) blocks_.emplace_back();
  Block& b = blocks_[next];
  if (b.size < bytes) {
    const size_t size = std::max(kBlockBytes, bytes);
    b.data = std::make_unique_for_overwrite<std::max_align_t[]>(
        (size + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
    b.size = size;
  }
  block_ = next;
  used_ = bytes;
  return b.data.get();
}

}  // namespace sched::capi
