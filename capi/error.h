// Errors at the C boundary: the sched_error object handed to callers, the
// ApiStatus value that capi code returns internally, and Guard(), the
// exception firewall every extern "C" function runs its body through
// (after DuckDB's C API): no exception ever reaches a C caller.
#ifndef CAPI_ERROR_H_
#define CAPI_ERROR_H_

#include <exception>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include "capi/json_path.h"
#include "sched/sched.h"

// Opaque to callers; immutable once handed out.
struct sched_error {
  sched_status code;
  std::string message;
  std::string path;
};

namespace sched::capi {

// The outcome of a capi operation: OK, or a status code with a message and
// the JSON path of the offending input ("" when not about one field).
class [[nodiscard]] ApiStatus {
 public:
  ApiStatus() = default;  // OK
  ApiStatus(ApiStatus&&) noexcept = default;
  ApiStatus& operator=(ApiStatus&&) noexcept = default;
  // Copies are rare (tests, a status kept for later): they copy the error.
  ApiStatus(const ApiStatus& other)
      : error_(other.error_ == nullptr ? nullptr : std::make_unique<Error>(*other.error_)) {}
  ApiStatus& operator=(const ApiStatus& other) {
    if (this != &other) *this = ApiStatus(other);
    return *this;
  }

  // SCHED_INVALID_ARGUMENT about the value at `path`; the message reads
  // "<path>: <detail>" (just the detail at the root), as Kubernetes field
  // errors print.
  static ApiStatus Invalid(const JsonPath& path, std::string_view detail);
  // SCHED_INVALID_ARGUMENT about the value at `field`, a field.Path string
  // below `base` ("scoringStrategy.resources[0].weight"), as a core
  // validator reports it (libsched/framework/field_error.h).
  static ApiStatus Invalid(const JsonPath& base, std::string_view field, std::string_view detail);
  // SCHED_INVALID_ARGUMENT about the call rather than one field.
  static ApiStatus InvalidCall(std::string message);

  bool ok() const { return error_ == nullptr; }
  sched_status code() const { return error_ == nullptr ? SCHED_OK : error_->code; }
  const std::string& message() const;
  const std::string& path() const;

 private:
  // Only an error allocates: an OK status, which every decoder returns per
  // field, is one null pointer to make, move and destroy.
  struct Error {
    sched_status code;
    std::string message;
    std::string path;
  };
  ApiStatus(sched_status code, std::string message, std::string path)
      : error_(std::make_unique<Error>(Error{code, std::move(message), std::move(path)})) {}

  std::unique_ptr<Error> error_;
};

#define CAPI_RETURN_IF_ERROR(expr)                          \
  do {                                                      \
    ::sched::capi::ApiStatus capi_status_ = (expr);         \
    if (!capi_status_.ok()) return capi_status_;            \
  } while (0)

// Writes `s` to *err (when err is not null and s is not OK) and returns its
// code. May throw std::bad_alloc.
sched_status Report(const ApiStatus& s, sched_error** err);
// For the firewall: never throws. If even the error object cannot be
// allocated, *err is set to null and only the returned code tells.
sched_status ReportNoThrow(sched_status code, const char* message, sched_error** err) noexcept;

// Runs `body` (returning ApiStatus) and reports its outcome through `err`.
// std::bad_alloc becomes SCHED_OUT_OF_MEMORY; any other exception is a
// broken invariant: SCHED_INTERNAL with its what(). An error left in *err by
// an earlier call is freed first (sched.h, convention 2).
template <class Body>
sched_status Guard(sched_error** err, Body&& body) noexcept {
  if (err != nullptr) {
    delete *err;
    *err = nullptr;
  }
  try {
    return Report(body(), err);
  } catch (const std::bad_alloc&) {
    return ReportNoThrow(SCHED_OUT_OF_MEMORY, "out of memory", err);
  } catch (const std::exception& e) {
    return ReportNoThrow(SCHED_INTERNAL, e.what(), err);
  } catch (...) {
    return ReportNoThrow(SCHED_INTERNAL, "unknown exception", err);
  }
}

}  // namespace sched::capi

#endif  // CAPI_ERROR_H_
