// JsonPath, the JSON reader (parse errors, member and number checks) and the
// JSON writer.
#include <array>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "capi/json_path.h"
#include "capi/json_reader.h"
#include "capi/json_scan.h"
#include "capi/json_writer.h"

namespace sched::capi {
namespace json_test {
namespace {

TEST(JsonPathTest, RendersFieldsIndexesAndKeys) {
  const JsonPath root;
  EXPECT_EQ(root.String(), "");
  // Each segment lives in a local: a path refers to its parent.
  const JsonPath spec = root.Child("spec");
  const JsonPath containers = spec.Child("containers");
  const JsonPath c0 = containers.Index(0);
  EXPECT_EQ(c0.Child("resources").Child("requests").Child("cpu").String(),
            "spec.containers[0].resources.requests.cpu");
  EXPECT_EQ(root.Index(3).Child("object").Child("kind").String(), "[3].object.kind");
  EXPECT_EQ(root.Child("items").Index(2).Child("metadata").String(), "items[2].metadata");
  // Keys that are not plain names are quoted.
  EXPECT_EQ(root.Child("labels").Child("app.kubernetes.io/name").String(),
            "labels[\"app.kubernetes.io/name\"]");
  EXPECT_EQ(root.Child("m").Child("").String(), "m[\"\"]");
  EXPECT_EQ(root.Child("a\"b").String(), "[\"a\\\"b\"]");
}

// ScanJson accepts strict JSON only (what cJSON parses to the same tree),
// and finds the root array or the root object's one "items" array.
struct ScanCase {
  std::string text;
  bool strict;
  size_t count;  // JsonScan::npos: no large array found
};

// Bytes outside printable ASCII as \xNN: gtest's XML report (which meson
// parses) must stay valid UTF-8.
void PrintTo(const ScanCase& c, std::ostream* os) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (const unsigned char b : c.text.substr(0, 40)) {
    if (b >= 0x20 && b < 0x7f) {
      *os << static_cast<char>(b);
    } else {
      *os << "\\x" << kHex[b >> 4] << kHex[b & 15];
    }
  }
}

class ScanJsonTest : public ::testing::TestWithParam<ScanCase> {};

TEST_P(ScanJsonTest, Scans) {
  const ScanCase& c = GetParam();
  const JsonScan scan = ScanJson(c.text, 64);
  EXPECT_EQ(scan.strict, c.strict);
  if (c.count == JsonScan::npos) {
    EXPECT_EQ(scan.array_begin, JsonScan::npos);
  } else {
    ASSERT_NE(scan.array_begin, JsonScan::npos);
    EXPECT_EQ(c.text[scan.array_begin], '[');
    EXPECT_EQ(c.text[scan.array_end - 1], ']');
    EXPECT_EQ(scan.array_count, c.count);
  }
  // cJSON parses every strict text.
  if (c.strict) {
    JsonDoc doc;
    EXPECT_TRUE(ParseJson(c.text, &doc).ok());
  }
}

constexpr size_t kNone = JsonScan::npos;

INSTANTIATE_TEST_SUITE_P(
    Cases, ScanJsonTest,
    ::testing::Values(
        ScanCase{" [1, \"a\", {\"b\": [true, false, null]}, -0.5e+3] ", true, 4},
        ScanCase{"[]", true, 0}, ScanCase{"{}", true, kNone}, ScanCase{"\"s\"", true, kNone},
        ScanCase{R"({"kind":"List","items":[{},{"items":[1,2,3]}],"x":1})", true, 2},
        ScanCase{R"({"items":{}})", true, kNone},
        // A repeated or escaped root key: parsed whole, so the decoder sees both.
        ScanCase{R"({"items":[1],"items":[2]})", true, kNone},
        ScanCase{R"({"it\u0065ms":[1]})", true, kNone},
        ScanCase{R"(["\ud83d\ude00", "\u00e9\n\t\/"])", true, 2},
        // What cJSON accepts but strict JSON does not, and what neither does.
        ScanCase{"[+1]", false, kNone}, ScanCase{"[01]", false, kNone},
        ScanCase{"[1.]", false, kNone}, ScanCase{"[.5]", false, kNone},
        ScanCase{"[1e]", false, kNone}, ScanCase{"[" + std::string(64, '1') + "]", false, kNone},
        ScanCase{"[" + std::string(63, '1') + "]", true, 1},
        ScanCase{"[\"\x01\"]", false, kNone}, ScanCase{"[\"\\x\"]", false, kNone},
        ScanCase{"[\"\\uZZZZ\"]", false, kNone}, ScanCase{"[\"\\udc00\"]", false, kNone},
        ScanCase{"[\"\\ud800x\"]", false, kNone}, ScanCase{"\xEF\xBB\xBF[]", false, kNone},
        ScanCase{"[1,]", false, kNone}, ScanCase{"[1] [", false, kNone},
        ScanCase{"{\"a\" 1}", false, kNone}, ScanCase{"[nul]", false, kNone},
        ScanCase{"[\x0b" "1]", false, kNone}, ScanCase{"[\"open", false, kNone},
        // Runs of plain bytes end at a quote, an escape or a control byte.
        ScanCase{"[\"plain \x7f\xc3\xa9 run\", \"a\\\"b\\\\\"]", true, 2},
        ScanCase{"[\"plain run\x1f\"]", false, kNone}, ScanCase{"[\"plain run", false, kNone},
        // Eight bytes at a time: a special byte at any place of a word.
        ScanCase{"[\"0123456789abcdef\x01xyz\"]", false, kNone},
        ScanCase{"[\"01234567\x1f\"]", false, kNone},
        ScanCase{"[\"0123456\x1f" "89abcdef\"]", false, kNone},
        ScanCase{"[\"01234567 \x7f\x80\xff\xc3\xa9 abcdefgh\"]", true, 1},
        ScanCase{"[\"0123456789ab\\\"cdefghij\\\\\", \"01234567\"]", true, 2},
        ScanCase{"[\"01234567\\q9abcdefghijklmnop\"]", false, kNone},
        ScanCase{std::string(65, '[') + std::string(65, ']'), false, kNone},
        // Strings inside containers (scanned without Value's call), and the
        // recorded "items" array among other members.
        ScanCase{R"({ "items" : [ "a" , {"b":"c\"d"} , "\u00e9" ] , "kind" : "List" })", true, 3},
        ScanCase{R"({"a":"x","items":[],"b":["y"]})", true, 0},
        ScanCase{R"({"items":[1],"x":[2,3]})", true, 1},
        ScanCase{R"({"items":[1,]})", false, kNone}, ScanCase{R"({"items":["x"])", false, kNone},
        ScanCase{R"({"items":["x"] "k":1})", false, kNone}, ScanCase{R"(["a",)", false, kNone},
        ScanCase{R"(["a")", false, kNone}, ScanCase{R"({"k":"v")", false, kNone},
        ScanCase{R"({"k":"v\)", false, kNone}, ScanCase{R"({"k":tru})", false, kNone},
        ScanCase{R"([[["a"],"b"],"c"])", true, 2}));

