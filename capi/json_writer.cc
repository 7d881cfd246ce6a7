#include "capi/json_writer.h"

#include <charconv>

#include "capi/json_bytes.h"

namespace sched::capi {
namespace {

constexpr size_t kFirstReserve = 512;

// Appends `s` escaped, from its first byte that needs it (PlainPrefix).
void AppendEscaped(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  // Bytes that need no escape are appended a run at a time.
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto u = static_cast<unsigned char>(s[i]);
    if (kPlainJsonByte[u]) continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (u) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += kHex[u >> 4];
        out += kHex[u & 0xf];
    }
  }
  out.append(s.data() + run, s.size() - run);
}

}  // namespace

std::string Quoted(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

void AppendJsonString(std::string& out, std::string_view s) {
  // Names and messages are mostly plain: found eight bytes at a time and
  // appended at once.
  const size_t plain = PlainPrefix(s.data(), s.size());
  out += '"';
  out.append(s.data(), plain);
  if (plain < s.size()) AppendEscaped(out, s.substr(plain));
  out += '"';
}

JsonWriter& JsonWriter::Open(char c) {
  // Results are a few hundred bytes: grown from empty, the text would be
  // reallocated four or five times.
  if (out_.empty()) out_.reserve(kFirstReserve);
  BeforeValue();
  out_ += c;
  need_comma_ = false;
  return *this;
}

JsonWriter& JsonWriter::Close(char c) {
  out_ += c;
  need_comma_ = true;
  return *this;
}

void JsonWriter::BeforeValue() {
  if (need_comma_) out_ += ',';
}

JsonWriter& JsonWriter::Key(JsonKey key) {
  // Plain by JsonKey's check: no scan, and the quotes and colon around it
  // appended with it.
  const std::string_view k = key.str();
  if (need_comma_) out_ += ',';
  out_ += '"';
  out_.append(k.data(), k.size());
  out_.append("\":", 2);
  need_comma_ = false;  // the member's value follows without a comma
  return *this;
}

JsonWriter& JsonWriter::EscapedKey(std::string_view key) {
  BeforeValue();
  AppendJsonString(out_, key);
  out_ += ':';
  need_comma_ = false;  // the member's value follows without a comma
  return *this;
}

JsonWriter& JsonWriter::String(std::string_view s) {
  BeforeValue();
  AppendJsonString(out_, s);
  need_comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Int(int64_t v) {
  BeforeValue();
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  out_.append(buf, end);
  need_comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Bool(bool b) {
  BeforeValue();
  out_ += b ? "true" : "false";
  need_comma_ = true;
  return *this;
}

JsonWriter& JsonWriter::Null() {
  BeforeValue();
  out_ += "null";
  need_comma_ = true;
  return *this;
}

}  // namespace sched::capi
