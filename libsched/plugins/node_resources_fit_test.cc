#include "libsched/plugins/node_resources_fit.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/model/pod_requests.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace node_resources_fit_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

const std::string kExtA = "example.com/aaa";
const std::string kExtB = "example.com/bbb";
const std::string kK8sIOA = "kubernetes.io/something";
const std::string kK8sIOB = "subdomain.kubernetes.io/something";
const std::string kHugePageA = "hugepages-2Mi";
const std::string kNoDeviceClass = "extended.resource.dra.io/something";

using Scalars = std::vector<std::pair<std::string, int64_t>>;

// One container's requests with explicit cpu, memory (and ephemeral-storage)
// entries, as upstream's newResourcePod writes them.
struct Usage {
  int64_t cpu = 0;
  int64_t mem = 0;
  Scalars scalar = {};
  int64_t eph = 0;
};

ContainerResources Container(Interner& in, const Usage& u) {
  ContainerResources c;
  c.has_cpu = c.has_memory = true;
  c.requests = testing::Res(in, u.cpu, u.mem, u.scalar, 0, u.eph);
  return c;
}

struct PodSpecIn {
  std::vector<Usage> containers;
  std::vector<Usage> init = {};
  std::optional<Usage> pod_level = std::nullopt;
  std::optional<Usage> overhead = std::nullopt;
};

// A pod whose requests come from `in_spec`; bound to `node` when non-empty.
std::shared_ptr<const Pod> MakePod(Interner& in, const std::string& name, const PodSpecIn& s,
                                   const std::string& node = "") {
  PodResourceSpec spec;
  for (const Usage& u : s.containers) spec.containers.push_back(Container(in, u));
  for (const Usage& u : s.init) spec.init_containers.push_back(Container(in, u));
  if (s.pod_level) spec.pod_level = Container(in, *s.pod_level).requests;
  if (s.overhead) spec.overhead = Container(in, *s.overhead).requests;
  Pod p = *PodBuilder(in, name).NodeName(node).Build();
  p.requests = PodRequests(spec);
  p.non_zero_requests = PodNonZeroRequests(spec);
  p.non_zero_container_requests = PodNonZeroContainerRequests(spec);
  return std::make_shared<const Pod>(std::move(p));
}

// ---------------------------------------------------------------- Filter

struct FilterCase {
  std::string name;
  PodSpecIn pod;
  std::vector<Usage> existing;  // one pod per entry on the node
  Code want_code = Code::kSuccess;
  std::vector<std::string> want_reasons = {};
  NodeResourcesFitArgs args = {};
};

// fit_test.go's node: 10m cpu, 20 bytes, 32 pods, 5 example.com/aaa,
// 20 ephemeral-storage, 5 hugepages-2Mi.
std::shared_ptr<const Node> FilterNode(Interner& in, int64_t pods = 32) {
  return NodeBuilder(in, "node")
      .Capacity(10, 20, pods)
      .Scalar(kExtA, 5)
      .EphemeralStorage(20)
      .Scalar(kHugePageA, 5)
      .Build();
}

Status RunFilter(const NodeResourcesFit& p, ClusterState& cs, const Pod& pod,
                 std::vector<std::string>* reasons) {
  CycleState state(1);
  PreFilterResult result;
  Status pre = p.PreFilter(state, pod, cs, &result);
  EXPECT_TRUE(result.all_nodes);
  EXPECT_TRUE(pre.IsSuccess()) << pre.Message();
  Status s = p.Filter(state, pod, *cs.FindNode("node"));
  // Reasons point into `state`: copy them before it goes away.
  for (std::string_view r : s.reasons()) reasons->emplace_back(r);
  return s;
}

void CheckFilter(const FilterCase& c, int64_t node_pods = 32) {
  SCOPED_TRACE(c.name);
  ASSERT_TRUE(NodeResourcesFit::ValidateArgs(c.args).empty());
  const NodeResourcesFit p(c.args);
  ClusterState cs;
  Interner& in = cs.interner();
  cs.UpsertNode(FilterNode(in, node_pods));
  for (size_t i = 0; i < c.existing.size(); ++i) {
    cs.UpsertPod(MakePod(in, "existing" + std::to_string(i), {{c.existing[i]}}, "node"));
  }
  auto pod = MakePod(in, "pod", c.pod);
  std::vector<std::string> reasons;
  Status s = RunFilter(p, cs, *pod, &reasons);
  EXPECT_EQ(CodeName(s.code()), CodeName(c.want_code));
  EXPECT_EQ(reasons, c.want_reasons);
}

const std::string kCPU = "Insufficient cpu";
const std::string kMem = "Insufficient memory";
const std::string kEph = "Insufficient ephemeral-storage";
std::string Insufficient(const std::string& r) { return "Insufficient " + r; }
constexpr Code kU = Code::kUnschedulable;
constexpr Code kUU = Code::kUnschedulableAndUnresolvable;

