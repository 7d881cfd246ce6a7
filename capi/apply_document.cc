#include "capi/apply_document.h"

#include <string>

#include "capi/json_scan.h"
#include "capi/limits.h"

namespace sched::capi {

ApiStatus ApplyDocument::Parse(std::string_view text, ApplyDocument* out) {
  JsonScan scan;
  CAPI_RETURN_IF_ERROR(CheckJsonText(text, kMaxApplyBytes, &scan));
  ApplyDocument doc;
  if (!scan.strict || scan.array_begin == JsonScan::npos) {
    CAPI_RETURN_IF_ERROR(ParseCheckedJson(text, scan.strict, &doc.tree_));
    doc.root_ = doc.tree_.get();
    *out = std::move(doc);
    return ApiStatus();
  }
  // The document with the array emptied: "[]" in its place.
  std::string rest;
  rest.reserve(text.size() - (scan.array_end - scan.array_begin) + 2);
  rest.append(text.substr(0, scan.array_begin + 1));
  rest.append(text.substr(scan.array_end - 1));
  CAPI_RETURN_IF_ERROR(ParseCheckedJson(rest, /*strict=*/true, &doc.tree_));
  doc.root_ = doc.tree_.get();
  doc.lazy_ = cJSON_IsArray(doc.root_) ? doc.root_
                                       : cJSON_GetObjectItemCaseSensitive(doc.root_, "items");
  doc.text_ = text;
  doc.lazy_begin_ = scan.array_begin;
  doc.lazy_end_ = scan.array_end;
  doc.lazy_count_ = scan.array_count;
  *out = std::move(doc);
  return ApiStatus();
}

size_t ApplyDocument::Count(const cJSON* array) const {
  if (array == lazy_) return lazy_count_;
  size_t n = 0;
  for (const cJSON* c = array->child; c != nullptr; c = c->next) ++n;
  return n;
}

ApiStatus ApplyDocument::ForEach(const cJSON* array, const JsonPath& path,
                                 const ElementFn& fn) const {
  if (array != lazy_) {
    size_t i = 0;
    for (const cJSON* e = array->child; e != nullptr; e = e->next, ++i) {
      CAPI_RETURN_IF_ERROR(fn(e, path.Index(i)));
    }
    return ApiStatus();
  }
  size_t pos = lazy_begin_ + 1;
  for (size_t i = 0; i < lazy_count_; ++i) {
    while (IsJsonSpace(text_[pos])) ++pos;
    // cJSON stops after the element (the text is strict), so its end need
    // not be found by a scan first.
    JsonDoc element;
    size_t length;
    CAPI_RETURN_IF_ERROR(
        ParseCheckedJson(text_.substr(pos, lazy_end_ - pos), /*strict=*/true, &element, &length));
    CAPI_RETURN_IF_ERROR(fn(element.get(), path.Index(i)));
    pos += length;
    while (IsJsonSpace(text_[pos])) ++pos;
    ++pos;  // ',' or the closing ']'
  }
  return ApiStatus();
}

}  // namespace sched::capi
