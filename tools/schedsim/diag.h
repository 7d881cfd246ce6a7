// Warnings about input the API server would have refused or treated
// otherwise (unknown fields and kinds, dangling references): printed as
// they are found, folded when the same one repeats, and turned into an
// input error by --strict.
#ifndef TOOLS_SCHEDSIM_DIAG_H_
#define TOOLS_SCHEDSIM_DIAG_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>

#include "loc.h"

namespace schedsim {

class Diagnostics {
 public:
  Diagnostics(std::ostream& err, bool strict) : err_(err), strict_(strict) {}

  // Reports `what` at `loc` ("schedsim: warning: LOC: what", or "error:"
  // under --strict). The same `what` is printed at most kShown times; the
  // rest are counted and summarised by Finish.
  void Warn(const Loc& loc, const std::string& what);

  // Prints how many of each folded message were not shown; under --strict,
  // throws InputError when anything was reported.
  void Finish();

  int64_t count() const { return count_; }

  static constexpr int64_t kShown = 3;

 private:
  std::ostream& err_;
  bool strict_;
  int64_t count_ = 0;
  std::map<std::string, int64_t> seen_;  // by message
};

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_DIAG_H_
