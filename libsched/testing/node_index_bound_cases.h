// The falls of ClusterState::NodeIndexBound() that an array by node index
// is tested against (state/node_index_room.h): from `rows` to a bound that
// keeps the array (unchanged, a little lower, half) or cuts it (under
// half, far lower, no node left). Test-only.
#ifndef LIBSCHED_TESTING_NODE_INDEX_BOUND_CASES_H_
#define LIBSCHED_TESTING_NODE_INDEX_BOUND_CASES_H_

#include <cstddef>
#include <string>
#include <vector>

namespace sched::testing {

struct BoundFall {
  std::string name;
  size_t bound;  // of the next cycle
  bool cut;
};

// REQUIRES: rows >= 20.
inline std::vector<BoundFall> NodeIndexBoundFalls(size_t rows) {
  return {
      {"bound unchanged", rows, false},         {"bound fell a little", rows * 3 / 5, false},
      {"bound fell to half", rows / 2, false},  {"bound fell under half", rows / 2 - 1, true},
      {"bound fell far", 10, true},             {"no node left", 0, true},
  };
}

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_NODE_INDEX_BOUND_CASES_H_
