#include "libsched/plugins/node_resources_balanced_allocation.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_resources_balanced_allocation_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

using Scalars = std::vector<std::pair<std::string, int64_t>>;

struct Req {  // one container; -1 leaves cpu / memory out
  int64_t cpu = -1;
  int64_t mem = -1;
  Scalars scalar = {};
};
Req CPUOnly(int64_t milli) { return {milli, -1}; }
Req CPUAndMemory(int64_t milli, int64_t mem) { return {milli, mem}; }

struct TestNode {
  std::string name;
  int64_t milli_cpu;
  int64_t memory;
  Scalars scalar = {};
};

struct ExistingPod {
  std::string node;
  std::vector<Req> containers;
};

struct Case {
  std::string name;
  std::vector<Req> pod;
  std::vector<TestNode> nodes;
  std::vector<ExistingPod> existing;
  std::vector<int64_t> want;  // empty: PreScore skips
  NodeResourcesBalancedAllocationArgs args = {};
};

std::shared_ptr<const Pod> MakePod(Interner& in, const std::string& name,
                                   const std::vector<Req>& containers,
                                   const std::string& node = "") {
  PodBuilder b(in, name);
  b.NodeName(node);
  for (const Req& r : containers) b.Container(r.cpu, r.mem, r.scalar);
  return b.Build();
}

void Check(const Case& c) {
  SCOPED_TRACE(c.name);
  ASSERT_TRUE(NodeResourcesBalancedAllocation::ValidateArgs(c.args).empty());
  const NodeResourcesBalancedAllocation p(c.args);
  ClusterState cs;
  Interner& in = cs.interner();
  for (const TestNode& n : c.nodes) {
    NodeBuilder b(in, n.name);
    b.Capacity(n.milli_cpu, n.memory);
    for (const auto& [k, v] : n.scalar) b.Scalar(k, v);
    cs.UpsertNode(b.Build());
  }
  for (size_t i = 0; i < c.existing.size(); ++i) {
    cs.UpsertPod(MakePod(in, "existing" + std::to_string(i), c.existing[i].containers,
                         c.existing[i].node));
  }
  auto pod = MakePod(in, "pod", c.pod);
  CycleState state(1);
  const Status pre = p.PreScore(state, *pod, cs.NodeList(), cs);
  if (c.want.empty()) {
    EXPECT_EQ(CodeName(pre.code()), CodeName(Code::kSkip));
    return;
  }
  ASSERT_TRUE(pre.IsSuccess()) << pre.Message();
  std::vector<int64_t> got;
  for (const TestNode& n : c.nodes) {
    int64_t score = -1;
    EXPECT_TRUE(p.Score(state, *pod, *cs.FindNode(n.name), &score).IsSuccess());
    got.push_back(score);
  }
  EXPECT_EQ(got, c.want);
}

NodeResourcesBalancedAllocationArgs WithGPU() {
  NodeResourcesBalancedAllocationArgs a;
  a.resources = {{"cpu", 1}, {"memory", 1}, {"nvidia.com/gpu", 1}};
  return a;
}