struct ParseCase {
  std::string text;
  std::string message;  // "" = parses
  std::string path;
};

void PrintTo(const ParseCase& c, std::ostream* os) { *os << c.text.substr(0, 40); }

class ParseJsonTest : public ::testing::TestWithParam<ParseCase> {};

TEST_P(ParseJsonTest, Reports) {
  const ParseCase& c = GetParam();
  JsonDoc doc;
  const ApiStatus s = ParseJson(c.text, &doc);
  if (c.message.empty()) {
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_NE(doc, nullptr);
    return;
  }
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.message(), c.message);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(doc, nullptr);
}

std::string Nested(int depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// The path of the innermost array of Nested(depth + 1).
std::string ZeroIndexes(int depth) {
  std::string path;
  for (int i = 0; i < depth; ++i) path += "[0]";
  return path;
}

// 64 objects, each holding the next under key "k": depth 64 is fine, one
// more level is not.
std::string NestedObjects(int depth, const std::string& innermost) {
  std::string s;
  for (int i = 0; i < depth; ++i) s += "{\"k\":";
  s += innermost;
  for (int i = 0; i < depth; ++i) s += "}";
  return s;
}

std::string KPath(int depth) {
  std::string path = "k";
  for (int i = 1; i < depth; ++i) path += ".k";
  return path;
}

const std::string kTooDeep = ": JSON nested deeper than 64 levels";

INSTANTIATE_TEST_SUITE_P(
    Cases, ParseJsonTest,
    ::testing::Values(
        ParseCase{"{}", "", ""}, ParseCase{" \n[1, 2]\t ", "", ""},
        ParseCase{"", "empty JSON document", ""},
        ParseCase{"  \n", "empty JSON document", ""},
        ParseCase{"{\"a\":}", "invalid JSON at byte offset 5", ""},
        ParseCase{"[1,,2]", "invalid JSON at byte offset 3", ""},
        ParseCase{"{} {}", "invalid JSON at byte offset 3: data after the end of the document", ""},
        // cJSON points just past the quote of an unterminated string.
        ParseCase{"{\"a\":\"unterminated", "invalid JSON at byte offset 6", ""},
        ParseCase{Nested(64), "", ""},
        ParseCase{Nested(65), ZeroIndexes(64) + kTooDeep, ZeroIndexes(64)},
        // Rejected before cJSON (whose own limit is 1000) parses anything.
        ParseCase{Nested(5000), ZeroIndexes(64) + kTooDeep, ZeroIndexes(64)},
        ParseCase{std::string(100000, '['), ZeroIndexes(64) + kTooDeep, ZeroIndexes(64)},
        ParseCase{NestedObjects(63, "[]"), "", ""},
        ParseCase{NestedObjects(64, "[]"), KPath(64) + kTooDeep, KPath(64)},
        // The path follows indexes and the last key of each object.
        ParseCase{"[1,{\"a\":0,\"b\":" + Nested(63) + "}]",
                  "[1].b" + ZeroIndexes(62) + kTooDeep, "[1].b" + ZeroIndexes(62)},
        // Brackets and escaped quotes inside strings do not nest.
        ParseCase{"[\"" + std::string(100, '[') + "\\\"{{{\"]", "", ""},
        ParseCase{"{\"[[[\":" + Nested(64) + "}", "[\"[[[\"]" + ZeroIndexes(63) + kTooDeep,
                  "[\"[[[\"]" + ZeroIndexes(63)},
        // A key with a raw control byte (here a NUL, fuzz finding) is not
        // named: the path stops at its object.
        ParseCase{std::string("[{\"a\0b\":", 8) + Nested(63) + "}]", "[0]" + kTooDeep, "[0]"}));

TEST(ParseJsonTest, RejectsDocumentsOverTheSizeLimit) {
  JsonDoc doc;
  const std::string text = "[" + std::string(98, ' ') + "]";
  EXPECT_TRUE(ParseJson(text, &doc, 100).ok());
  const ApiStatus s = ParseJson(text + " ", &doc, 100);
  EXPECT_EQ(s.message(), "document of 101 bytes exceeds the limit of 100 bytes");
  EXPECT_EQ(s.path(), "");
  // The default limit is the one for single objects.
  EXPECT_EQ(ParseJson(std::string(kMaxObjectBytes + 1, ' '), &doc).message(),
            "document of 3145729 bytes exceeds the limit of 3145728 bytes");
}

TEST(JsonReaderTest, StringsArraysAndMapsAreBounded) {
  JsonDoc doc;
  const std::string long_string(kMaxStringBytes + 1, 'x');
  ASSERT_TRUE(ParseJson("{\"s\":\"" + long_string + "\",\"ok\":\"" + long_string.substr(1) +
                            "\"}",
                        &doc)
                  .ok());
  std::string_view s;
  EXPECT_TRUE(GetString(doc.get(), "ok", JsonPath(), &s).ok());
  EXPECT_EQ(GetString(doc.get(), "s", JsonPath(), &s).message(),
            "s: Too long: may not be more than 4096 bytes");

  // A map key is reported at the map: the key is what is too long.
  ASSERT_TRUE(ParseJson("{\"m\":{\"" + long_string + "\":1}}", &doc).ok());
  EXPECT_EQ(CheckUniqueKeys(doc->child, JsonPath().Child("m")).message(),
            "m: Too long: a key may not be more than 4096 bytes");

  std::string array = "{\"a\":[0";
  std::string map = "{\"m\":{\"k0\":0";
  for (size_t i = 1; i <= kMaxItems; ++i) {
    array += ",0";
    map += ",\"k" + std::to_string(i) + "\":0";
  }
  array += "]}";
  map += "}}";
  ASSERT_TRUE(ParseJson(array, &doc).ok());
  const ApiStatus too_many =
      ForEachElement(doc.get(), "a", JsonPath(), [](const cJSON*, const JsonPath&) {
        ADD_FAILURE() << "no element is visited";
        return ApiStatus();
      });
  EXPECT_EQ(too_many.message(), "a: Too many: 10001: must have at most 10000 items");
  EXPECT_EQ(too_many.path(), "a");
  int visited = 0;
  EXPECT_TRUE(ForEachElement(
                  doc.get(), "a", JsonPath(),
                  [&](const cJSON*, const JsonPath&) {
                    ++visited;
                    return ApiStatus();
                  },
                  kMaxItems + 1)
                  .ok());
  EXPECT_EQ(visited, 10001);
  ASSERT_TRUE(ParseJson(map, &doc).ok());
  EXPECT_EQ(CheckUniqueKeys(doc->child, JsonPath().Child("m")).message(),
            "m: Too many: 10001: must have at most 10000 items");
}

TEST(ParseJsonTest, NeedsNoTerminatingNul) {
  const std::string text = "{\"a\":1}garbage";
  JsonDoc doc;
  EXPECT_TRUE(ParseJson(std::string_view(text).substr(0, 7), &doc).ok());
}

// With `end`, one value is parsed and its end reported: what ApplyDocument
// reads each element of its array with, the rest of the array following it.
TEST(ParseJsonTest, ParsesOneValueOfALongerText) {
  struct Case {
    std::string text;
    size_t end;
  };
  for (const Case& c : std::vector<Case>{{"12,3]", 2},
                                         {"-0.5e+3 ]", 7},
                                         {"\"a,]\\\"}\",1]", 8},
                                         {"{\"a\":[1,{\"b\":null}]} , {}]", 20},
                                         {"[[],[[]]],true]", 9},
                                         {"true,false]", 4},
                                         {"null]", 4}}) {
    SCOPED_TRACE(c.text);
    JsonDoc doc, whole;
    size_t end = 0;
    ASSERT_TRUE(ParseCheckedJson(c.text, /*strict=*/true, &doc, &end).ok());
    EXPECT_EQ(end, c.end);
    ASSERT_TRUE(ParseJson(c.text.substr(0, c.end), &whole).ok());
    EXPECT_TRUE(cJSON_Compare(doc.get(), whole.get(), /*case_sensitive=*/true));
  }
}

ApiStatus ReadInt(const std::string& json, int64_t min, int64_t max, int64_t* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(doc.get(), "n", JsonPath(), &v));
  return AsInt(v, JsonPath().Child("n"), min, max, out);
}

