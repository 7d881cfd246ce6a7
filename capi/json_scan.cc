#include "capi/json_scan.h"

#include <cstdint>
#include <cstring>

#include "capi/json_bytes.h"

namespace sched::capi {
namespace {

// cJSON copies a number into a 64-byte buffer before strtod: a longer one
// is cut and then fails or parses differently.
constexpr size_t kMaxNumberChars = 63;

class Scanner {
 public:
  Scanner(std::string_view t, size_t pos, int max_depth) : t_(t), i_(pos), max_depth_(max_depth) {}

  // Scans one value at the current position; on success the position is
  // one past it. `root` records the large array (JsonScan).
  bool Value(int depth, JsonScan* root) {
    if (i_ >= t_.size()) return false;
    switch (t_[i_]) {
      case '{':
        return Object(depth + 1, root);
      case '[':
        if (root != nullptr) root->array_begin = i_;
        if (!Array(depth + 1, root != nullptr ? &root->array_count : nullptr)) return false;
        if (root != nullptr) root->array_end = i_;
        return true;
      case '"':
        return String();
      case 't':
        return Literal("true");
      case 'f':
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        return Number();
    }
  }

  void Whitespace() {
    while (i_ < t_.size() && IsJsonSpace(t_[i_])) ++i_;
  }

  size_t pos() const { return i_; }

 private:
  bool Peek(char c) const { return i_ < t_.size() && t_[i_] == c; }
  // Steps over `c` when it is next.
  bool Consume(char c) {
    if (!Peek(c)) return false;
    ++i_;
    return true;
  }

  bool Literal(std::string_view word) {
    if (t_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }

  bool Digits() {
    const size_t begin = i_;
    while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
    return i_ > begin;
  }

  bool Number() {
    const size_t begin = i_;
    Consume('-');
    if (!Consume('0') && !Digits()) return false;
    if (Consume('.') && !Digits()) return false;
    if (Consume('e') || Consume('E')) {
      if (!Consume('+')) Consume('-');
      if (!Digits()) return false;
    }
    return i_ - begin <= kMaxNumberChars;
  }

  bool Hex4(size_t at, unsigned* out) const {
    if (at + 4 > t_.size()) return false;
    unsigned v = 0;
    for (size_t k = at; k < at + 4; ++k) {
      const char c = t_[k];
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

  // A \u escape at i_ (the backslash): one code unit, or a surrogate pair.
  bool UnicodeEscape() {
    unsigned hi;
    if (!Hex4(i_ + 2, &hi) || (hi >= 0xDC00 && hi <= 0xDFFF)) return false;
    if (hi < 0xD800 || hi > 0xDBFF) {
      i_ += 6;
      return true;
    }
    unsigned lo;
    if (i_ + 8 > t_.size() || t_[i_ + 6] != '\\' || t_[i_ + 7] != 'u' || !Hex4(i_ + 8, &lo) ||
        lo < 0xDC00 || lo > 0xDFFF) {
      return false;
    }
    i_ += 12;
    return true;
  }

  // Steps over a run of plain bytes, eight at a time while eight are left.
  // (PlainPrefix's loop, kept here on the member: a call per string
  // costs the scan of an apply 10% more instructions.)
  void SkipPlain() {
    uint64_t w;
    while (i_ + sizeof w <= t_.size()) {
      std::memcpy(&w, t_.data() + i_, sizeof w);
      const unsigned k = FirstSpecialByte(w);
      i_ += k;
      if (k < sizeof w) return;
    }
    while (i_ < t_.size() && kPlainJsonByte[static_cast<unsigned char>(t_[i_])]) ++i_;
  }

  bool String() {
    ++i_;  // the opening quote
    while (i_ < t_.size()) {
      SkipPlain();
      if (i_ >= t_.size()) return false;
      const auto c = static_cast<unsigned char>(t_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c != '\\') return false;  // a control byte
      if (i_ + 1 >= t_.size()) return false;
      const char e = t_[i_ + 1];
      if (e == 'u') {
        if (!UnicodeEscape()) return false;
      } else if (e != '\0' && std::strchr("\"\\/bfnrt", e) != nullptr) {
        i_ += 2;
      } else {
        return false;
      }
    }
    return false;
  }

  bool Array(int depth, size_t* count) {
    if (depth > max_depth_) return false;
    ++i_;
    Whitespace();
    if (Consume(']')) return true;
    for (;;) {
      if (!Value(depth, nullptr)) return false;
      if (count != nullptr) ++*count;
      Whitespace();
      if (Consume(']')) return true;
      if (!Consume(',')) return false;
      Whitespace();
    }
  }

  // `root` is set for the root object: its "items" array is recorded.
  bool Object(int depth, JsonScan* root) {
    if (depth > max_depth_) return false;
    ++i_;
    Whitespace();
    if (Consume('}')) return true;
    bool items_seen = false, ambiguous = false;
    for (;;) {
      if (!Peek('"')) return false;
      const size_t key_begin = i_ + 1;
      if (!String()) return false;
      const std::string_view key = t_.substr(key_begin, i_ - 1 - key_begin);
      Whitespace();
      if (!Consume(':')) return false;
      Whitespace();
      JsonScan* record = nullptr;
      if (root != nullptr) {
        // A key with escapes might decode to "items"; a repeated "items"
        // is the decoder's error to report: parse those documents whole.
        if (key.find('\\') != std::string_view::npos) ambiguous = true;
        if (key == "items") {
          ambiguous |= items_seen;
          items_seen = true;
          if (Peek('[')) record = root;
        }
      }
      if (!Value(depth, record)) return false;
      Whitespace();
      if (Consume('}')) break;
      if (!Consume(',')) return false;
      Whitespace();
    }
    if (ambiguous) *root = JsonScan();
    return true;
  }

  std::string_view t_;
  size_t i_;
  const int max_depth_;
};

}  // namespace

JsonScan ScanJson(std::string_view text, int max_depth) {
  JsonScan scan;
  Scanner s(text, 0, max_depth);
  s.Whitespace();
  if (!s.Value(0, &scan)) return JsonScan();
  s.Whitespace();
  if (s.pos() != text.size()) return JsonScan();
  scan.strict = true;
  return scan;
}

}  // namespace sched::capi
