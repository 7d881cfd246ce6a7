// KeptReasons: statuses copied so that they outlive the cycle that made
// them (the equivalence cache's verdicts, DefaultPreemption's dry-run
// memo). A kept status's reasons are views into strings held here: the
// element addresses of an unordered_set are stable, and a reason already
// held is found by view, so keeping it again allocates nothing.
//
// Thread-safety: none; callers keep from one thread.
#ifndef LIBSCHED_FRAMEWORK_KEPT_REASONS_H_
#define LIBSCHED_FRAMEWORK_KEPT_REASONS_H_

#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "libsched/framework/status.h"
#include "libsched/model/string_hash.h"

namespace sched {

class KeptReasons {
 public:
  // `st` with its reasons copied here (code and plugin as they are).
  Status Keep(const Status& st) {
    Status kept(st.code());
    for (std::string_view r : st.reasons()) {
      auto it = reasons_.find(r);
      if (it == reasons_.end()) it = reasons_.emplace(r).first;
      kept.AddReason(*it);
    }
    kept.set_plugin(st.plugin());
    return kept;
  }

 private:
  std::unordered_set<std::string, StringHash, std::equal_to<>> reasons_;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_KEPT_REASONS_H_