TEST(JsonReaderTest, IntegersAreExactAndInRange) {
  int64_t v = 0;
  EXPECT_TRUE(ReadInt("{\"n\":9007199254740992}", 0, kMaxExactInt, &v).ok());
  EXPECT_EQ(v, kMaxExactInt);
  EXPECT_TRUE(ReadInt("{\"n\":1e3}", 0, 5000, &v).ok());
  EXPECT_EQ(v, 1000);
  EXPECT_TRUE(ReadInt("{\"n\":-7}", -10, 10, &v).ok());
  EXPECT_EQ(v, -7);

  EXPECT_EQ(ReadInt("{\"n\":1.5}", 0, 10, &v).message(), "n: expected an integer, got 1.5");
  EXPECT_EQ(ReadInt("{\"n\":9007199254740994}", 0, INT64_MAX, &v).message(),
            "n: integer 9007199254740994 is too large to be exact (|x| must be <= 2^53)");
  EXPECT_EQ(ReadInt("{\"n\":11}", 0, 10, &v).message(), "n: must be between 0 and 10, got 11");
  EXPECT_EQ(ReadInt("{\"n\":\"1\"}", 0, 10, &v).message(),
            "n: expected an integer, got a string");
}

TEST(JsonReaderTest, MembersAreCaseSensitiveUniqueAndNullIsAbsent) {
  JsonDoc doc;
  ASSERT_TRUE(ParseJson("{\"a\":1,\"A\":2,\"n\":null,\"d\":1,\"d\":2,\"\":3,\"ab\":4}", &doc).ok());
  const cJSON* v = nullptr;
  ASSERT_TRUE(Member(doc.get(), "a", JsonPath(), &v).ok());
  EXPECT_EQ(v->valuedouble, 1);
  ASSERT_TRUE(Member(doc.get(), "ab", JsonPath(), &v).ok());
  EXPECT_EQ(v->valuedouble, 4);
  ASSERT_TRUE(Member(doc.get(), "", JsonPath(), &v).ok());  // the empty name
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->valuedouble, 3);
  ASSERT_TRUE(Member(doc.get(), "n", JsonPath(), &v).ok());
  EXPECT_EQ(v, nullptr);
  ASSERT_TRUE(Member(doc.get(), "missing", JsonPath(), &v).ok());
  EXPECT_EQ(v, nullptr);
  const ApiStatus dup = Member(doc.get(), "d", JsonPath(), &v);
  EXPECT_EQ(dup.message(), "d: duplicate field");
  EXPECT_EQ(dup.path(), "d");
  EXPECT_EQ(CheckUniqueKeys(doc.get(), JsonPath()).message(), "d: duplicate key");

  std::string_view s = "unchanged";
  ASSERT_TRUE(GetString(doc.get(), "n", JsonPath(), &s).ok());
  EXPECT_EQ(s, "unchanged");
  EXPECT_EQ(GetString(doc.get(), "a", JsonPath(), &s).message(),
            "a: expected a string, got a number");
  bool b = false;
  EXPECT_EQ(GetBool(doc.get(), "a", JsonPath(), &b).message(),
            "a: expected a boolean, got a number");
  const cJSON* arr;
  EXPECT_EQ(GetArray(doc.get(), "a", JsonPath(), &arr).message(),
            "a: expected an array, got a number");
  int32_t i32 = 0;
  ASSERT_TRUE(ParseJson("{\"big\":3000000000}", &doc).ok());
  EXPECT_EQ(GetInt32(doc.get(), "big", JsonPath(), &i32).message(),
            "big: must be between -2147483648 and 2147483647, got 3000000000");
}

