// JsonWriter: compact JSON text for the documents the library returns.
// Integers are written exactly (int64 through std::to_chars), not through
// cJSON's doubles, which lose precision above 2^53.
#ifndef CAPI_JSON_WRITER_H_
#define CAPI_JSON_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "capi/json_bytes.h"

namespace sched::capi {

// Appends `s` as a quoted JSON string. Bytes >= 0x80 pass through (input
// strings are UTF-8); quotes, backslashes and control characters are escaped.
void AppendJsonString(std::string& out, std::string_view s);
// `s` as a JSON string literal, as Go's %q prints it in messages.
std::string Quoted(std::string_view s);

// A member name written as a string literal, checked when compiling to
// need no escape: JsonWriter::Key copies it without the escaping scan.
class JsonKey {
 public:
  template <size_t N>
  consteval JsonKey(const char (&key)[N]) : key_(key, N - 1) {  // NOLINT: implicit
    for (const char c : key_) {
      if (!kPlainJsonByte[static_cast<unsigned char>(c)]) throw "a key that needs escaping";
    }
  }
  std::string_view str() const { return key_; }

 private:
  std::string_view key_;
};

// Builds a document value by value; commas are placed automatically.
// REQUIRES: calls form valid JSON (Key before each object member value).
class JsonWriter {
 public:
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  // A literal key ("node"), written as it is.
  JsonWriter& Key(JsonKey key);
  // A key known only when running (a label, a resource name), escaped.
  template <class S>
    requires(!std::is_array_v<S> && std::is_convertible_v<const S&, std::string_view>)
  JsonWriter& Key(const S& key) {
    return EscapedKey(key);
  }
  JsonWriter& String(std::string_view s);
  JsonWriter& Int(int64_t v);
  JsonWriter& Bool(bool b);
  JsonWriter& Null();

  const std::string& str() const& { return out_; }
  // The text, moved out of a writer that is done: no copy.
  std::string str() && { return std::move(out_); }

 private:
  JsonWriter& Open(char c);
  JsonWriter& Close(char c);
  void BeforeValue();
  JsonWriter& EscapedKey(std::string_view key);

  std::string out_;
  bool need_comma_ = false;  // a value was written at the current level
};

}  // namespace sched::capi

#endif  // CAPI_JSON_WRITER_H_
