// ApplyDocument: a sched_engine_apply document, parsed so that its one large
// array, the root array of events or a List's "items", stays text and its
// elements are parsed one at a time as the decoder reaches them. Peak memory
// is then one element's cJSON tree (plus what the decoder keeps), not the
// whole document's, and the element count is known from the scan alone, so
// a document over kMaxApplyItems is rejected before anything is parsed.
//
// Only a text ScanJson finds strict is split; any other is parsed whole
// (cJSON's leniencies, and its syntax errors, stay as they were).
//
// Thread-safety: a document is used by one call at a time.
#ifndef CAPI_APPLY_DOCUMENT_H_
#define CAPI_APPLY_DOCUMENT_H_

#include <cJSON.h>

#include <cstddef>
#include <functional>
#include <string_view>

#include "capi/error.h"
#include "capi/json_path.h"
#include "capi/json_reader.h"

namespace sched::capi {

class ApplyDocument {
 public:
  // Visits one element with its path.
  using ElementFn = std::function<ApiStatus(const cJSON*, const JsonPath&)>;

  // Parses `text` with ParseJson's checks and errors (limit kMaxApplyBytes).
  // The document keeps pointing into `text`, which must outlive it.
  static ApiStatus Parse(std::string_view text, ApplyDocument* out);

  ApplyDocument() = default;
  // A whole tree, borrowed, nothing left as text.
  explicit ApplyDocument(const cJSON* root) : root_(root) {}

  const cJSON* root() const { return root_; }
  // The number of elements of `array`, an array in root().
  size_t Count(const cJSON* array) const;
  // Calls fn on each element of `array` in order, its path `path`[i];
  // stops at the first error.
  ApiStatus ForEach(const cJSON* array, const JsonPath& path, const ElementFn& fn) const;

 private:
  JsonDoc tree_;
  const cJSON* root_ = nullptr;  // tree_, or a borrowed tree
  // The array kept as text (its node in tree_ is empty), or null.
  const cJSON* lazy_ = nullptr;
  std::string_view text_;
  size_t lazy_begin_ = 0;  // offset of its '['
  size_t lazy_end_ = 0;    // one past its ']'
  size_t lazy_count_ = 0;
};

}  // namespace sched::capi

#endif  // CAPI_APPLY_DOCUMENT_H_