// ObjectMembers finds in one walk what Member() finds per name: for each
// listed name of each object, the same value or the same error, and the
// typed getters the same type errors as GetString/GetInt32/GetObject/GetArray.
TEST(JsonReaderTest, ObjectMembersAgreeWithMember) {
  static constexpr std::array<std::string_view, 6> kNames = {"a", "ab", "", "n", "d", "missing"};
  const std::vector<std::string> objects = {
      R"({"a":1,"A":2,"n":null,"d":1,"d":2,"":3,"ab":4})",
      R"({"ab":"x","a":[1],"d":{"e":1},"missing":null})",
      R"({"n":null,"n":null,"":"",  "d":null})",
      R"({})",
  };
  const JsonPath root;
  const JsonPath at = root.Child("o");
  for (const std::string& json : objects) {
    SCOPED_TRACE(json);
    JsonDoc doc;
    ASSERT_TRUE(ParseJson(json, &doc).ok());
    const ObjectMembers m(doc.get(), kNames);
    for (size_t i = 0; i < kNames.size(); ++i) {
      const std::string name(kNames[i]);
      SCOPED_TRACE(name);
      const cJSON* want = nullptr;
      const cJSON* got = nullptr;
      const ApiStatus want_status = Member(doc.get(), name.c_str(), at, &want);
      const ApiStatus got_status = m.Get(i, at, &got);
      EXPECT_EQ(got_status.message(), want_status.message());
      EXPECT_EQ(got_status.path(), want_status.path());
      if (want_status.ok()) {
        EXPECT_EQ(got, want);
      }
      std::string_view want_s = "unchanged", got_s = "unchanged";
      EXPECT_EQ(m.GetString(i, at, &got_s).message(),
                GetString(doc.get(), name.c_str(), at, &want_s).message());
      EXPECT_EQ(got_s, want_s);
      int32_t want_i = -1, got_i = -1;
      EXPECT_EQ(m.GetInt32(i, at, &got_i).message(),
                GetInt32(doc.get(), name.c_str(), at, &want_i).message());
      EXPECT_EQ(got_i, want_i);
      const cJSON* want_o = nullptr;
      const cJSON* got_o = nullptr;
      EXPECT_EQ(m.GetObject(i, at, &got_o).message(),
                GetObject(doc.get(), name.c_str(), at, &want_o).message());
      EXPECT_EQ(m.GetArray(i, at, &got_o).message(),
                GetArray(doc.get(), name.c_str(), at, &want_o).message());
    }
  }
}


