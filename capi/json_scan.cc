#include "capi/json_scan.h"

#include <cstdint>
#include <cstring>

#include "capi/json_bytes.h"

namespace sched::capi {
namespace {

// cJSON copies a number into a 64-byte buffer before strtod: a longer one
// is cut and then fails or parses differently.
constexpr size_t kMaxNumberChars = 63;

// Each step takes the position and returns the one past what it scanned,
// or null when the text is not strict there. The position is a local, not
// a member: a member pointer must be stored before every byte read (a char
// read may alias it), which made the scan of a pod 3.9k instructions.
class Scanner {
 public:
  Scanner(std::string_view t, int max_depth)
      : begin_(t.data()), end_(t.data() + t.size()), max_depth_(max_depth) {}

  // The root value at `p`; records the large array in `root` (JsonScan).
  const char* Root(const char* p, JsonScan* root) const {
    if (p == end_) return nullptr;
    if (*p == '{') return Object(p, 1, root);
    if (*p == '[') return RecordArray(p, 1, root);
    return Value(p, 0);
  }

  const char* Whitespace(const char* p) const {
    while (p != end_ && IsJsonSpace(*p)) ++p;
    return p;
  }

 private:
  const char* Value(const char* p, int depth) const {
    if (p == end_) return nullptr;
    switch (*p) {
      case '{':
        return Object(p, depth + 1, nullptr);
      case '[':
        return Array(p, depth + 1, nullptr);
      case '"':
        return String(p);
      case 't':
        return Literal(p, "true");
      case 'f':
        return Literal(p, "false");
      case 'n':
        return Literal(p, "null");
      default:
        return Number(p);
    }
  }

  // An array element or an object member's value: a string (the most
  // common) is scanned here, without Value's call.
  const char* Element(const char* p, int depth) const {
    if (p != end_ && *p == '"') return String(p);
    return Value(p, depth);
  }

  // `p` stepped over `c` when it is next.
  bool Consume(const char*& p, char c) const {
    if (p == end_ || *p != c) return false;
    ++p;
    return true;
  }

  const char* Literal(const char* p, std::string_view word) const {
    if (static_cast<size_t>(end_ - p) < word.size() ||
        std::memcmp(p, word.data(), word.size()) != 0) {
      return nullptr;
    }
    return p + word.size();
  }

  // Steps over a run of digits; false when there is none.
  bool Digits(const char*& p) const {
    const char* begin = p;
    while (p != end_ && *p >= '0' && *p <= '9') ++p;
    return p != begin;
  }

  const char* Number(const char* p) const {
    const char* begin = p;
    Consume(p, '-');
    if (!Consume(p, '0') && !Digits(p)) return nullptr;
    if (Consume(p, '.') && !Digits(p)) return nullptr;
    if (Consume(p, 'e') || Consume(p, 'E')) {
      if (!Consume(p, '+')) Consume(p, '-');
      if (!Digits(p)) return nullptr;
    }
    return static_cast<size_t>(p - begin) <= kMaxNumberChars ? p : nullptr;
  }

  static bool Hex4(const char* at, unsigned* out) {
    unsigned v = 0;
    for (const char* k = at; k < at + 4; ++k) {
      const char c = *k;
      unsigned d;
      if (c >= '0' && c <= '9') {
        d = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        d = c - 'a' + 10;
      } else if (c >= 'A' && c <= 'F') {
        d = c - 'A' + 10;
      } else {
        return false;
      }
      v = v * 16 + d;
    }
    *out = v;
    return true;
  }

  // A \u escape at `p` (the backslash): one code unit, or a surrogate pair.
  const char* UnicodeEscape(const char* p) const {
    unsigned hi;
    if (end_ - p < 6 || !Hex4(p + 2, &hi) || (hi >= 0xDC00 && hi <= 0xDFFF)) return nullptr;
    if (hi < 0xD800 || hi > 0xDBFF) return p + 6;
    unsigned lo;
    if (end_ - p < 12 || p[6] != '\\' || p[7] != 'u' || !Hex4(p + 8, &lo) || lo < 0xDC00 ||
        lo > 0xDFFF) {
      return nullptr;
    }
    return p + 12;
  }

