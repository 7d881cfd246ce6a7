// SameView, SameViews: "the same as the one before" for a cycle's
// verdicts, by address instead of text. Shared by everything that walks a
// cycle's failures in runs (the fit error's histogram, the rejecting
// plugins, the equivalence cache's failure memo).
#ifndef LIBSCHED_FRAMEWORK_SAME_VIEWS_H_
#define LIBSCHED_FRAMEWORK_SAME_VIEWS_H_

#include <algorithm>
#include <string_view>

#include "libsched/framework/status.h"

namespace sched {

// Whether two views are the same view: one address, one length. Strings
// a cycle repeats (a plugin's name and static reasons, a class's kept
// reasons) are views of one string, so this tells "same as the one before"
// without comparing characters; equal strings elsewhere count as different.
inline bool SameView(std::string_view a, std::string_view b) {
  return a.data() == b.data() && a.size() == b.size();
}

// Whether `a` and `b` are the same verdict by their views: the same code,
// and SameView plugin and reasons. A cycle's failures come in long runs of
// one verdict, which this finds at the cost of a few compares a node.
inline bool SameViews(const Status& a, const Status& b) {
  const StatusReasons ra = a.reasons(), rb = b.reasons();
  return a.code() == b.code() && SameView(a.plugin(), b.plugin()) &&
         std::equal(ra.begin(), ra.end(), rb.begin(), rb.end(), SameView);
}

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_SAME_VIEWS_H_