// KeyIs, the member name test of ObjectMembers and Member(): the first
// byte inline, then the rest, then the key's end.
TEST(JsonReaderTest, KeyIsComparesWholeNames) {
  struct Case {
    const char* key;
    std::string_view name;
    bool want;
  };
  const Case cases[] = {
      {"a", "a", true},          {"ab", "a", false},        {"a", "ab", false},
      {"", "", true},            {"a", "", false},          {"", "a", false},
      {"A", "a", false},         {"abc", "abd", false},     {"abd", "abc", false},
      {"spec", "spec", true},    {"specs", "spec", false},  {"spe", "spec", false},
      {"metadata", "metadata", true}, {"metadatb", "metadata", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.key) + " vs " + std::string(c.name));
    EXPECT_EQ(KeyIs(c.key, c.name), c.want);
  }
}

TEST(JsonReaderTest, DuplicateKeysAreFoundInMapsOfAnySize) {
  // Maps up to 16 keys are checked on the stack, larger ones in a vector:
  // both must find a duplicate wherever it sits, and report the smallest
  // duplicated key.
  auto map = [](int n, const std::vector<std::string>& extra) {
    std::string text = "{";
    for (int i = 0; i < n; ++i) {
      text += (i > 0 ? ",\"k" : "\"k") + std::to_string(100 + i) + "\":1";
    }
    for (const std::string& key : extra) text += ",\"" + key + "\":2";
    return text + "}";
  };
  struct Case {
    int keys;
    std::vector<std::string> extra;  // keys appended after the n distinct ones
    std::string want;  // "" when no duplicate
  };
  const Case cases[] = {
      {15, {}, ""},
      {16, {}, ""},
      {17, {}, ""},
      {40, {}, ""},
      {15, {"k100"}, "k100: duplicate key"},          // the 16th key repeats the first
      {16, {"k115"}, "k115: duplicate key"},          // the 17th repeats the 16th
      {16, {"k103"}, "k103: duplicate key"},          // the 17th repeats the 4th
      {39, {"k138"}, "k138: duplicate key"},          // both past the 16th
      {30, {"k125", "k102"}, "k102: duplicate key"},  // the smallest of two
      {2, {"k100", "k101"}, "k100: duplicate key"},
  };
  for (const Case& c : cases) {
    const std::string text = map(c.keys, c.extra);
    SCOPED_TRACE(text);
    JsonDoc doc;
    ASSERT_TRUE(ParseJson(text, &doc).ok());
    EXPECT_EQ(CheckUniqueKeys(doc.get(), JsonPath()).message(), c.want);
  }
}

