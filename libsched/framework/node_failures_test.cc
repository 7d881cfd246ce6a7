#include "libsched/framework/node_failures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

namespace sched {
namespace node_failures_test {
namespace {

// Node i of `nodes` as a failure whose reason names it.
std::vector<NodeFailure> Failures(const std::vector<NodeInfo>& nodes,
                                  const std::vector<std::string>& reasons) {
  std::vector<NodeFailure> out;
  for (size_t i = 0; i < nodes.size(); ++i) {
    out.push_back({&nodes[i], Status(Code::kUnschedulable, reasons[i])});
  }
  return out;
}

// What the failures list, in order: the nodes' indexes, through both
// operator[] and the iterators.
std::vector<uint32_t> Listed(const NodeFailures& f) {
  std::vector<uint32_t> by_index, by_iterator;
  for (size_t i = 0; i < f.size(); ++i) by_index.push_back(f[i].node->index());
  for (const NodeFailure& x : f) by_iterator.push_back(x.node->index());
  EXPECT_EQ(by_index, by_iterator);
  return by_index;
}

// A shared vector read from `shift` on lists shift..n-1 then 0..shift-1,
// as the cycle's own failures pushed in that order would; AnyOrder holds
// each once.
TEST(NodeFailuresTest, SharedFailuresAreReadRotated) {
  struct Case {
    const char* name;
    size_t n;
    size_t shift;
  };
  const Case cases[] = {
      {"no failures", 0, 0}, {"one node", 1, 0},   {"unrotated", 5, 0},
      {"by one", 5, 1},      {"to the last", 5, 4}, {"half way", 6, 3},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<NodeInfo> nodes;
    std::vector<std::string> reasons;
    for (size_t i = 0; i < c.n; ++i) {
      nodes.emplace_back(static_cast<uint32_t>(i));
      reasons.push_back("reason " + std::to_string(i));
    }
    const std::vector<NodeFailure> all = Failures(nodes, reasons);
    NodeFailures own;
    std::vector<uint32_t> want;
    for (size_t i = 0; i < c.n; ++i) {
      const size_t j = (c.shift + i) % c.n;
      own.push_back(all[j]);
      want.push_back(static_cast<uint32_t>(j));
    }
    NodeFailures shared;
    shared.Share(std::make_shared<const std::vector<NodeFailure>>(all), c.shift);
    EXPECT_EQ(shared.size(), c.n);
    EXPECT_EQ(shared.empty(), c.n == 0);
    EXPECT_EQ(Listed(own), want);
    EXPECT_EQ(Listed(shared), want);
    for (size_t i = 0; i < c.n; ++i) {
      EXPECT_EQ(shared[i].status.Message(), "reason " + std::to_string(want[i])) << i;
    }
    std::vector<uint32_t> any;
    for (const NodeFailure& f : shared.AnyOrder()) any.push_back(f.node->index());
    std::sort(any.begin(), any.end());
    std::vector<uint32_t> sorted = want;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(any, sorted);
  }
}

}  // namespace
}  // namespace node_failures_test
}  // namespace sched
