// JsonArena: the tree it builds is cJSON's, node for node (types, values,
// strings, links), for fixed and random strict texts; it refuses what is not
// strict, and reuses its blocks.
#include <cJSON.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "capi/json_arena.h"
#include "capi/json_scan.h"
#include "capi/limits.h"

namespace sched::capi {
namespace json_arena_test {
namespace {

struct CJsonFree {
  void operator()(cJSON* p) const { cJSON_Delete(p); }
};
using Tree = std::unique_ptr<cJSON, CJsonFree>;

// cJSON's tree of the value at the start of `text`, and its end.
Tree CJsonParse(const std::string& text, size_t* end) {
  const char* stop = nullptr;
  Tree t(cJSON_ParseWithLengthOpts(text.data(), text.size(), &stop, false));
  *end = t != nullptr ? static_cast<size_t>(stop - text.data()) : 0;
  return t;
}

// Every field cJSON sets: the same in `a` (arena) and `b` (cJSON), and the
// same list links (each node's prev, a head's prev its list's last node).
void ExpectSameTree(const cJSON* a, const cJSON* b, const std::string& at) {
  ASSERT_EQ(a == nullptr, b == nullptr) << at;
  if (a == nullptr) return;
  EXPECT_EQ(a->type, b->type) << at;
  EXPECT_EQ(a->valueint, b->valueint) << at;
  EXPECT_EQ(std::memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)), 0)
      << at << ": " << a->valuedouble << " vs " << b->valuedouble;
  ASSERT_EQ(a->string == nullptr, b->string == nullptr) << at;
  if (a->string != nullptr) {
    EXPECT_STREQ(a->string, b->string) << at;
  }
  ASSERT_EQ(a->valuestring == nullptr, b->valuestring == nullptr) << at;
  if (a->valuestring != nullptr) {
    EXPECT_STREQ(a->valuestring, b->valuestring) << at;
  }
  std::vector<const cJSON*> as, bs;
  for (const cJSON* c = a->child; c != nullptr; c = c->next) as.push_back(c);
  for (const cJSON* c = b->child; c != nullptr; c = c->next) bs.push_back(c);
  ASSERT_EQ(as.size(), bs.size()) << at;
  for (size_t i = 0; i < as.size(); ++i) {
    const std::string child = at + "/" + std::to_string(i);
    ExpectSameTree(as[i], bs[i], child);
    // Positions, since the nodes differ: prev is the node before, the
    // head's the last.
    const size_t want = i == 0 ? as.size() - 1 : i - 1;
    EXPECT_EQ(as[i]->prev, as[want]) << child;
    EXPECT_EQ(bs[i]->prev, bs[want]) << child;
  }
}

// Parses `text` with both and expects the same tree and end.
void ExpectLikeCJson(JsonArena& arena, const std::string& text) {
  SCOPED_TRACE(text.substr(0, 80));
  size_t want_end = 0, end = 0;
  const Tree want = CJsonParse(text, &want_end);
  ASSERT_NE(want, nullptr);
  const cJSON* got = arena.Parse(text, &end);
  ASSERT_NE(got, nullptr);
  EXPECT_EQ(end, want_end);
  ExpectSameTree(got, want.get(), "");
}

TEST(JsonArenaTest, BuildsCJsonsTree) {
  JsonArena arena;
  const std::vector<std::string> texts = {
      "null", "true", "false", "0", "-0", "7", "-7", "123456789012345", "-123456789012345",
      "1234567890123456789", "9007199254740993", "2147483647", "2147483648", "-2147483648",
      "-2147483649", "2147483646.5", "-2147483648.5", "1e10", "1.5", "-0.0", "0.1", "1e3", "1E+3",
      "1e-3", "2.5e-07", "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308",
      "0.30000000000000004", "123456789012345678901234567890123456789012345678901234567890123",
      "\"\"", "\"plain\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"a\\u0041\\u00e9\\u20ac\\uFFFF\"",
      "\"\\ud83d\\ude00 \\uD800\\uDC00 \\udbff\\udfff\"", "\"cut\\u0000here\"",
      "\"raw \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", "\"<\\u003c\\u003e\\u0026>\"", "[]", "{}",
      "[ ]", "{ \n\t\r}", "[1]", "[1,2,3]", "[[],[[]],{}]", "{\"a\":1}", "{\"a\":1,\"a\":2}",
      "{\"\":\"\"}", "{\"k\\u00e9y\\n\":[true,false,null]}",
      "[ 1 , { \"a\" : [ ] , \"b\" : { } } , \"x\" ] ",
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","labels":)"
      R"({"app":"deploy-00001","pod-template-hash":"h00001"},"ownerReferences":[{"apiVersion":)"
      R"("apps/v1","kind":"ReplicaSet","name":"rs","uid":"u","controller":true,)"
      R"("blockOwnerDeletion":true}]},"spec":{"containers":[{"name":"c","image":"i",)"
      R"("resources":{"requests":{"cpu":"100m","memory":"500Mi"}},"ports":[{"containerPort":)"
      R"(8080}]}],"schedulerName":"default-scheduler","priority":0}})",
  };
  for (const std::string& t : texts) {
    // Alone, and followed by the rest of an array (the end is one past it).
    ExpectLikeCJson(arena, t);
    ExpectLikeCJson(arena, t + " , 1]");
    ExpectLikeCJson(arena, t + "]");
  }
  // As deep as kMaxJsonDepth.
  ExpectLikeCJson(arena, std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']'));
}