TEST(JsonReaderTest, NumberTextIsShortestRoundTrip) {
  EXPECT_EQ(NumberText(0.1), "0.1");
  EXPECT_EQ(NumberText(1000), "1000");
  EXPECT_EQ(NumberText(2.5e-7), "2.5e-07");
  EXPECT_EQ(NumberText(-3), "-3");
}

// AppendJsonString copies runs of plain bytes and escapes the rest, at the
// start, the middle and the end of a string; strings of eight bytes or more
// are searched eight at a time (a byte to escape on either side of a word's
// edge, bytes >= 0x80 and space beside one, which the word test must not
// take for one).
struct EscapeCase {
  std::string in, out;
};

class AppendJsonStringTest : public ::testing::TestWithParam<EscapeCase> {};

TEST_P(AppendJsonStringTest, Escapes) {
  std::string out = "x";
  AppendJsonString(out, GetParam().in);
  EXPECT_EQ(out, "x" + GetParam().out);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, AppendJsonStringTest,
    ::testing::Values(EscapeCase{"", R"("")"}, EscapeCase{"plain", R"("plain")"},
                      EscapeCase{"\"ab", R"("\"ab")"}, EscapeCase{"a\nb", R"("a\nb")"},
                      EscapeCase{"ab\\", R"("ab\\")"}, EscapeCase{"\r\t", R"("\r\t")"},
                      EscapeCase{std::string("a\0b", 3), R"("a\u0000b")"},
                      EscapeCase{"\x1f\x7f\xc3\xa9", "\"\\u001f\x7f\xc3\xa9\""},
                      EscapeCase{"node-0000000000001", R"("node-0000000000001")"},
                      EscapeCase{"abcdefg\"", R"("abcdefg\"")"},
                      EscapeCase{"abcdefgh\\", R"("abcdefgh\\")"},
                      EscapeCase{"abcdefgh\tjklmno\npq", R"("abcdefgh\tjklmno\npq")"},
                      EscapeCase{"0123456789abcde\x01", R"("0123456789abcde\u0001")"},
                      EscapeCase{"\xc3\xa9 \xff\x80 ~\x19!", "\"\xc3\xa9 \xff\x80 ~\\u0019!\""},
                      EscapeCase{"\"abcdefghijklmnop", R"("\"abcdefghijklmnop")"}));

TEST(JsonWriterTest, WritesCompactJsonWithExactIntegers) {
  JsonWriter w;
  w.BeginObject();
  w.Key("max").Int(std::numeric_limits<int64_t>::max());
  w.Key("min").Int(std::numeric_limits<int64_t>::min());
  w.Key("s").String("q\"b\\n\n\t\x01\xc3\xa9");
  w.Key("a").BeginArray().Bool(true).Null().BeginObject().EndObject().EndArray();
  w.Key("e").BeginArray().EndArray();
  w.EndObject();
  EXPECT_EQ(w.str(),
            "{\"max\":9223372036854775807,\"min\":-9223372036854775808,"
            "\"s\":\"q\\\"b\\\\n\\n\\t\\u0001\xc3\xa9\",\"a\":[true,null,{}],\"e\":[]}");
  const std::string text = w.str();
  EXPECT_EQ(std::move(w).str(), text);  // moved out whole
}

// A literal key (JsonKey, copied without a scan) writes what the same key
// known only when running (escaped) writes, wherever its member falls:
// first in an object, after a value, after a closed container.
TEST(JsonWriterTest, LiteralKeysWriteAsRuntimeKeys) {
  struct Case {
    JsonKey literal;
    std::string runtime;
  };
  const Case cases[] = {
      {"", ""}, {"a", "a"}, {"node", "node"}, {"nominatedNodeName", "nominatedNodeName"},
      {"a-b.c/d~\xc3\xa9", "a-b.c/d~\xc3\xa9"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.runtime);
    const std::string q = "\"" + c.runtime + "\"";
    const std::string want = "{" + q + ":1," + q + ":{" + q + ":[]}," + q + ":\"v\"}";
    JsonWriter lit;
    lit.BeginObject().Key(c.literal).Int(1).Key(c.literal).BeginObject();
    lit.Key(c.literal).BeginArray().EndArray().EndObject();
    lit.Key(c.literal).String("v").EndObject();
    EXPECT_EQ(lit.str(), want);
    JsonWriter run;
    run.BeginObject().Key(c.runtime).Int(1).Key(c.runtime).BeginObject();
    run.Key(c.runtime).BeginArray().EndArray().EndObject();
    run.Key(c.runtime).String("v").EndObject();
    EXPECT_EQ(run.str(), want);
  }
}

}  // namespace
}  // namespace json_test
}  // namespace sched::capi
