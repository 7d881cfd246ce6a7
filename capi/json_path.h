// JsonPath: where a value sits in an input document, for error messages
// ("object.spec.containers[0].resources.requests.cpu", "[3].object.kind",
// "items[2].metadata.name").
//
// A path is a chain of segments on the stack, each pointing to its parent, so
// building one costs nothing until an error renders it with String(). A
// JsonPath must not outlive its parent: pass Child()/Index() results as
// arguments or keep them in locals of a callee, never store a chain built
// from temporaries.
#ifndef CAPI_JSON_PATH_H_
#define CAPI_JSON_PATH_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace sched::capi {

class JsonPath {
 public:
  // The document root: renders as "".
  JsonPath() = default;

  // A field of this object. `key` must outlive the returned path (field
  // names are literals; map keys point into the parsed document).
  JsonPath Child(std::string_view key) const { return JsonPath(this, key, 0, kKey); }
  // An element of this array.
  JsonPath Index(size_t i) const { return JsonPath(this, {}, i, kIndex); }

  // Fields join with '.', indexes are "[i]"; a key that is not a plain name
  // (it contains '.', '[', ']', '"' or is empty, as label keys like
  // "app.kubernetes.io/name" do) is written ["key"] with JSON escapes.
  std::string String() const;

 private:
  enum Kind { kRoot, kKey, kIndex };
  JsonPath(const JsonPath* parent, std::string_view key, size_t index, Kind kind)
      : parent_(parent), key_(key), index_(index), kind_(kind) {}
  void AppendTo(std::string& out) const;

  const JsonPath* parent_ = nullptr;
  std::string_view key_;
  size_t index_ = 0;
  Kind kind_ = kRoot;
};

}  // namespace sched::capi

#endif  // CAPI_JSON_PATH_H_
