// Helpers for the decoder tests: parse a JSON literal and run a decoder.
#ifndef TESTS_CAPI_DECODE_TEST_UTIL_H_
#define TESTS_CAPI_DECODE_TEST_UTIL_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "libsched/model/interner.h"

namespace sched::capi::testing {

inline ApiStatus ParseAndDecodePod(std::string_view json, Interner& in, DecodedPod* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  return DecodePod(doc.get(), JsonPath(), in, out);
}

inline ApiStatus ParseAndDecodeNode(std::string_view json, Interner& in,
                                    std::shared_ptr<const Node>* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  return DecodeNode(doc.get(), JsonPath(), in, out);
}

// Names of interned ids, for readable expectations.
inline std::vector<std::string> Names(const Interner& in, const std::vector<Atom>& ids) {
  std::vector<std::string> out;
  for (Atom a : ids) out.push_back(in.Str(a));
  return out;
}

// A bad input and the error it must produce.
struct ErrorCase {
  std::string name;  // test name suffix
  std::string json;
  std::string path;
  std::string message;  // the full message
};

inline std::string CaseName(const ::testing::TestParamInfo<ErrorCase>& info) {
  return info.param.name;
}

}  // namespace sched::capi::testing

#endif  // TESTS_CAPI_DECODE_TEST_UTIL_H_
