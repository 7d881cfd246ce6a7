// JsonArena: parses one strict JSON value into cJSON nodes carved out of a
// few reused blocks, instead of cJSON's malloc per node and per string and
// its cJSON_Delete walk. ApplyDocument reads each element of a large array
// this way: for a pod, the tree's allocations and frees cost more than the
// parse itself.
//
// The tree is the one cJSON 1.7 builds for the same text: the same types,
// valueint and valuedouble (a number goes through strtod as cJSON's does,
// unless it is an integer of at most 15 digits, which a double holds
// exactly), the same unescaped strings and keys, the same next / prev / child
// links (a list's head's prev is its last node). Readers use cJSON's
// functions on it as on any tree; nothing may modify or cJSON_Delete it.
//
// Only strict JSON (capi/json_scan.h) is parsed; a text that is not, and
// containers nested deeper than kMaxJsonDepth, are refused, and the caller
// then lets cJSON parse it.
//
// Thread-safety: an arena is used by one thread at a time.
#ifndef CAPI_JSON_ARENA_H_
#define CAPI_JSON_ARENA_H_

#include <cJSON.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

namespace sched::capi {

class JsonArena {
 public:
  JsonArena() = default;
  JsonArena(const JsonArena&) = delete;
  JsonArena& operator=(const JsonArena&) = delete;

  // Parses the value at the start of `text` (no whitespace before it; any
  // text may follow). Returns its tree and sets *end one past the value,
  // or returns null when the text does not start with a strict value.
  // Throws std::bad_alloc. The tree of the previous call is released: it
  // lives until the next call or the arena's end.
  const cJSON* Parse(std::string_view text, size_t* end);

  // Memory the arena holds (its blocks), in bytes.
  size_t capacity() const;

 private:
  friend class JsonArenaParser;

  // `bytes` of storage aligned for cJSON, valid until the next Parse.
  void* Allocate(size_t bytes);
  void Reset();

  struct Block {
    std::unique_ptr<std::max_align_t[]> data;
    size_t size = 0;  // in bytes
  };
  std::vector<Block> blocks_;
  size_t block_ = 0;  // the block being filled
  size_t used_ = 0;   // bytes of it in use
};

}  // namespace sched::capi

#endif  // CAPI_JSON_ARENA_H_