// fit_test.go TestEnoughRequests (DRA-backed cases in DraExtendedResources).
std::vector<FilterCase> EnoughRequestsCases() {
  NodeResourcesFitArgs ignore_b;
  ignore_b.ignored_resources = {kExtB};
  NodeResourcesFitArgs ignore_group;
  ignore_group.ignored_resource_groups = {"example.com"};
  return {
      {"no resources requested always fits", {{}}, {{10, 20}}},
      {"too many resources fails", {{{1, 1}}}, {{10, 20}}, kU, {kCPU, kMem}},
      {"too many resources fails due to init container cpu",
       {{{1, 1}}, {{3, 1}}}, {{8, 19}}, kU, {kCPU}},
      {"too many resources fails due to highest init container cpu",
       {{{1, 1}}, {{3, 1}, {2, 1}}}, {{8, 19}}, kU, {kCPU}},
      {"too many resources fails due to init container memory",
       {{{1, 1}}, {{1, 3}}}, {{9, 19}}, kU, {kMem}},
      {"too many resources fails due to highest init container memory",
       {{{1, 1}}, {{1, 3}, {1, 2}}}, {{9, 19}}, kU, {kMem}},
      {"init container fits because it's the max, not sum",
       {{{1, 1}}, {{1, 1}}}, {{9, 19}}},
      {"multiple init containers fit because it's the max, not sum",
       {{{1, 1}}, {{1, 1}, {1, 1}}}, {{9, 19}}},
      {"both resources fit", {{{1, 1}}}, {{5, 5}}},
      {"one resource memory fits", {{{2, 1}}}, {{9, 5}}, kU, {kCPU}},
      {"one resource cpu fits", {{{1, 2}}}, {{5, 19}}, kU, {kMem}},
      {"equal edge case", {{{5, 1}}}, {{5, 19}}},
      {"equal edge case for init container", {{{4, 1}}, {{5, 1}}}, {{5, 19}}},
      {"extended resource fits", {{{0, 0, {{kExtA, 1}}}}}, {{}}},
      {"extended resource fits for init container", {{{}}, {{0, 0, {{kExtA, 1}}}}}, {{}}},
      {"extended resource capacity enforced",
       {{{1, 1, {{kExtA, 10}}}}}, {{0, 0, {{kExtA, 0}}}}, kUU, {Insufficient(kExtA)}},
      {"extended resource capacity enforced for init container",
       {{{}}, {{1, 1, {{kExtA, 10}}}}}, {{0, 0, {{kExtA, 0}}}}, kUU, {Insufficient(kExtA)}},
      {"extended resource allocatable enforced",
       {{{1, 1, {{kExtA, 1}}}}}, {{0, 0, {{kExtA, 5}}}}, kU, {Insufficient(kExtA)}},
      {"extended resource allocatable enforced for init container",
       {{{}}, {{1, 1, {{kExtA, 1}}}}}, {{0, 0, {{kExtA, 5}}}}, kU, {Insufficient(kExtA)}},
      {"extended resource allocatable enforced for multiple containers",
       {{{1, 1, {{kExtA, 3}}}, {1, 1, {{kExtA, 3}}}}}, {{0, 0, {{kExtA, 2}}}}, kUU,
       {Insufficient(kExtA)}},
      {"extended resource allocatable admits multiple init containers",
       {{{}}, {{1, 1, {{kExtA, 3}}}, {1, 1, {{kExtA, 3}}}}}, {{0, 0, {{kExtA, 2}}}}},
      {"extended resource allocatable enforced for multiple init containers",
       {{{}}, {{1, 1, {{kExtA, 6}}}, {1, 1, {{kExtA, 3}}}}}, {{0, 0, {{kExtA, 2}}}}, kUU,
       {Insufficient(kExtA)}},
      {"extended resource allocatable enforced for unknown resource",
       {{{1, 1, {{kExtB, 1}}}}}, {{}}, kUU, {Insufficient(kExtB)}},
      {"extended resource allocatable enforced for unknown resource for init container",
       {{{}}, {{1, 1, {{kExtB, 1}}}}}, {{}}, kUU, {Insufficient(kExtB)}},
      {"kubernetes.io resource capacity enforced",
       {{{1, 1, {{kK8sIOA, 10}}}}}, {{}}, kUU, {Insufficient(kK8sIOA)}},
      {"kubernetes.io resource capacity enforced for init container",
       {{{}}, {{1, 1, {{kK8sIOB, 10}}}}}, {{}}, kUU, {Insufficient(kK8sIOB)}},
      {"hugepages resource capacity enforced",
       {{{1, 1, {{kHugePageA, 10}}}}}, {{0, 0, {{kHugePageA, 0}}}}, kUU,
       {Insufficient(kHugePageA)}},
      {"hugepages resource capacity enforced for init container",
       {{{}}, {{1, 1, {{kHugePageA, 10}}}}}, {{0, 0, {{kHugePageA, 0}}}}, kUU,
       {Insufficient(kHugePageA)}},
      {"hugepages resource allocatable enforced for multiple containers",
       {{{1, 1, {{kHugePageA, 3}}}, {1, 1, {{kHugePageA, 3}}}}}, {{0, 0, {{kHugePageA, 2}}}},
       kUU, {Insufficient(kHugePageA)}},
      {"skip checking ignored extended resource",
       {{{1, 1, {{kExtB, 1}}}}}, {{}}, Code::kSuccess, {}, ignore_b},
      {"resources + pod overhead fits",
       {{{1, 1}}, {}, std::nullopt, Usage{3, 13}}, {{5, 5}}},
      {"requests + overhead does not fit for memory",
       {{{1, 1}}, {}, std::nullopt, Usage{1, 15}}, {{5, 5}}, kU, {kMem}},
      {"skip checking ignored extended resource via resource groups",
       {{{1, 1, {{kExtB, 1}, {kK8sIOA, 1}}}}}, {{}}, kUU, {Insufficient(kK8sIOA)},
       ignore_group},
      {"skip checking extended resource request with quantity zero",
       {{{1, 1, {{kExtA, 0}}}}}, {{0, 0, {{kExtA, 6}}}}},
      {"skip checking resource request with quantity zero",
       {{{0, 0, {{kExtA, 1}}}}}, {{20, 30, {{kExtA, 1}}}}},
      {"both pod-level and container-level resources fit",
       {{{1, 1}}, {}, Usage{1, 2}}, {{5, 5}}},
      {"pod-level cpu resource not fit", {{{1, 1}}, {}, Usage{7, 2}}, {{5, 5}}, kU, {kCPU}},
      {"pod-level memory resource not fit", {{{1, 1}}, {}, Usage{3, 2}}, {{5, 19}}, kU, {kMem}},
      {"pod-level hugepages resource fit", {{}, {}, Usage{3, 2, {{kHugePageA, 5}}}}, {}},
      {"both pod-level and container-level hugepages resource fit",
       {{{1, 1, {{kHugePageA, 3}}}}, {}, Usage{3, 2, {{kHugePageA, 5}}}}, {}},
      {"pod-level hugepages resource not fit", {{}, {}, Usage{3, 2, {{kHugePageA, 10}}}}, {},
       kUU, {Insufficient(kHugePageA)}},
      {"one pod-level cpu resource fits and all init and non-init containers resources fit",
       {{{1, 1}}, {{1, 1}}, Usage{3, 2}}, {{5, 19}}, kU, {kMem}},
      {"extended resource backed by device plugin", {{{0, 0, {{kExtA, 1}}}}}, {{}}},
      {"extended resource with no DeviceClass and no allocatable",
       {{{1, 1, {{kNoDeviceClass, 1}}}}}, {{}}, kUU, {Insufficient(kNoDeviceClass)}},
      {"a request equal to allocatable is resolvable by preemption",
       {{{10, 1}}}, {{1, 1}}, kU, {kCPU}},
      {"several insufficient resources keep upstream's order",
       {{{11, 21, {{kExtA, 6}}, 21}}}, {{}}, kUU,
       {kCPU, kMem, kEph, Insufficient(kExtA)}},
  };
}

