#include "libsched/framework/status.h"

namespace sched {

std::string_view CodeName(Code c) {
  switch (c) {
    case Code::kSuccess: return "Success";
    case Code::kError: return "Error";
    case Code::kUnschedulable: return "Unschedulable";
    case Code::kUnschedulableAndUnresolvable: return "UnschedulableAndUnresolvable";
    case Code::kWait: return "Wait";
    case Code::kSkip: return "Skip";
    case Code::kPending: return "Pending";
  }
  return "Unknown";
}

Status::Status(Code code, std::span<const std::string_view> reasons) : code_(code) {
  for (std::string_view r : reasons) AddReason(r);
}

void Status::AddReason(std::string_view reason) {
  if (more_.empty() && num_inline_ < kInlineReasons) {
    inline_[num_inline_++] = reason;
    return;
  }
  if (more_.empty()) {
    more_.reserve(2 * kInlineReasons);
    more_.assign(inline_.begin(), inline_.end());
    num_inline_ = 0;
  }
  more_.push_back(reason);
}

Status Status::Error(std::string message) { return Owned(Code::kError, std::move(message)); }

Status Status::Owned(Code code, std::string reason) {
  Status s(code);
  s.owned_ = std::make_shared<const std::string>(std::move(reason));
  s.AddReason(*s.owned_);
  return s;
}

namespace {

int Severity(Code c) {
  switch (c) {
    case Code::kError: return 3;
    case Code::kUnschedulableAndUnresolvable: return 2;
    case Code::kUnschedulable:
    case Code::kPending: return 1;
    default:
      return 0;
  }
}

}  // namespace

void Status::MergeRejection(const Status& other) {
  if (Severity(other.code_) > Severity(code_)) {
    code_ = other.code_;
    plugin_ = other.plugin_;
  }
  if (other.owned_ == nullptr) {
    for (std::string_view r : other.reasons()) AddReason(r);
    return;
  }
  // One owned string backs a status's reasons, so join the two lists.
  std::string joined = Message();
  if (!joined.empty()) joined += ", ";
  joined += other.Message();
  owned_ = std::make_shared<const std::string>(std::move(joined));
  more_.clear();
  num_inline_ = 1;
  inline_[0] = *owned_;
}

std::string Status::Message() const {
  std::string out;
  const StatusReasons reasons = this->reasons();
  for (size_t i = 0; i < reasons.size(); ++i) {
    if (i) out += ", ";
    out += reasons[i];
  }
  return out;
}

}  // namespace sched