// balanced_allocation_test.go TestNodeResourcesBalancedAllocation (the
// DRA-backed cases aside). Comments give cpu and memory fractions without
// -> with the pod, and balance(without) -> balance(with).
TEST(NodeResourcesBalancedAllocationTest, Score) {
  const std::vector<Req> two = {CPUAndMemory(1000, 2000), CPUAndMemory(2000, 3000)};
  const std::vector<Case> cases = {
      {"nothing scheduled, nothing requested: skip in PreScore", {},
       {{"node1", 4000, 10000}, {"node2", 4000, 10000}}, {}, {}},
      // node1: cpu 0 -> 75%, memory 0 -> 50%: 100 -> 87. node2: 100 -> 100.
      {"nothing scheduled, resources requested, differently sized nodes", two,
       {{"node1", 4000, 10000}, {"node2", 6000, 10000}}, {}, {68, 75}},
      // node1: cpu 30 -> 60%, memory 0 -> 25%: 85 -> 82.
      // node2: cpu 30 -> 60%, memory 25 -> 50%: 97 -> 95.
      {"resources requested, pods scheduled with resources", two,
       {{"node1", 10000, 20000}, {"node2", 10000, 20000}},
       {{"node1", {CPUOnly(1000), CPUOnly(2000)}}, {"node2", two}}, {73, 74}},
      // node2: memory 10 -> 20% of 50000: 90 -> 80.
      {"resources requested, pods scheduled with resources, differently sized nodes", two,
       {{"node1", 10000, 20000}, {"node2", 10000, 50000}},
       {{"node1", {CPUOnly(1000), CPUOnly(2000)}}, {"node2", two}}, {73, 70}},
      // node1: cpu 100%, memory 0 -> 100%: 50 -> 100. node2: memory 0 -> 100%: 100 -> 50.
      {"nodes to reach min/max score", {Req{-1, 2000}, Req{-1, 3000}},
       {{"node1", 3000, 5000}, {"node2", 3000, 5000}},
       {{"node1", {CPUOnly(1000), CPUOnly(2000)}}}, {100, 50}},
      // node1: cpu 50 -> 100%, memory 0%: 75 -> 50. node2: memory 50%: 100 -> 75.
      {"requested resources at node capacity", {CPUOnly(1000), CPUOnly(2000)},
       {{"node1", 6000, 10000}, {"node2", 6000, 10000}},
       {{"node1", {CPUOnly(1000), CPUOnly(2000)}}, {"node2", two}}, {62, 62}},
      // node1: gpu 3 -> 4 of 8: 69 -> 70. node2: gpu 0 -> 1 of 8: 62 -> 65.
      {"scalar resource is scored when the pod requests it",
       {Req{0, 0, {{"nvidia.com/gpu", 1}}}},
       {{"node1", 3500, 40000, {{"nvidia.com/gpu", 8}}},
        {"node2", 3500, 40000, {{"nvidia.com/gpu", 8}}}},
       {{"node1", {CPUAndMemory(1000, 2000), Req{2000, 3000, {{"nvidia.com/gpu", 3}}}}},
        {"node2", two}},
       {75, 76}, WithGPU()},
      // gpu left out: cpu 0 -> 85.7%, memory 0 -> 12.5%: 100 -> 63 on both.
      {"scalar resource is not scored when the pod does not request it", two,
       {{"node1", 3500, 40000, {{"nvidia.com/gpu", 8}}}, {"node2", 3500, 40000}}, {},
       {56, 56}, WithGPU()},
      {"pod requesting only unscored resources is skipped", {Req{-1, -1, {{"example.com/x", 1}}}},
       {{"node1", 4000, 10000}}, {}, {}},
  };
  for (const Case& c : cases) Check(c);
}

// validation_pluginargs_test.go TestValidateNodeResourcesBalancedAllocationArgs.
TEST(NodeResourcesBalancedAllocationTest, ArgsValidation) {
  struct Case {
    std::string name;
    std::vector<ResourceSpec> resources;
    std::vector<std::string> want_fields;
  };
  const std::vector<Case> cases = {
      {"valid config", {{"cpu", 1}, {"memory", 1}}, {}},
      {"invalid config", {{"cpu", 2}, {"memory", 1}}, {"resources[0].weight"}},
      {"repeated resources", {{"cpu", 1}, {"cpu", 1}}, {"resources[1].name"}},
      {"scalar resource", WithGPU().resources, {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeResourcesBalancedAllocationArgs args;
    args.resources = c.resources;
    std::vector<std::string> fields;
    for (const FieldError& e : NodeResourcesBalancedAllocation::ValidateArgs(args)) {
      fields.push_back(e.field);
    }
    EXPECT_EQ(fields, c.want_fields);
  }
  EXPECT_TRUE(NodeResourcesBalancedAllocation::ValidateArgs({}).empty());
  EXPECT_EQ(NodeResourcesBalancedAllocation().Name(), "NodeResourcesBalancedAllocation");
}

}  // namespace
}  // namespace node_resources_balanced_allocation_test
}  // namespace sched