TEST(NodeResourcesFitTest, EnoughRequests) {
  for (const FilterCase& c : EnoughRequestsCases()) CheckFilter(c);
}

// fit_test.go TestEnoughRequests' DRA-backed cases (DRAExtendedResource):
// a class provides extended.resource.dra.io/something, so a node whose
// allocatable lacks it leaves it to DynamicResources; such a verdict
// depends on the classes, so the equivalence cache may not keep it.
TEST(NodeResourcesFitTest, DraExtendedResources) {
  struct DraCase {
    std::string name;
    Scalars request;
    Scalars node_extra;  // allocatable besides FilterNode's
    Code want_code;
    std::vector<std::string> want_reasons;
    bool node_local;
  };
  const std::string kImplicit = "deviceclass.resource.kubernetes.io/device-class-name";
  const std::vector<DraCase> cases = {
      {"extended resource backed by device plugin", {{kExtA, 1}}, {}, Code::kSuccess, {}, true},
      {"extended resource backed by DRA", {{kNoDeviceClass, 1}}, {}, Code::kSuccess, {}, false},
      {"implicit extended resource backed by DRA", {{kImplicit, 1}}, {}, Code::kSuccess, {}, false},
      {"extended resource NOT backed by DRA", {{kExtB, 1}}, {}, kUU, {Insufficient(kExtB)}, true},
      {"extended resource was backed by Device Plugin (Allocatable: 0)",
       {{kNoDeviceClass, 1}},
       {{kNoDeviceClass, 0}},
       Code::kSuccess,
       {},
       false},
      {"the node's device plugin provides it: checked as usual",
       {{kNoDeviceClass, 3}},
       {{kNoDeviceClass, 2}},
       kUU,
       {Insufficient(kNoDeviceClass)},
       false},
  };
  for (const DraCase& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cs;
    Interner& in = cs.interner();
    NodeBuilder node(in, "node");
    node.Capacity(10, 20, 32).Scalar(kExtA, 5).EphemeralStorage(20).Scalar(kHugePageA, 5);
    for (const auto& [name, v] : c.node_extra) node.Scalar(name, v);
    cs.UpsertNode(node.Build());
    auto cls = std::make_shared<DeviceClass>();
    cls->name = "device-class-name";
    cls->extended_resource_name = kNoDeviceClass;
    cs.UpsertDeviceClass(cls);
    const NodeResourcesFit p;
    auto pod = MakePod(in, "pod", {{{1, 1, c.request}}});
    CycleState state(1);
    PreFilterResult result;
    ASSERT_TRUE(p.PreFilter(state, *pod, cs, &result).IsSuccess());
    const Status s = p.Filter(state, *pod, *cs.FindNode("node"));
    EXPECT_EQ(CodeName(s.code()), CodeName(c.want_code));
    std::vector<std::string> reasons(s.reasons().begin(), s.reasons().end());
    EXPECT_EQ(reasons, c.want_reasons);
    PodSigner key;
    EXPECT_EQ(p.FilterIsNodeLocal(state, key), c.node_local);
  }

  // Scoring such a resource is refused (docs/dra.md).
  ClusterState cs;
  Interner& in = cs.interner();
  cs.UpsertNode(FilterNode(in));
  auto cls = std::make_shared<DeviceClass>();
  cls->name = "device-class-name";
  cls->extended_resource_name = kNoDeviceClass;
  cs.UpsertDeviceClass(cls);
  NodeResourcesFitArgs args;
  args.scoring_strategy.resources = {{"cpu", 1}, {kNoDeviceClass, 1}};
  const NodeResourcesFit p(args);
  auto pod = MakePod(in, "pod", {{{1, 1, {{kNoDeviceClass, 1}}}}});
  CycleState state(1);
  const Status s = p.PreScore(state, *pod, {}, cs);
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(), "scoring extended resource " + kNoDeviceClass +
                             " backed by DeviceClass device-class-name (DRAExtendedResource) is "
                             "not supported by libsched");
  auto plain = MakePod(in, "plain", {{{1, 1}}});
  EXPECT_TRUE(p.PreScore(state, *plain, {}, cs).IsSuccess());
}

// fit_test.go TestNotEnoughRequests: the node allows one pod and has one.
TEST(NodeResourcesFitTest, NotEnoughRequests) {
  const std::vector<FilterCase> cases = {
      {"even without specified resources, no space for an additional pod",
       {{}}, {{10, 20}}, kU, {"Too many pods"}},
      {"even if both resources fit, no space for an additional pod",
       {{{1, 1}}}, {{5, 5}}, kU, {"Too many pods"}},
      {"even for the equal edge case, no space for an additional pod",
       {{{5, 1}}}, {{5, 19}}, kU, {"Too many pods"}},
      {"even for the equal edge case with an init container, no space",
       {{{5, 1}}, {{5, 1}}}, {{5, 19}}, kU, {"Too many pods"}},
  };
  for (const FilterCase& c : cases) CheckFilter(c, /*node_pods=*/1);
}

