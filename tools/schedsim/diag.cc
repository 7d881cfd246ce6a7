#include "diag.h"

namespace schedsim {

void Diagnostics::Warn(const Loc& loc, const std::string& what) {
  ++count_;
  if (++seen_[what] > kShown) return;
  err_ << "schedsim: " << (strict_ ? "error: " : "warning: ") << loc.Str() << ": " << what << "\n";
}

void Diagnostics::Finish() {
  for (const auto& [what, n] : seen_) {
    if (n > kShown) {
      err_ << "schedsim: " << (strict_ ? "error: " : "warning: ") << n - kShown
           << " more like: " << what << "\n";
    }
  }
  if (strict_ && count_ > 0) {
    throw InputError(std::to_string(count_) + " input error(s) (--strict)");
  }
}

}  // namespace schedsim