// A random strict value of at most `depth` more levels.
std::string RandomValue(std::mt19937_64& rng, int depth) {
  auto pick = [&rng](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  auto ws = [&]() -> std::string {
    return pick(3) == 0 ? std::string(1, " \n\t\r"[pick(4)]) : std::string();
  };
  auto string = [&] {
    static const char* const kPieces[] = {"a", "Z", "0", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f",
                                          "\\n", "\\r", "\\t", "\\u0000", "\\u007f", "\\u0080",
                                          "\\u07FF", "\\u0800", "\\uffff", "\\uD83D\\uDE00",
                                          "\xc3\xa9", "\xf0\x9f\x98\x80", ",", "]", "}", ":"};
    std::string s = "\"";
    for (int n = pick(6); n > 0; --n) s += kPieces[pick(std::size(kPieces))];
    return s + "\"";
  };
  auto number = [&] {
    std::string s = pick(2) ? "-" : "";
    s += pick(4) == 0 ? "0" : std::to_string(rng() >> pick(64));
    if (pick(3) == 0) s += "." + std::to_string(rng() % 100000);
    if (pick(4) == 0) s += std::string(pick(2) ? "e" : "E") + "+-"[pick(2)] + std::to_string(pick(300));
    return s;
  };
  const int kind = depth == 0 ? pick(4) : pick(6);
  switch (kind) {
    case 0:
      return std::vector<std::string>{"true", "false", "null"}[pick(3)];
    case 1:
    case 2:
      return string();
    case 3:
      return number();
    case 4: {
      std::string s = "[" + ws();
      for (int n = pick(5), i = 0; i < n; ++i) {
        s += (i ? "," + ws() : "") + RandomValue(rng, depth - 1) + ws();
      }
      return s + "]";
    }
    default: {
      std::string s = "{" + ws();
      for (int n = pick(5), i = 0; i < n; ++i) {
        s += (i ? "," + ws() : "") + string() + ws() + ":" + ws() + RandomValue(rng, depth - 1) + ws();
      }
      return s + "}";
    }
  }
}

TEST(JsonArenaTest, BuildsCJsonsTreeForRandomTexts) {
  std::mt19937_64 rng(20261128);
  JsonArena arena;
  int parsed = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string text = RandomValue(rng, 4);
    // A number out of a double's range is refused (cJSON's strtod reads it).
    size_t end;
    if (arena.Parse(text, &end) == nullptr) {
      EXPECT_TRUE(ScanJson(text, kMaxJsonDepth).strict) << text;
      continue;
    }
    ExpectLikeCJson(arena, text + "]");
    ++parsed;
  }
  EXPECT_GT(parsed, 2900);
}

TEST(JsonArenaTest, RefusesWhatIsNotStrict) {
  JsonArena arena;
  for (const std::string text :
       {"", " 1", "01", "+1", "1.", ".5", "1e", "1e+", "-", "1.5.3", "1-2", "1e5e", "tru", "nul",
        "True", "\"open", "\"a\\\"", "\"\\x\"", "\"\\u12\"", "\"\\u00zz\"", "\"\\ud800\"",
        "\"\\ud800x\"", "\"\\ud800\\u0041\"", "\"\\udc00\"", "\"tab\there\"", "[1,]", "[1 2]", "[",
        "{\"a\"}", "{\"a\":}", "{a:1}", "{\"a\":1,}", "1e400", "-1e400", "1e-400",
        "1234567890123456789012345678901234567890123456789012345678901234"}) {
    size_t end = 99;
    EXPECT_EQ(arena.Parse(text, &end), nullptr) << text;
    EXPECT_EQ(end, 99u) << text;
  }
  size_t end;
  EXPECT_EQ(arena.Parse(std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']'),
                        &end),
            nullptr);
}

TEST(JsonArenaTest, ReusesItsBlocksAndGrowsForLargeValues) {
  JsonArena arena;
  size_t end;
  const std::string small = R"({"a":[1,2,3],"b":"text"})";
  ASSERT_NE(arena.Parse(small, &end), nullptr);
  const size_t one_block = arena.capacity();
  EXPECT_GT(one_block, 0u);
  for (int i = 0; i < 100; ++i) ASSERT_NE(arena.Parse(small, &end), nullptr);
  EXPECT_EQ(arena.capacity(), one_block);
  // A string larger than a block, after many nodes: new blocks, and the
  // tree still right.
  std::string big = "[";
  for (int i = 0; i < 2000; ++i) big += std::to_string(i) + ",";
  big += "\"" + std::string(100000, 'x') + "\",{\"k\":\"v\"}]";
  ExpectLikeCJson(arena, big);
  const size_t grown = arena.capacity();
  EXPECT_GT(grown, 100000u);
  ExpectLikeCJson(arena, small);
  ExpectLikeCJson(arena, big);
  EXPECT_EQ(arena.capacity(), grown);
}

}  // namespace
}  // namespace json_arena_test
}  // namespace sched::capi