// fit_test.go TestStorageRequests.
TEST(NodeResourcesFitTest, StorageRequests) {
  const std::vector<FilterCase> cases = {
      {"empty storage requested, and pod fits", {{{1, 1}}}, {{2, 10}}},
      {"ephemeral local storage request exceeds allocatable",
       {{{0, 0, {}, 25}}}, {{2, 2}}, kUU, {kEph}},
      {"ephemeral local storage is sufficient", {{{0, 0, {}, 5}}}, {{2, 2, {}, 10}}},
      {"pod fits", {{{0, 0, {}, 10}}}, {{2, 2}}},
      {"ephemeral local storage is insufficient", {{{0, 0, {}, 11}}}, {{2, 2, {}, 10}}, kU,
       {kEph}},
  };
  for (const FilterCase& c : cases) CheckFilter(c);
}

// fit_test.go TestRestartableInitContainers (SidecarContainers is GA).
TEST(NodeResourcesFitTest, RestartableInitContainers) {
  struct Case {
    std::string name;
    int64_t container_cpu;  // -1: no request
    std::optional<int64_t> sidecar_cpu;
    Code want;
  };
  const std::vector<Case> cases = {
      {"pod without restartable init containers", -1, std::nullopt, Code::kSuccess},
      {"pod with restartable init containers", -1, -1, Code::kSuccess},
      {"total requests do not exceed the node's allocatable", 1, 1, Code::kSuccess},
      {"total requests exceed the node's allocatable", 1, 2, kUU},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ClusterState cs;
    Interner& in = cs.interner();
    cs.UpsertNode(NodeBuilder(in, "node").Capacity(2, 0, 1).Build());
    PodBuilder b(in, "pod");
    b.Container(c.container_cpu, -1);
    if (c.sidecar_cpu) b.InitContainer(*c.sidecar_cpu, -1, /*sidecar=*/true);
    auto pod = b.Build();
    NodeResourcesFit p;
    std::vector<std::string> reasons;
    Status s = RunFilter(p, cs, *pod, &reasons);
    EXPECT_EQ(CodeName(s.code()), CodeName(c.want));
    if (c.want != Code::kSuccess) {
      EXPECT_EQ(reasons, std::vector<std::string>{kCPU});
    }
  }
}

// fit_test.go TestPreFilterDisabled.
TEST(NodeResourcesFitTest, FilterWithoutPreFilterIsAnError) {
  ClusterState cs;
  cs.UpsertNode(NodeBuilder(cs.interner(), "node").Build());
  auto pod = PodBuilder(cs.interner(), "pod").Build();
  NodeResourcesFit p;
  CycleState state(1);
  EXPECT_EQ(p.Filter(state, *pod, *cs.FindNode("node")).code(), Code::kError);
}

TEST(NodeResourcesFitTest, ReasonsLiveInTheCycleState) {
  ClusterState cs;
  Interner& in = cs.interner();
  cs.UpsertNode(FilterNode(in));
  auto pod = MakePod(in, "pod", {{{0, 0, {{kExtB, 1}}}}});
  NodeResourcesFit p;
  CycleState state(1);
  PreFilterResult result;
  ASSERT_TRUE(p.PreFilter(state, *pod, cs, &result).IsSuccess());
  const Status a = p.Filter(state, *pod, *cs.FindNode("node"));
  const Status b = p.Filter(state, *pod, *cs.FindNode("node"));
  ASSERT_EQ(a.reasons().size(), 1u);
  EXPECT_EQ(a.reasons()[0], "Insufficient example.com/bbb");
  // Every node's status shares the one string built in PreFilter.
  EXPECT_EQ(a.reasons()[0].data(), b.reasons()[0].data());
}

// Regression (found by the differential test, kube-scheduler/difftest):
// PreScore replaced the PreFilter data in the plugin's one CycleState slot,
// freeing the "Insufficient <extended resource>" strings the cycle's Filter
// statuses point at, so the result printed garbage reasons.
TEST(NodeResourcesFitTest, ReasonsOutlivePreScore) {
  ClusterState cs;
  Interner& in = cs.interner();
  cs.UpsertNode(FilterNode(in));
  auto pod = MakePod(in, "pod", {{{0, 0, {{kExtB, 1}}}}});
  NodeResourcesFit p;
  CycleState state(1);
  PreFilterResult result;
  ASSERT_TRUE(p.PreFilter(state, *pod, cs, &result).IsSuccess());
  const Status before = p.Filter(state, *pod, *cs.FindNode("node"));
  ASSERT_EQ(before.reasons().size(), 1u);
  const std::string_view reason = before.reasons()[0];
  ASSERT_TRUE(p.PreScore(state, *pod, cs.NodeList(), cs).IsSuccess());
  EXPECT_EQ(reason, "Insufficient example.com/bbb");
  const Status after = p.Filter(state, *pod, *cs.FindNode("node"));
  ASSERT_EQ(after.reasons().size(), 1u);
  EXPECT_EQ(after.reasons()[0].data(), reason.data());  // the same string, still alive
  int64_t score = -1;
  EXPECT_TRUE(p.Score(state, *pod, *cs.FindNode("node"), &score).IsSuccess());
}

// Regression (found by kube-scheduler/difftest): upstream's Fit score ignores
// pod-level requests (fit.go leaves the scorer's enablePodLevelResources
// unset); the engine scored with them (31 here).
TEST(NodeResourcesFitTest, ScoreIgnoresPodLevelRequests) {
  ClusterState cs;
  Interner& in = cs.interner();
  cs.UpsertNode(NodeBuilder(in, "node").Capacity(7000, int64_t{7680} << 20).Build());
  // Containers: 2100m cpu, 0 memory; pod level: 3 cpu, 7Gi memory.
  auto pod = MakePod(in, "pod", {{{2100, 0}}, {}, Usage{3000, int64_t{7} << 30}});
  NodeResourcesFit p;
  CycleState state(1);
  ASSERT_TRUE(p.PreScore(state, *pod, cs.NodeList(), cs).IsSuccess());
  int64_t score = -1;
  ASSERT_TRUE(p.Score(state, *pod, *cs.FindNode("node"), &score).IsSuccess());
  // cpu (7000-2100)*100/7000 = 70, memory 100: (70+100)/2.
  EXPECT_EQ(score, 85);
}

