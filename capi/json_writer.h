// JsonWriter: compact JSON text for the documents the library returns.
// Integers are written exactly (int64 through std::to_chars), not through
// cJSON's doubles, which lose precision above 2^53.
#ifndef CAPI_JSON_WRITER_H_
#define CAPI_JSON_WRITER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace sched::capi {

// Appends `s` as a quoted JSON string. Bytes >= 0x80 pass through (input
// strings are UTF-8); quotes, backslashes and control characters are escaped.
void AppendJsonString(std::string& out, std::string_view s);
// `s` as a JSON string literal, as Go's %q prints it in messages.
std::string Quoted(std::string_view s);

// Builds a document value by value; commas are placed automatically.
// REQUIRES: calls form valid JSON (Key before each object member value).
class JsonWriter {
 public:
  JsonWriter& BeginObject() { return Open('{'); }
  JsonWriter& EndObject() { return Close('}'); }
  JsonWriter& BeginArray() { return Open('['); }
  JsonWriter& EndArray() { return Close(']'); }
  JsonWriter& Key(std::string_view key);
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

  std::string out_;
  bool need_comma_ = false;  // a value was written at the current level
};

}  // namespace sched::capi

#endif  // CAPI_JSON_WRITER_H_
