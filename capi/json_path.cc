#include "capi/json_path.h"

#include "capi/json_writer.h"

namespace sched::capi {
namespace {

bool IsPlainKey(std::string_view key) {
  return !key.empty() && key.find_first_of(".[]\"") == std::string_view::npos;
}

}  // namespace

std::string JsonPath::String() const {
  std::string out;
  AppendTo(out);
  return out;
}

void JsonPath::AppendTo(std::string& out) const {
  if (kind_ == kRoot) return;
  parent_->AppendTo(out);
  if (kind_ == kIndex) {
    out += '[';
    out += std::to_string(index_);
    out += ']';
  } else if (IsPlainKey(key_)) {
    if (!out.empty()) out += '.';
    out += key_;
  } else {
    out += '[';
    AppendJsonString(out, key_);
    out += ']';
  }
}

}  // namespace sched::capi