// Each extension point still needs its own Pre* step to have run.
TEST(NodeResourcesFitTest, ScoreWithoutPreScoreIsAnError) {
  ClusterState cs;
  cs.UpsertNode(NodeBuilder(cs.interner(), "node").Build());
  auto pod = PodBuilder(cs.interner(), "pod").Build();
  NodeResourcesFit p;
  CycleState state(1);
  PreFilterResult result;
  ASSERT_TRUE(p.PreFilter(state, *pod, cs, &result).IsSuccess());
  int64_t score = -1;
  EXPECT_EQ(p.Score(state, *pod, *cs.FindNode("node"), &score).code(), Code::kError);
}

TEST(NodeResourcesFitTest, Name) { EXPECT_EQ(NodeResourcesFit().Name(), "NodeResourcesFit"); }

// ----------------------------------------------------------------- Score

constexpr int64_t kCores = 1000;  // milli-CPU per core ("cpu": "4000" is 4000 cores)

struct Req {  // one container; -1 leaves cpu / memory out
  int64_t cpu = -1;
  int64_t mem = -1;
  Scalars scalar = {};
};

struct ScoreNode {
  std::string name;
  int64_t cpu = 0;
  int64_t mem = 0;
  Scalars scalar = {};
};

struct ExistingPod {
  std::string node;  // empty: not bound, so not counted
  std::vector<Req> containers;
  std::vector<Req> sidecars = {};
};

struct ScoreCase {
  std::string name;
  std::vector<Req> pod;
  std::vector<ScoreNode> nodes;
  std::vector<ExistingPod> existing;
  std::vector<int64_t> want;
  ScoringStrategy strategy = {};
  Code want_code = Code::kSuccess;
};

std::shared_ptr<const Pod> ReqPod(Interner& in, const std::string& name,
                                  const std::vector<Req>& containers,
                                  const std::vector<Req>& sidecars = {},
                                  const std::string& node = "") {
  PodBuilder b(in, name);
  b.NodeName(node);
  for (const Req& r : containers) b.Container(r.cpu, r.mem, r.scalar);
  for (const Req& r : sidecars) b.InitContainer(r.cpu, r.mem, /*sidecar=*/true);
  return b.Build();
}

void CheckScore(const ScoreCase& c) {
  SCOPED_TRACE(c.name);
  NodeResourcesFitArgs args;
  args.scoring_strategy = c.strategy;
  const FieldErrors errs = NodeResourcesFit::ValidateArgs(args);
  ASSERT_TRUE(errs.empty()) << errs[0].field << ": " << errs[0].detail;
  const NodeResourcesFit p(args);
  ClusterState cs;
  Interner& in = cs.interner();
  for (const ScoreNode& n : c.nodes) {
    NodeBuilder b(in, n.name);
    b.Capacity(n.cpu, n.mem, 110);
    for (const auto& [k, v] : n.scalar) b.Scalar(k, v);
    cs.UpsertNode(b.Build());
  }
  for (size_t i = 0; i < c.existing.size(); ++i) {
    const ExistingPod& e = c.existing[i];
    cs.UpsertPod(ReqPod(in, "existing" + std::to_string(i), e.containers, e.sidecars, e.node));
  }
  auto pod = ReqPod(in, "pod", c.pod);
  CycleState state(1);
  ASSERT_TRUE(p.PreScore(state, *pod, cs.NodeList(), cs).IsSuccess());
  std::vector<int64_t> got;
  for (const ScoreNode& n : c.nodes) {
    int64_t score = -1;
    Status s = p.Score(state, *pod, *cs.FindNode(n.name), &score);
    EXPECT_EQ(CodeName(s.code()), CodeName(c.want_code));
    got.push_back(score);
  }
  EXPECT_EQ(got, c.want);
}

ScoringStrategy Strategy(ScoringStrategyType type, std::vector<ResourceSpec> resources,
                         std::vector<UtilizationShapePoint> shape = {}) {
  ScoringStrategy s{type, std::move(resources), std::nullopt};
  if (type == ScoringStrategyType::kRequestedToCapacityRatio) {
    s.requested_to_capacity_ratio = RequestedToCapacityRatioParam{std::move(shape)};
  }
  return s;
}
const std::vector<ResourceSpec> kDefaultResources = {{"cpu", 1}, {"memory", 1}};
const std::string kExtRes = "abc.com/xyz";
const std::vector<ResourceSpec> kExtendedResourceSet = {{"cpu", 1}, {"memory", 1}, {kExtRes, 1}};
constexpr auto kLeast = ScoringStrategyType::kLeastAllocated;
constexpr auto kMost = ScoringStrategyType::kMostAllocated;
constexpr auto kRatio = ScoringStrategyType::kRequestedToCapacityRatio;

ScoreNode N(const std::string& name, int64_t cores, int64_t mem, Scalars scalar = {}) {
  return {name, cores * kCores, mem, std::move(scalar)};
}
Req C(int64_t cores, int64_t mem, Scalars scalar = {}) {
  return {cores * kCores, mem, std::move(scalar)};
}

