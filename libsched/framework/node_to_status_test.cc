#include "libsched/framework/node_to_status.h"

#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace sched {
namespace node_to_status_test {
namespace {

// Reasons at two addresses with equal text: a run breaks between them, and
// the histogram still counts them as one reason.
const std::string kCpu = "Insufficient cpu";
const std::string kCpuCopy = "Insufficient cpu";
const std::string kTaint = "node(s) had untolerated taint";

Status Rejection(std::vector<std::string_view> reasons, std::string_view plugin = "P") {
  Status s(Code::kUnschedulable, reasons);
  s.set_plugin(plugin);
  return s;
}

TEST(ReasonsHistogramTest, RunsOfOneVerdictCountByTheirLength) {
  struct Case {
    const char* name;
    std::vector<Status> statuses;  // one a node, in order
    int64_t num_all_nodes;
    const Status* absent;
    std::string want;
  };
  const Status absent(Code::kUnschedulableAndUnresolvable, kTaint);
  const Status cpu = Rejection({kCpu});
  const Case cases[] = {
      {"no failures", {}, 3, nullptr, ""},
      {"one run", {cpu, cpu, cpu}, 3, nullptr, " 3 Insufficient cpu."},
      {"runs broken by another verdict",
       {cpu, cpu, Rejection({kTaint}), cpu},
       4,
       nullptr,
       " 1 node(s) had untolerated taint, 3 Insufficient cpu."},
      {"equal text at another address counts with it",
       {cpu, Rejection({kCpuCopy}), cpu},
       3,
       nullptr,
       " 3 Insufficient cpu."},
      {"another plugin with the same reasons counts with it",
       {cpu, Rejection({kCpu}, "Q"), cpu},
       3,
       nullptr,
       " 3 Insufficient cpu."},
      {"a run of two reasons counts each",
       {Rejection({kCpu, kTaint}), Rejection({kCpu, kTaint}), cpu},
       3,
       nullptr,
       " 2 node(s) had untolerated taint, 3 Insufficient cpu."},
      {"absent nodes count under absent's reasons",
       {cpu, cpu},
       12,
       &absent,
       " 10 node(s) had untolerated taint, 2 Insufficient cpu."},
  };
  for (const Case& c : cases) {
    std::deque<NodeInfo> nodes;
    std::vector<NodeFailure> failures;
    for (const Status& s : c.statuses) {
      nodes.emplace_back(static_cast<uint32_t>(nodes.size()));
      failures.push_back({&nodes.back(), s});
    }
    EXPECT_EQ(ReasonsHistogram(c.num_all_nodes, failures, c.absent), c.want) << c.name;
  }
}

TEST(NodeToStatusTest, CodeForByIndexCopiesAndAbsent) {
  // Failures in rotation order (from index 3), one node at an index past
  // the failures' count, and a copy sharing index 0 with another node.
  std::deque<NodeInfo> nodes;
  for (uint32_t i : {3u, 4u, 0u, 1u, 9u}) nodes.emplace_back(i);
  const NodeInfo copy_of_0(0);
  const NodeInfo listed_nowhere(2);
  const NodeInfo unindexed;
  const Status unresolvable(Code::kUnschedulableAndUnresolvable, kTaint);
  std::vector<NodeFailure> failures;
  for (const NodeInfo& n : nodes) failures.push_back({&n, Rejection({kCpu})});
  failures[1].status = unresolvable;
  failures.push_back({&copy_of_0, unresolvable});
  failures.push_back({&unindexed, unresolvable});
  const Status absent(Code::kUnschedulable, kCpu);

  struct Case {
    const char* name;
    const NodeInfo* node;
    const Status* absent;
    Code want;
  };
  const Case cases[] = {
      {"first of the rotation", &nodes[0], nullptr, Code::kUnschedulable},
      {"second, unresolvable", &nodes[1], nullptr, Code::kUnschedulableAndUnresolvable},
      {"after the wrap", &nodes[2], nullptr, Code::kUnschedulable},
      {"index past the count", &nodes[4], nullptr, Code::kUnschedulable},
      {"a copy at a taken index", &copy_of_0, nullptr, Code::kUnschedulableAndUnresolvable},
      {"without an index", &unindexed, nullptr, Code::kUnschedulableAndUnresolvable},
      {"not listed, default absent", &listed_nowhere, nullptr,
       Code::kUnschedulableAndUnresolvable},
      {"not listed, given absent", &listed_nowhere, &absent, Code::kUnschedulable},
      {"null node", nullptr, &absent, Code::kUnschedulable},
  };
  for (const Case& c : cases) {
    const NodeToStatus statuses(failures, c.absent);
    EXPECT_EQ(statuses.CodeFor(c.node), c.want) << c.name;
  }
}

}  // namespace
}  // namespace node_to_status_test
}  // namespace sched
