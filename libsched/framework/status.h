// Status: the outcome of one plugin call, mirroring fwk.Status
// (staging/src/k8s.io/kube-scheduler/framework/interface.go).
//
// Reasons are string_views: into static strings, or into storage the plugin
// keeps in CycleState for the cycle, so a failing node costs no string copy.
// Up to kInlineReasons of them live inside the Status, so the common
// rejection (one or two reasons) allocates nothing, neither to build nor to
// copy or destroy: a cycle makes one per rejected node.
#ifndef LIBSCHED_FRAMEWORK_STATUS_H_
#define LIBSCHED_FRAMEWORK_STATUS_H_

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sched {

enum class Code : uint8_t {
  kSuccess,
  kError,
  kUnschedulable,                 // preemption might help
  kUnschedulableAndUnresolvable,  // preemption cannot help
  kWait,
  kSkip,
  kPending,
};

std::string_view CodeName(Code c);

// A Status's reasons, in order: a view valid while the Status lives
// unmodified. Compares equal to a vector of the same strings (for tests).
class StatusReasons : public std::span<const std::string_view> {
 public:
  using std::span<const std::string_view>::span;
  friend bool operator==(StatusReasons a, const std::vector<std::string_view>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
};

class Status {
 public:
  // Reasons kept without a heap allocation.
  static constexpr size_t kInlineReasons = 2;

  Status() = default;
  explicit Status(Code code) : code_(code) {}
  Status(Code code, std::string_view reason) : code_(code), num_inline_(1), inline_{reason} {}
  // The strings `reasons` points to must outlive the Status (not the span).
  Status(Code code, std::span<const std::string_view> reasons);
  // An Error status owns its message (errors are rare and may be dynamic).
  static Status Error(std::string message);
  // A status of `code` owning its one, dynamic, reason (e.g. PreEnqueue's
  // "waiting for scheduling gates: [...]").
  static Status Owned(Code code, std::string reason);

  Code code() const { return code_; }
  bool IsSuccess() const { return code_ == Code::kSuccess; }
  bool IsSkip() const { return code_ == Code::kSkip; }
  // Unschedulable or UnschedulableAndUnresolvable (fwk.Status.IsRejected).
  bool IsRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable ||
           code_ == Code::kPending;
  }
  StatusReasons reasons() const {
    if (!more_.empty()) return {more_.data(), more_.size()};
    return {inline_.data(), num_inline_};
  }
  // Appends a reason (as above, it must outlive the Status).
  void AddReason(std::string_view reason);
  // The plugin that returned this status (set by the framework).
  std::string_view plugin() const { return plugin_; }
  void set_plugin(std::string_view p) { plugin_ = p; }
  // Reasons joined by ", " (fwk.Status.Message).
  std::string Message() const;

  // Folds another rejection into this one, as v1.20's PluginToStatus.Merge
  // did for alwaysCheckAllPredicates: `other`'s reasons appended; the code
  // and plugin of the more severe status kept (this one on a tie). When
  // `other` owns its reason, the merged reasons become one owned reason
  // with the same Message().
  void MergeRejection(const Status& other);

 private:
  Code code_ = Code::kSuccess;
  uint8_t num_inline_ = 0;  // reasons in inline_, while more_ is empty
  std::array<std::string_view, kInlineReasons> inline_{};
  std::vector<std::string_view> more_;  // all reasons, once there are more
  std::string_view plugin_;
  std::shared_ptr<const std::string> owned_;  // backs the reason of Owned()
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_STATUS_H_