// fit_test.go TestFitScore (DRA-backed cases aside).
TEST(NodeResourcesFitTest, FitScore) {
  const std::vector<ScoreNode> nodes = {N("node1", 4000, 10000), N("node2", 6000, 10000)};
  const std::vector<ExistingPod> existing = {{"node1", {C(2000, 4000)}},
                                             {"node2", {C(1000, 2000)}}};
  const std::vector<ScoreCase> cases = {
      {"RequestedToCapacityRatio case1", {C(3000, 5000)}, nodes, existing, {10, 32},
       Strategy(kRatio, kDefaultResources, {{0, 10}, {100, 0}})},
      {"RequestedToCapacityRatio case2", {C(3000, 5000)}, nodes, existing, {95, 68},
       Strategy(kRatio, kDefaultResources, {{0, 0}, {100, 10}})},
      {"MostAllocated", {C(1000, 2000)}, nodes, existing, {67, 36},
       Strategy(kMost, kDefaultResources)},
      {"LeastAllocated", {C(1000, 2000)}, nodes, existing, {32, 63},
       Strategy(kLeast, kDefaultResources)},
      {"MostAllocated with sidecar container",
       {C(1000, 2000)},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)},
       {{"node1", {C(1000, 2000)}, {C(1000, 2000)}}, {"node2", {C(1000, 2000)}}},
       {67, 45},
       Strategy(kMost, kDefaultResources)},
      {"LeastAllocated with sidecar container",
       {C(1000, 2000)},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)},
       {{"node1", {C(1000, 2000)}, {C(1000, 2000)}}, {"node2", {C(1000, 2000)}}},
       {32, 55},
       Strategy(kLeast, kDefaultResources)},
  };
  for (const ScoreCase& c : cases) CheckScore(c);
}

// least_allocated_test.go TestLeastAllocatedScoringStrategy.
TEST(NodeResourcesFitTest, LeastAllocated) {
  const auto two = {C(1000, 2000), C(2000, 3000)};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", {},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)}, {}, {100, 100},
       Strategy(kLeast, kDefaultResources)},
      {"nothing scheduled, resources requested, differently sized nodes", two,
       {N("node1", 4000, 10000), N("node2", 6000, 10000)}, {}, {37, 50},
       Strategy(kLeast, kDefaultResources)},
      {"resources not set: error", two, {N("node1", 4000, 10000), N("node2", 6000, 10000)},
       {}, {0, 0}, Strategy(kLeast, {}), Code::kError},
      {"no resources requested, pods scheduled", {},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)},
       {{"node1", {}}, {"node1", {}}, {"node2", {}}, {"node2", {}}}, {100, 100},
       Strategy(kLeast, kDefaultResources)},
      {"no resources requested, pods scheduled with resources", {},
       {N("node1", 10000, 20000), N("node2", 10000, 20000)},
       {{"node1", {C(3000, 0)}}, {"node1", {C(3000, 0)}}, {"node2", {C(3000, 0)}},
        {"node2", {C(3000, 5000)}}},
       {70, 57}, Strategy(kLeast, kDefaultResources)},
      {"resources requested, pods scheduled with resources", two,
       {N("node1", 10000, 20000), N("node2", 10000, 20000)},
       {{"node1", {C(3000, 0)}}, {"node2", {C(3000, 5000)}}}, {57, 45},
       Strategy(kLeast, kDefaultResources)},
      {"resources requested, pods scheduled with resources, differently sized nodes", two,
       {N("node1", 10000, 20000), N("node2", 10000, 50000)},
       {{"node1", {C(3000, 0)}}, {"node2", {C(3000, 5000)}}}, {57, 60},
       Strategy(kLeast, kDefaultResources)},
      {"requested resources exceed node capacity", {C(3000, 0)},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)},
       {{"node1", {C(3000, 0)}}, {"node2", {C(3000, 5000)}}}, {50, 25},
       Strategy(kLeast, kDefaultResources)},
      {"zero node resources, pods scheduled with resources", {},
       {N("node1", 0, 0), N("node2", 0, 0)},
       {{"node1", {C(3000, 0)}}, {"node2", {C(3000, 5000)}}}, {0, 0},
       Strategy(kLeast, kDefaultResources)},
      {"different weights on cpu and memory, differently sized nodes", two,
       {N("node1", 4000, 10000), N("node2", 6000, 10000)}, {}, {41, 50},
       Strategy(kLeast, {{"memory", 2}, {"cpu", 1}})},
      {"bypass extended resource if the pod does not request", two,
       {N("node1", 6000, 10000), N("node2", 6000, 10000, {{kExtRes, 4}})}, {}, {50, 50},
       Strategy(kLeast, kExtendedResourceSet)},
      {"honor extended resource if the pod requests", {C(3000, 5000, {{kExtRes, 2}})},
       {N("node1", 6000, 10000, {{kExtRes, 4}}), N("node2", 6000, 10000, {{kExtRes, 10}})},
       {}, {50, 60}, Strategy(kLeast, kExtendedResourceSet)},
      {"if the node doesn't have a resource", {C(3000, 4000)},
       {N("node1", 6000, 10000), N("node2", 6000, 10000, {{kExtRes, 4}})}, {}, {55, 55},
       Strategy(kLeast, {{kExtRes, 2}, {"cpu", 1}, {"memory", 1}})},
      {"requestless containers count 100m / 200MiB", {Req{}},
       {{"node1", 250, 1000 * 1024 * 1024}, {"node2", 250, 1000 * 1024 * 1024}},
       {{"node1", {Req{}}}, {"node1", {Req{}}}}, {20, 70},
       Strategy(kLeast, kDefaultResources)},
  };
  for (const ScoreCase& c : cases) CheckScore(c);
}

