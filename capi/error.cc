#include "capi/error.h"

namespace sched::capi {
namespace {

const std::string& Empty() {
  static const std::string empty;
  return empty;
}

}  // namespace

const std::string& ApiStatus::message() const {
  return error_ == nullptr ? Empty() : error_->message;
}

const std::string& ApiStatus::path() const { return error_ == nullptr ? Empty() : error_->path; }

ApiStatus ApiStatus::Invalid(const JsonPath& path, std::string_view detail) {
  std::string p = path.String();
  std::string message = p.empty() ? std::string(detail) : p + ": " + std::string(detail);
  return ApiStatus(SCHED_INVALID_ARGUMENT, std::move(message), std::move(p));
}

ApiStatus ApiStatus::Invalid(const JsonPath& base, std::string_view field,
                             std::string_view detail) {
  std::string p = base.String();
  if (!p.empty() && !field.empty() && field[0] != '[') p += '.';
  p += field;
  std::string message = p.empty() ? std::string(detail) : p + ": " + std::string(detail);
  return ApiStatus(SCHED_INVALID_ARGUMENT, std::move(message), std::move(p));
}

ApiStatus ApiStatus::InvalidCall(std::string message) {
  return ApiStatus(SCHED_INVALID_ARGUMENT, std::move(message), "");
}

sched_status Report(const ApiStatus& s, sched_error** err) {
  if (!s.ok() && err != nullptr) {
    *err = new sched_error{s.code(), s.message(), s.path()};
  }
  return s.code();
}

sched_status ReportNoThrow(sched_status code, const char* message, sched_error** err) noexcept {
  if (err == nullptr) return code;
  try {
    *err = new sched_error{code, message, ""};
  } catch (...) {
    *err = nullptr;
  }
  return code;
}

}  // namespace sched::capi