  // A string at `p` (its opening quote). Plain bytes are stepped over
  // eight at a time while eight are left (PlainPrefix's loop, kept here:
  // a call per string costs the scan 10% more instructions).
  const char* String(const char* p) const {
    ++p;
    for (;;) {
      uint64_t w;
      while (end_ - p >= static_cast<ptrdiff_t>(sizeof w)) {
        std::memcpy(&w, p, sizeof w);
        const unsigned k = FirstSpecialByte(w);
        p += k;
        if (k < sizeof w) break;
      }
      while (p != end_ && kPlainJsonByte[static_cast<unsigned char>(*p)]) ++p;
      if (p == end_) return nullptr;
      if (*p == '"') return p + 1;
      if (*p != '\\' || end_ - p < 2) return nullptr;  // a control byte
      const char e = p[1];
      if (e == 'u') {
        p = UnicodeEscape(p);
        if (p == nullptr) return nullptr;
      } else if (e != '\0' && std::strchr("\"\\/bfnrt", e) != nullptr) {
        p += 2;
      } else {
        return nullptr;
      }
    }
  }

  const char* Array(const char* p, int depth, size_t* count) const {
    if (depth > max_depth_) return nullptr;
    p = Whitespace(p + 1);
    if (Consume(p, ']')) return p;
    for (;;) {
      p = Element(p, depth);
      if (p == nullptr) return nullptr;
      if (count != nullptr) ++*count;
      p = Whitespace(p);
      if (Consume(p, ']')) return p;
      if (!Consume(p, ',')) return nullptr;
      p = Whitespace(p);
    }
  }

  // The root array: its offsets and its elements.
  const char* RecordArray(const char* p, int depth, JsonScan* root) const {
    root->array_begin = static_cast<size_t>(p - begin_);
    p = Array(p, depth, &root->array_count);
    if (p == nullptr) return nullptr;
    root->array_end = static_cast<size_t>(p - begin_);
    return p;
  }

  // `root` is set for the root object: its "items" array is recorded.
  const char* Object(const char* p, int depth, JsonScan* root) const {
    if (depth > max_depth_) return nullptr;
    p = Whitespace(p + 1);
    if (Consume(p, '}')) return p;
    bool items_seen = false, ambiguous = false;
    for (;;) {
      if (p == end_ || *p != '"') return nullptr;
      const char* key_begin = p + 1;
      p = String(p);
      if (p == nullptr) return nullptr;
      const std::string_view key(key_begin, static_cast<size_t>(p - 1 - key_begin));
      p = Whitespace(p);
      if (!Consume(p, ':')) return nullptr;
      p = Whitespace(p);
      bool recorded = false;
      if (root != nullptr) {
        // A key with escapes might decode to "items"; a repeated "items"
        // is the decoder's error to report: parse those documents whole.
        if (key.find('\\') != std::string_view::npos) ambiguous = true;
        if (key == "items") {
          ambiguous |= items_seen;
          items_seen = true;
          if (p != end_ && *p == '[') {
            p = RecordArray(p, depth + 1, root);
            recorded = true;
          }
        }
      }
      if (!recorded) p = Element(p, depth);
      if (p == nullptr) return nullptr;
      p = Whitespace(p);
      if (Consume(p, '}')) break;
      if (!Consume(p, ',')) return nullptr;
      p = Whitespace(p);
    }
    if (ambiguous) *root = JsonScan();
    return p;
  }

  const char* const begin_;
  const char* const end_;
  const int max_depth_;
};

}  // namespace

JsonScan ScanJson(std::string_view text, int max_depth) {
  JsonScan scan;
  const Scanner s(text, max_depth);
  const char* p = s.Root(s.Whitespace(text.data()), &scan);
  if (p == nullptr || s.Whitespace(p) != text.data() + text.size()) return JsonScan();
  scan.strict = true;
  return scan;
}

}  // namespace sched::capi