// most_allocated_test.go TestMostAllocatedScoringStrategy.
TEST(NodeResourcesFitTest, MostAllocated) {
  const auto two = {C(1000, 2000), C(2000, 3000)};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", {},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)}, {}, {0, 0},
       Strategy(kMost, kDefaultResources)},
      {"nothing scheduled, resources requested, differently sized nodes", two,
       {N("node1", 4000, 10000), N("node2", 6000, 10000)}, {}, {62, 50},
       Strategy(kMost, kDefaultResources)},
      {"resources not set: error", two, {N("node1", 4000, 10000), N("node2", 6000, 10000)},
       {}, {0, 0}, Strategy(kMost, {}), Code::kError},
      {"no resources requested, pods scheduled with resources", {},
       {N("node1", 10000, 20000), N("node2", 10000, 20000)},
       {{"node1", {C(3000, 0)}}, {"node1", {C(3000, 0)}}, {"node2", {C(3000, 0)}},
        {"node2", {C(3000, 5000)}}},
       {30, 42}, Strategy(kMost, kDefaultResources)},
      {"resources requested, pods scheduled with resources", two,
       {N("node1", 10000, 20000), N("node2", 10000, 20000)},
       {{"node1", {C(3000, 0)}}, {"node2", {C(3000, 5000)}}}, {42, 55},
       Strategy(kMost, kDefaultResources)},
      {"resources requested equal node capacity", {C(2000, 4000), C(3000, 5000)},
       {N("node1", 5000, 10000), N("node2", 10000, 9000)}, {}, {95, 75},
       Strategy(kMost, kDefaultResources)},
      {"different weights on cpu and memory", two,
       {N("node1", 4000, 10000), N("node2", 6000, 10000)}, {}, {58, 50},
       Strategy(kMost, {{"memory", 2}, {"cpu", 1}})},
      {"no resources requested, pods scheduled, nonzero request for resource", {Req{}},
       {{"node1", 250, 1000 * 1024 * 1024}, {"node2", 250, 1000 * 1024 * 1024}},
       {{"node1", {Req{}}}, {"node1", {Req{}}}}, {80, 30},
       Strategy(kMost, kDefaultResources)},
      {"bypass extended resource if the pod does not request", two,
       {N("node1", 6000, 10000), N("node2", 6000, 10000, {{kExtRes, 4}})}, {}, {50, 50},
       Strategy(kMost, kExtendedResourceSet)},
      {"honor extended resource if the pod requests", {C(3000, 5000, {{kExtRes, 2}})},
       {N("node1", 6000, 10000, {{kExtRes, 4}}), N("node2", 6000, 10000, {{kExtRes, 10}})},
       {}, {50, 40}, Strategy(kMost, kExtendedResourceSet)},
      {"if the node doesn't have a resource", {C(3000, 4000)},
       {N("node1", 6000, 10000), N("node2", 6000, 10000, {{kExtRes, 4}})}, {}, {45, 45},
       Strategy(kMost, {{kExtRes, 2}, {"cpu", 1}, {"memory", 1}})},
  };
  for (const ScoreCase& c : cases) CheckScore(c);
}

// requested_to_capacity_ratio_test.go.
TEST(NodeResourcesFitTest, RequestedToCapacityRatio) {
  const std::vector<UtilizationShapePoint> shape = {{0, 10}, {100, 0}};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", {},
       {N("node1", 4000, 10000), N("node2", 4000, 10000)}, {{"node1", {}}, {"node1", {}}},
       {100, 100}, Strategy(kRatio, kDefaultResources, shape)},
      {"nothing scheduled, resources requested, differently sized nodes",
       {C(1000, 2000), C(2000, 3000)}, {N("node1", 4000, 10000), N("node2", 6000, 10000)},
       {{"node1", {}}, {"node1", {}}}, {38, 50}, Strategy(kRatio, kDefaultResources, shape)},
      {"no resources requested, pods scheduled with resources", {},
       {N("node1", 4000, 10000), N("node2", 6000, 10000)},
       {{"node1", {C(3000, 5000)}}, {"node2", {C(3000, 5000)}}}, {38, 50},
       Strategy(kRatio, kDefaultResources, shape)},
  };
  for (const ScoreCase& c : cases) CheckScore(c);
}

// requested_to_capacity_ratio_test.go TestResourceBinPackingSingleExtended.
TEST(NodeResourcesFitTest, BinPackingSingleExtended) {
  const int64_t mem = 10000LL * 1024 * 1024;
  const std::vector<ScoreNode> nodes = {{"node1", 4000, mem, {{"intel.com/foo", 8}}},
                                        {"node2", 4000, mem, {{"intel.com/foo", 4}}}};
  const ScoringStrategy strategy =
      Strategy(kRatio, {{"intel.com/foo", 1}}, {{0, 0}, {100, 1}});
  const Req foo2{-1, -1, {{"intel.com/foo", 2}}};
  const Req foo4{-1, -1, {{"intel.com/foo", 4}}};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", {}, nodes, {}, {0, 0}, strategy},
      {"resources requested, pods scheduled with less resources", {foo2}, nodes, {{"", {}}},
       {2, 5}, strategy},
      {"resources requested, on node with existing pod running", {foo2}, nodes,
       {{"node2", {foo2}}}, {2, 10}, strategy},
      {"resources requested, pods scheduled with more resources", {foo4}, nodes, {{"", {}}},
       {5, 10}, strategy},
  };
  for (const ScoreCase& c : cases) CheckScore(c);
}

// requested_to_capacity_ratio_test.go TestResourceBinPackingMultipleExtended.
TEST(NodeResourcesFitTest, BinPackingMultipleExtended) {
  const int64_t mem = 10000LL * 1024 * 1024;
  const std::vector<ScoreNode> nodes = {
      {"node1", 4000, mem, {{"intel.com/foo", 8}, {"intel.com/bar", 4}}},
      {"node2", 4000, mem, {{"intel.com/foo", 4}, {"intel.com/bar", 8}}}};
  const ScoringStrategy strategy =
      Strategy(kRatio, {{"intel.com/foo", 3}, {"intel.com/bar", 5}}, {{0, 0}, {100, 1}});
  const Req pod1{-1, -1, {{"intel.com/foo", 2}, {"intel.com/bar", 2}}};
  const Req pod2{-1, -1, {{"intel.com/foo", 4}, {"intel.com/bar", 2}}};
  const std::vector<ScoreCase> cases = {
      {"nothing scheduled, nothing requested", {}, nodes, {}, {0, 0}, strategy},
      {"resources requested, pods scheduled with less resources", {pod1}, nodes, {{"", {}}},
       {4, 3}, strategy},
      {"resources requested, on node with existing pod running", {pod1}, nodes,
       {{"node2", {pod2}}}, {4, 7}, strategy},
      {"resources requested, pods scheduled with more resources", {pod2}, nodes, {{"", {}}},
       {5, 5}, strategy},
  };
  for (const ScoreCase& c : cases) CheckScore(c);
}

