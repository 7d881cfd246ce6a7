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

Status Status::Error(std::string message) { return Owned(Code::kError, std::move(message)); }

Status Status::Owned(Code code, std::string reason) {
  Status s(code);
  s.owned_ = std::make_shared<const std::string>(std::move(reason));
  s.reasons_.push_back(*s.owned_);
  return s;
}

namespace {

int Severity(Code c) {
  switch (c) {
    case Code::kError: return 3;
    case Code::kUnschedulableAndUnresolvable: return 2;
    case Code::kUnschedulable:
    case Code::kPending: return 1;
    default: return 0;
  }
}

}  // namespace

void Status::MergeRejection(const Status& other) {
  if (Severity(other.code_) > Severity(code_)) {
    code_ = other.code_;
    plugin_ = other.plugin_;
  }
  if (other.owned_ == nullptr) {
    reasons_.insert(reasons_.end(), other.reasons_.begin(), other.reasons_.end());
    return;
  }
  // One owned string backs a status's reasons, so join the two lists.
  std::string joined = Message();
  if (!joined.empty()) joined += ", ";
  joined += other.Message();
  owned_ = std::make_shared<const std::string>(std::move(joined));
  reasons_.assign(1, *owned_);
}

std::string Status::Message() const {
  std::string out;
  for (size_t i = 0; i < reasons_.size(); ++i) {
    if (i) out += ", ";
    out += reasons_[i];
  }
  return out;
}

}  // namespace sched
