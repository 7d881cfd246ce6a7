// Status: the outcome of one plugin call, mirroring fwk.Status
// (staging/src/k8s.io/kube-scheduler/framework/interface.go).
//
// Reasons are string_views: into static strings, or into storage the plugin
// keeps in CycleState for the cycle, so a failing node costs no string copy.
#ifndef LIBSCHED_FRAMEWORK_STATUS_H_
#define LIBSCHED_FRAMEWORK_STATUS_H_

#include <memory>
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

class Status {
 public:
  Status() = default;
  explicit Status(Code code) : code_(code) {}
  Status(Code code, std::string_view reason) : code_(code), reasons_{reason} {}
  Status(Code code, std::vector<std::string_view> reasons)
      : code_(code), reasons_(std::move(reasons)) {}
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
    return code_ == Code::kUnschedulable ||
           code_ == Code::kUnschedulableAndUnresolvable || code_ == Code::kPending;
  }
  const std::vector<std::string_view>& reasons() const { return reasons_; }
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
  std::vector<std::string_view> reasons_;
  std::string_view plugin_;
  std::shared_ptr<const std::string> owned_;  // backs reasons_ for Error()
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_STATUS_H_