// requested_to_capacity_ratio_test.go TestBrokenLinearFunction.
TEST(NodeResourcesFitTest, BrokenLinear) {
  struct Case {
    std::vector<UtilizationShapePoint> shape;
    std::vector<std::pair<int64_t, int64_t>> points;  // utilization, want
  };
  const std::vector<Case> cases = {
      {{{10, 1}, {90, 9}},
       {{-10, 1}, {0, 1}, {9, 1}, {10, 1}, {15, 1}, {19, 1}, {20, 2}, {89, 8}, {90, 9},
        {99, 9}, {100, 9}, {110, 9}}},
      {{{0, 2}, {40, 10}, {100, 0}},
       {{-10, 2}, {0, 2}, {20, 6}, {30, 8}, {40, 10}, {70, 5}, {100, 0}, {110, 0}}},
      {{{0, 2}, {40, 2}, {100, 2}},
       {{-10, 2}, {0, 2}, {20, 2}, {30, 2}, {40, 2}, {70, 2}, {100, 2}, {110, 2}}},
  };
  for (const Case& c : cases) {
    for (const auto& [u, want] : c.points) {
      EXPECT_EQ(BrokenLinear(c.shape, u), want) << "utilization " << u;
    }
  }
}

// validation_pluginargs_test.go TestValidateFitArgs,
// TestValidateLeastAllocatedScoringStrategy,
// TestValidateRequestedToCapacityRatioScoringStrategy: the fields of the
// errors, in order.
TEST(NodeResourcesFitTest, ArgsValidation) {
  struct Case {
    std::string name;
    std::function<void(NodeResourcesFitArgs&)> edit;
    std::vector<std::string> want_fields;
  };
  auto ratio = [](std::vector<UtilizationShapePoint> shape) {
    return [shape](NodeResourcesFitArgs& a) {
      a.scoring_strategy.type = kRatio;
      a.scoring_strategy.requested_to_capacity_ratio = RequestedToCapacityRatioParam{shape};
    };
  };
  const std::string kShape = "scoringStrategy.requestedToCapacityRatio.shape";
  const std::vector<Case> cases = {
      {"default config", [](NodeResourcesFitArgs&) {}, {}},
      {"multi valid resources",
       [](NodeResourcesFitArgs& a) { a.scoring_strategy.resources = {{"cpu", 1}, {"memory", 10}}; },
       {}},
      {"weight less than min",
       [](NodeResourcesFitArgs& a) { a.scoring_strategy.resources = {{"cpu", 0}}; },
       {"scoringStrategy.resources[0].weight"}},
      {"weight greater than max",
       [](NodeResourcesFitArgs& a) { a.scoring_strategy.resources = {{"cpu", 101}}; },
       {"scoringStrategy.resources[0].weight"}},
      {"multi invalid resources",
       [](NodeResourcesFitArgs& a) {
         a.scoring_strategy.type = kMost;
         a.scoring_strategy.resources = {{"cpu", 0}, {"memory", 101}};
       },
       {"scoringStrategy.resources[0].weight", "scoringStrategy.resources[1].weight"}},
      {"requestedToCapacityRatio field is missing",
       [](NodeResourcesFitArgs& a) { a.scoring_strategy.type = kRatio; },
       {"scoringStrategy.requestedToCapacityRatio"}},
      {"requestedToCapacityRatio with another type",
       [](NodeResourcesFitArgs& a) {
         a.scoring_strategy.requested_to_capacity_ratio = RequestedToCapacityRatioParam{};
       },
       {"scoringStrategy.requestedToCapacityRatio"}},
      {"no shapes", ratio({}), {kShape}},
      {"valid shapes", ratio({{30, 3}}), {}},
      {"utilization less than min", ratio({{-1, 3}, {10, 4}}), {kShape + "[0].utilization"}},
      {"utilization greater than max", ratio({{10, 3}, {101, 4}}), {kShape + "[1].utilization"}},
      {"utilization values in non-increasing order", ratio({{10, 3}, {10, 4}}),
       {kShape + "[1].utilization"}},
      {"score less than min", ratio({{10, -1}}), {kShape + "[0].score"}},
      {"score greater than max", ratio({{10, 11}}), {kShape + "[0].score"}},
      {"IgnoredResources: name is empty",
       [](NodeResourcesFitArgs& a) { a.ignored_resources = {"example.com/"}; },
       {"ignoredResources[0]"}},
      {"IgnoredResources: name has too many slash",
       [](NodeResourcesFitArgs& a) { a.ignored_resources = {"example.com/aaa/bbb"}; },
       {"ignoredResources[0]"}},
      {"IgnoredResources: too long value",
       [](NodeResourcesFitArgs& a) { a.ignored_resources = {"longvalue" + std::string(64, 'a')}; },
       {"ignoredResources[0]"}},
      {"IgnoredResources: valid args",
       [](NodeResourcesFitArgs& a) { a.ignored_resources = {"example.com"}; }, {}},
      {"IgnoredResourceGroups: valid args",
       [](NodeResourcesFitArgs& a) { a.ignored_resource_groups = {"example.com"}; }, {}},
      {"IgnoredResourceGroups: illegal args",
       [](NodeResourcesFitArgs& a) { a.ignored_resource_groups = {"example.com/"}; },
       {"ignoredResourceGroups[0]", "ignoredResourceGroups[0]"}},
      {"IgnoredResourceGroups: name is too long",
       [](NodeResourcesFitArgs& a) { a.ignored_resource_groups = {std::string(64, 'a')}; },
       {"ignoredResourceGroups[0]"}},
      {"IgnoredResourceGroups: name cannot be contain slash",
       [](NodeResourcesFitArgs& a) { a.ignored_resource_groups = {"example.com/aa"}; },
       {"ignoredResourceGroups[0]"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeResourcesFitArgs args;
    c.edit(args);
    std::vector<std::string> fields;
    for (const FieldError& e : NodeResourcesFit::ValidateArgs(args)) fields.push_back(e.field);
    EXPECT_EQ(fields, c.want_fields);
  }
}

}  // namespace
}  // namespace node_resources_fit_test
}  // namespace sched
