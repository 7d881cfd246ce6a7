// ScanJson: a syntax check of a whole text that allocates nothing, run
// before cJSON builds a tree. It accepts only strict RFC 8259 JSON that
// cJSON 1.7 also accepts and parses to the same tree (numbers of at most 63
// characters, no control bytes in strings, valid \u escapes and surrogate
// pairs), so when cJSON then fails on a text the scan accepted, the only
// cause left is a failed allocation. cJSON accepts a little more ("+1",
// "01", raw control bytes, a BOM); such texts are scanned as not strict and
// parsed whole, as before.
//
// It also finds the document's one large array, the root array or the root
// object's "items" array, and counts its elements, so that sched_engine_apply
// can check the count and parse the elements one at a time.
//
// Thread-safety: pure functions.
#ifndef CAPI_JSON_SCAN_H_
#define CAPI_JSON_SCAN_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace sched::capi {

struct JsonScan {
  static constexpr size_t npos = std::string_view::npos;
  bool strict = false;  // exactly one strict value, surrounded by whitespace
  // The root array, or the array value of the root object's "items" member
  // when it appears once and no root key is written with escapes: offsets
  // of its '[' and one past its ']' (npos when none), and its elements.
  size_t array_begin = npos;
  size_t array_end = npos;
  size_t array_count = 0;
};

// JSON's whitespace (RFC 8259), which ScanJson allows around values.
inline bool IsJsonSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Scans `text`; containers nested deeper than `max_depth` make it not strict.
JsonScan ScanJson(std::string_view text, int max_depth);

}  // namespace sched::capi

#endif  // CAPI_JSON_SCAN_H_
