// The plugins' EventsToRegister and queueing hints, with cases from each
// upstream plugin's isSchedulableAfter* tests.
#include "libsched/testing/queueing_hints.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/node_affinity.h"
#include "libsched/plugins/node_name.h"
#include "libsched/plugins/node_ports.h"
#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/node_unschedulable.h"
#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/plugins/scheduling_gates.h"
#include "libsched/plugins/taint_toleration.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/pod_topology_spread_test_util.h"

namespace sched {
namespace queueing_hints_test {
namespace {

using testing::HintCase;
using testing::kQueue;
using testing::kSkip;
using testing::NodeBuilder;
using testing::PodBuilder;
using testing::PodTerm;
using testing::Req;
using testing::RunHints;
using testing::Term;

constexpr ClusterEvent kNodeAdd = events::kNodeAdd;
constexpr ClusterEvent kNodeTaint{EventResource::kNode, action::kUpdateNodeTaint, {}};
constexpr ClusterEvent kNodeLabel{EventResource::kNode, action::kUpdateNodeLabel, {}};
constexpr ClusterEvent kNodeAllocatable{EventResource::kNode, action::kUpdateNodeAllocatable, {}};
constexpr ClusterEvent kNodeDelete = events::kNodeDelete;
constexpr ClusterEvent kPodAdd = events::kAssignedPodAdd;
constexpr ClusterEvent kPodLabel{EventResource::kAssignedPod, action::kUpdatePodLabel, {}};
constexpr ClusterEvent kOwnLabel{EventResource::kUnschedulablePod, action::kUpdatePodLabel, {}};
constexpr ClusterEvent kPodDelete = events::kAssignedPodDelete;
constexpr ClusterEvent kPodToleration{
    EventResource::kUnschedulablePod, action::kUpdatePodToleration, {}};
constexpr ClusterEvent kPodScaleDown{EventResource::kAssignedPod, action::kUpdatePodScaleDown, {}};

bool Registers(const EnqueueExtensions& pl, const ClusterState& cluster, const ClusterEvent& e) {
  for (const ClusterEventWithHint& r : pl.EventsToRegister(cluster)) {
    if (r.event.Matches(e)) return true;
  }
  return false;
}

TEST(QueueingHints, Registrations) {
  ClusterState cluster;
  EXPECT_TRUE(Registers(NodeName(), cluster, kNodeAdd));
  EXPECT_FALSE(Registers(NodeName(), cluster, kNodeLabel));
  EXPECT_FALSE(Registers(NodeAffinity(), cluster, kNodeTaint));
  EXPECT_TRUE(Registers(NodePorts(), cluster, kPodDelete));
  EXPECT_FALSE(Registers(NodePorts(), cluster, kPodScaleDown));
  EXPECT_TRUE(Registers(NodeResourcesFit(), cluster, kPodScaleDown));
  EXPECT_FALSE(Registers(NodeResourcesFit(), cluster, kNodeTaint));
  EXPECT_FALSE(Registers(TaintToleration(), cluster, kNodeLabel));
}

// nodeunschedulable TestIsSchedulableAfterNodeChange /
// TestIsSchedulableAfterPodTolerationChange.
TEST(QueueingHints, NodeUnschedulable) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "p").Build();
  auto sched = NodeBuilder(in, "n").Build();
  auto unsched = NodeBuilder(in, "n").Unschedulable().Build();
  auto tolerating = PodBuilder(in, "p")
                        .Toleration("node.kubernetes.io/unschedulable", TolerationOp::kExists, "",
                                    TaintEffect::kNoSchedule)
                        .Build();
  auto other = PodBuilder(in, "other")
                   .Toleration("node.kubernetes.io/unschedulable", TolerationOp::kExists, "",
                               TaintEffect::kNoSchedule)
                   .Build();
  RunHints(NodeUnschedulable(), cluster,
           {
               {"schedulable node added", kNodeAdd, pod, {}, sched, kQueue},
               {"unschedulable node added", kNodeAdd, pod, {}, unsched, kSkip},
               {"became schedulable", kNodeTaint, pod, unsched, sched, kQueue},
               {"stayed unschedulable", kNodeTaint, pod, unsched, unsched, kSkip},
               {"stayed schedulable", kNodeTaint, pod, sched, sched, kSkip},
               {"pod now tolerates", kPodToleration, pod, pod, tolerating, kQueue},
               {"pod still does not tolerate", kPodToleration, pod, pod,
                PodBuilder(in, "p")
                    .Toleration("k", TolerationOp::kExists, "", TaintEffect::kNone)
                    .Build(),
                kSkip},
               {"another pod", kPodToleration, pod, other, other, kSkip},
           });
}

TEST(QueueingHints, TaintToleration) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "p")
                 .Toleration("k", TolerationOp::kEqual, "v", TaintEffect::kNoSchedule)
                 .Build();
  auto clean = NodeBuilder(in, "n").Build();
  auto tolerated = NodeBuilder(in, "n").Taint("k", "v", TaintEffect::kNoSchedule).Build();
  auto untolerated = NodeBuilder(in, "n").Taint("x", "v", TaintEffect::kNoSchedule).Build();
  auto prefer = NodeBuilder(in, "n").Taint("x", "v", TaintEffect::kPreferNoSchedule).Build();
  RunHints(TaintToleration(), cluster,
           {
               {"node added with tolerated taint", kNodeAdd, pod, {}, tolerated, kQueue},
               {"node added with untolerated taint", kNodeAdd, pod, {}, untolerated, kSkip},
               {"PreferNoSchedule does not block", kNodeAdd, pod, {}, prefer, kQueue},
               {"taint removed", kNodeTaint, pod, untolerated, clean, kQueue},
               {"was already tolerated", kNodeTaint, pod, tolerated, clean, kSkip},
               {"still untolerated", kNodeTaint, pod, untolerated, untolerated, kSkip},
               {"own toleration added", kPodToleration, pod, pod, pod, kQueue},
               {"another pod's toleration", kPodToleration, pod, PodBuilder(in, "o").Build(),
                PodBuilder(in, "o").Build(), kSkip},
           });
}

// nodeaffinity Test_isSchedulableAfterNodeChange.
TEST(QueueingHints, NodeAffinity) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "p").NodeSelector("foo", "bar").Build();
  auto affinity =
      PodBuilder(in, "p").RequiredTerm(Term({Req(in, "zone", SelectorOp::kIn, {"a"})})).Build();
  auto match = NodeBuilder(in, "n").Label("foo", "bar").Label("zone", "a").Build();
  auto no_match = NodeBuilder(in, "n").Label("foo", "baz").Build();
  RunHints(NodeAffinity(), cluster,
           {
               {"added node matches", kNodeAdd, pod, {}, match, kQueue},
               {"added node does not match", kNodeAdd, pod, {}, no_match, kSkip},
               {"labels now match", kNodeLabel, pod, no_match, match, kQueue},
               {"labels matched before", kNodeLabel, pod, match, match, kSkip},
               {"labels still do not match", kNodeLabel, pod, no_match, no_match, kSkip},
               {"required affinity now matches", kNodeLabel, affinity, no_match, match, kQueue},
           });
}

// nodeaffinity Test_isSchedulableAfterNodeChange, the scheduler-enforced
// (addedAffinity) cases.
TEST(QueueingHints, NodeAffinityAddedAffinity) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "p").NodeSelector("foo", "bar").Build();
  NodeAffinityArgs args;
  args.added_required = NodeSelector{{Term({Req(in, "foo", SelectorOp::kIn, {"bar"})})}};
  RunHints(NodeAffinity(args), cluster,
           {
               {"skip-queue-on-add-scheduler-enforced-node-affinity",
                kNodeAdd,
                pod,
                {},
                NodeBuilder(in, "n").Build(),
                kSkip},
               {"queue-on-add-scheduler-enforced-node-affinity",
                kNodeAdd,
                pod,
                {},
                NodeBuilder(in, "n").Label("foo", "bar").Build(),
                kQueue},
           });
}

// nodeports Test_isSchedulableAfterPodDeleted.
TEST(QueueingHints, NodePorts) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "p").HostPort(8080).Build();
  auto bound_same = PodBuilder(in, "b").NodeName("n").HostPort(8080).Build();
  auto bound_other = PodBuilder(in, "b").NodeName("n").HostPort(9090).Build();
  auto unbound_same = PodBuilder(in, "b").HostPort(8080).Build();
  Pod nominated = *unbound_same;
  nominated.nominated_node_name = "n";
  RunHints(NodePorts(), cluster,
           {
               {"bound pod with the port", kPodDelete, pod, bound_same, {}, kQueue},
               {"bound pod with other ports", kPodDelete, pod, bound_other, {}, kSkip},
               {"pod held no port anywhere", kPodDelete, pod, unbound_same, {}, kSkip},
               {"nominated pod with the port",
                kPodDelete,
                pod,
                std::make_shared<const Pod>(nominated),
                {},
                kQueue},
               {"node added", kNodeAdd, pod, {}, NodeBuilder(in, "n").Build(), kQueue},
           });
}

// noderesources Test_isSchedulableAfterPodChange / Test_isSchedulableAfterNodeChange.
TEST(QueueingHints, NodeResourcesFit) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto pod = PodBuilder(in, "pod1").Container(1000, -1).Build();
  auto gpu_pod = PodBuilder(in, "pod1").Container(1000, -1, {{"example.com/gpu", 1}}).Build();
  auto pod2 = [&](int64_t cpu, int64_t mem, const std::string& node) {
    auto b = PodBuilder(in, "pod2").Container(cpu, mem);
    if (!node.empty()) b.NodeName(node);
    return b.Build();
  };
  Pod nominated = *pod2(2000, -1, "");
  nominated.nominated_node_name = "fake";
  auto small = NodeBuilder(in, "n").Capacity(500, 1000).Build();
  auto big = NodeBuilder(in, "n").Capacity(2000, 1000).Build();
  auto big_more_mem = NodeBuilder(in, "n").Capacity(2000, 2000).Build();
  auto bigger = NodeBuilder(in, "n").Capacity(3000, 1000).Build();
  RunHints(
      NodeResourcesFit(), cluster,
      {
          {"queue-on-other-pod-deleted", kPodDelete, pod, pod2(1000, -1, "fake"), {}, kQueue},
          {"skip-queue-on-unscheduled-pod-deleted", kPodDelete, pod, pod2(1000, -1, ""), {}, kSkip},
          {"queue-on-nominated-pod-deleted",
           kPodDelete,
           pod,
           std::make_shared<const Pod>(nominated),
           {},
           kQueue},
          {"skip-queue-on-other-unscheduled-pod", kPodScaleDown, pod, pod2(2000, -1, ""),
           pod2(1000, -1, ""), kSkip},
          {"skip-queue-on-other-pod-unrelated-resource-scaled-down", kPodScaleDown, pod,
           pod2(-1, 2000, "fake"), pod2(-1, 1000, "fake"), kSkip},
          {"queue-on-other-pod-some-resource-scale-down", kPodScaleDown, pod,
           pod2(2000, -1, "fake"), pod2(1000, -1, "fake"), kQueue},
          {"queue-on-target-pod-some-resource-scale-down", kPodScaleDown, pod,
           PodBuilder(in, "pod1").Container(2000, -1).Build(), pod, kQueue},
          {"skip-queue-on-node-add-without-sufficient-resources", kNodeAdd, pod, {}, small, kSkip},
          {"skip-queue-on-node-add-without-required-resource-type",
           kNodeAdd,
           gpu_pod,
           {},
           big,
           kSkip},
          {"queue-on-node-add-with-sufficient-resources", kNodeAdd, pod, {}, big, kQueue},
          {"skip-queue-on-node-unrelated-changes", kNodeAllocatable, pod, big, big_more_mem, kSkip},
          {"queue-on-pod-requested-resources-increase", kNodeAllocatable, pod, big, bigger, kQueue},
          {"skip-queue-on-node-changes-from-suitable-to-unsuitable", kNodeAllocatable, pod, big,
           small, kSkip},
          {"queue-on-node-changes-from-unsuitable-to-suitable", kNodeAllocatable, pod, small, big,
           kQueue},
      });
}

// DRAExtendedResource: fit_test.go Test_isSchedulableAfterDeviceClassChange,
// and a node without the resource that a class provides.
TEST(QueueingHints, NodeResourcesFitDeviceClass) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  const ClusterEvent class_add{EventResource::kDeviceClass, action::kAdd, {}};
  const ClusterEvent class_update{EventResource::kDeviceClass, action::kUpdate, {}};
  auto cls = [](const std::string& name, const std::string& resource) {
    auto c = std::make_shared<DeviceClass>();
    c->name = name;
    c->extended_resource_name = resource;
    return std::shared_ptr<const DeviceClass>(std::move(c));
  };
  auto plain = PodBuilder(in, "p").Container(-1, 2).Build();
  auto implicit =
      PodBuilder(in, "p").Container(-1, -1, {{"deviceclass.resource.kubernetes.io/gpuclass", 1}}).Build();
  auto other = PodBuilder(in, "p").Container(-1, -1, {{"example.com/othergpu", 1}}).Build();
  auto gpu = PodBuilder(in, "p").Container(1000, -1, {{"example.com/gpu", 1}}).Build();
  const NodeResourcesFit fit;
  RunHints(fit, cluster,
           {
               {"skip-queue-on-class-nil-extended-resource-name", class_update, plain, cls("", ""),
                cls("", ""), kSkip},
               {"skip-queue-on-class-same-extended-resource-name", class_update, plain,
                cls("", "example.com/gpu"), cls("", "example.com/gpu"), kSkip},
               {"queue-on-class-add-with-implicit-extended-resource-name", class_add, implicit, {},
                cls("gpuclass", "example.com/gpu"), kQueue},
               {"skip-on-class-add-with-implicit-extended-resource-name-not-matching", class_add,
                implicit, {}, cls("myclass", "example.com/gpu"), kSkip},
               {"skip-on-class-add-with-explicit-extended-resource-name-not-matching", class_add,
                other, {}, cls("myclass", "example.com/gpu"), kSkip},
               {"skip-on-class-update-with-implicit-extended-resource-name", class_update,
                implicit, cls("gpuclass", ""), cls("gpuclass", "example.com/gpu"), kSkip},
               {"queue-on-class-add-with-extended-resource-name", class_add, gpu, {},
                cls("", "example.com/gpu"), kQueue},
               {"queue-on-class-update-with-extended-resource-name", class_update, gpu,
                cls("", ""), cls("", "example.com/gpu"), kQueue},
           });
  // A node without example.com/gpu fits the pod once a class provides it.
  auto big = NodeBuilder(in, "n").Capacity(2000, 1000).Build();
  auto bigger = NodeBuilder(in, "n").Capacity(3000, 1000).Build();
  RunHints(fit, cluster, {{"node without the resource", kNodeAdd, gpu, {}, big, kSkip}});
  cluster.UpsertDeviceClass(cls("gpu-class", "example.com/gpu"));
  RunHints(fit, cluster,
           {
               {"node without the resource, DRA provides it", kNodeAdd, gpu, {}, big, kQueue},
               {"node update leaves it to DRA", kNodeAllocatable, gpu, big, big, kQueue},
               {"no increase without the request", kNodeAllocatable, plain, big, bigger, kSkip},
           });
}

// schedulinggates TestPreEnqueue / Test_isSchedulableAfterPodChange.
TEST(QueueingHints, SchedulingGates) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  Pod gated = *PodBuilder(in, "p").Build();
  EXPECT_TRUE(SchedulingGates().PreEnqueue(gated, ClusterState()).IsSuccess());
  gated.scheduling_gates = {"foo", "bar"};
  const Status s = SchedulingGates().PreEnqueue(gated, ClusterState());
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "waiting for scheduling gates: [foo bar]");

  auto pod = PodBuilder(in, "p").Build();
  const ClusterEvent eliminated{
      EventResource::kUnschedulablePod, action::kUpdatePodSchedulingGatesEliminated, {}};
  RunHints(SchedulingGates(), cluster,
           {
               {"the pod itself", eliminated, pod, std::make_shared<const Pod>(gated), pod, kQueue},
               {"another pod", eliminated, pod, PodBuilder(in, "o").Build(),
                PodBuilder(in, "o").Build(), kSkip},
           });
}

// A copy of `p` nominated to `node` (status.nominatedNodeName).
std::shared_ptr<const Pod> Nominated(const std::shared_ptr<const Pod>& p, const std::string& node) {
  Pod out = *p;
  out.nominated_node_name = node;
  return std::make_shared<const Pod>(std::move(out));
}

// interpodaffinity Test_isSchedulableAfterPodChange.
TEST(QueueingHints, InterPodAffinityPodChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto in_term = [&](const std::string& key) {
    return PodTerm(in, key, {Req(in, "service", SelectorOp::kIn, {"securityscan", "value2"})});
  };
  auto affinity = PodBuilder(in, "p").Uid("p").RequiredPodAffinity(in_term("region")).Build();
  auto anti = PodBuilder(in, "p").Uid("p").RequiredPodAntiAffinity(in_term("region")).Build();
  auto two_terms =
      PodBuilder(in, "p")
          .Uid("p")
          .RequiredPodAffinity(PodTerm(in, "hostname", {Req(in, "aaa", SelectorOp::kExists)}))
          .RequiredPodAffinity(PodTerm(in, "hostname", {Req(in, "bbb", SelectorOp::kExists)}))
          .Build();
  auto other = [&](std::vector<std::pair<std::string, std::string>> labels, bool bound = true) {
    PodBuilder b(in, "other");
    b.Uid("other");
    if (bound) b.NodeName("fake-node");
    for (const auto& [k, v] : labels) b.Label(k, v);
    return b.Build();
  };
  auto unnamed = [&](std::vector<std::pair<std::string, std::string>> labels) {
    PodBuilder b(in, "");
    for (const auto& [k, v] : labels) b.Label(k, v);
    return b;
  };
  auto anti_bound =
      unnamed({}).NodeName("fake-node").RequiredPodAntiAffinity(in_term("region")).Build();
  RunHints(
      InterPodAffinity(), cluster,
      {
          {"add a pod which matches the pod affinity",
           kPodAdd,
           affinity,
           {},
           other({{"service", "securityscan"}}),
           kQueue},
          {"add an un-scheduled pod",
           kPodAdd,
           affinity,
           {},
           other({{"service", "securityscan"}}, false),
           kSkip},
          {"add a pod which doesn't match the pod affinity",
           kPodAdd,
           affinity,
           {},
           other({{"aaa", "a"}}),
           kSkip},
          {"update a pod from non-match to match pod affinity", kPodLabel, affinity,
           other({{"aaa", "a"}}), other({{"service", "securityscan"}}), kQueue},
          {"the updating pod matches target pod's affinity both before and after label changes",
           kPodLabel, affinity, other({{"service", "value2"}}),
           other({{"service", "securityscan"}}), kSkip},
          {"update an un-scheduled pod", kPodLabel, affinity, other({{"aaa", "a"}}, false),
           other({{"service", "securityscan"}}, false), kSkip},
          {"update a pod from match to non-match the pod affinity", kPodLabel, affinity,
           other({{"service", "securityscan"}}), other({{"aaa", "a"}}), kSkip},
          {"update a pod from match to non-match pod's affinity - multiple terms case", kPodLabel,
           two_terms, other({{"aaa", "a"}}), other({{"service", "securityscan"}}), kSkip},
          {"update a pod from non-match to match pod's affinity - multiple terms case", kPodLabel,
           two_terms, other({{"aaa", "a"}}), other({{"aaa", ""}, {"bbb", ""}}), kQueue},
          {"updated pod is the target pod", kOwnLabel,
           PodBuilder(in, "p").Uid("p").Label("foo", "baz").Build(),
           PodBuilder(in, "p").Uid("p").Label("foo", "bar").Build(),
           PodBuilder(in, "p").Uid("p").Label("foo", "baz").Build(), kQueue},
          {"modify pod label to change it from satisfying pod anti-affinity to not satisfying "
           "anti-affinity",
           kPodLabel, anti, other({{"service", "securityscan"}}), other({{"service", "aaaa"}}),
           kQueue},
          {"modify pod label to change it from not satisfying pod anti-affinity to satisfying "
           "anti-affinity",
           kPodLabel, anti, other({{"service", "bbb"}}), other({{"service", "securityscan"}}),
           kSkip},
          {"delete a pod which doesn't match pod's anti-affinity",
           kPodDelete,
           anti,
           other({{"aaa", "a"}}),
           {},
           kSkip},
          {"delete a pod which matches pod's anti-affinity",
           kPodDelete,
           anti,
           other({{"service", "securityscan"}}),
           {},
           kQueue},
          {"delete a pod with anti-affinity that matches pending pod",
           kPodDelete,
           PodBuilder(in, "p").Label("service", "securityscan").Build(),
           anti_bound,
           {},
           kQueue},
          {"delete a pod with anti-affinity that doesn't match pending pod",
           kPodDelete,
           PodBuilder(in, "p").Label("service", "foo").Build(),
           anti_bound,
           {},
           kSkip},
          {"delete a pod which doesn't match pending pod's anti-affinity and has "
           "anti-affinity that doesn't match pending pod",
           kPodDelete,
           PodBuilder(in, "p")
               .RequiredPodAntiAffinity(in_term("region"))
               .Label("service", "foo")
               .Build(),
           unnamed({{"service", "foo"}})
               .NodeName("fake-node")
               .RequiredPodAntiAffinity(in_term("region"))
               .Build(),
           {},
           kSkip},
          {"delete a nominated pod which doesn't match pod's anti-affinity",
           kPodDelete,
           anti,
           Nominated(unnamed({{"aaa", "a"}}).Build(), "fake-node"),
           {},
           kSkip},
          {"delete a nominated pod which matches pod's anti-affinity",
           kPodDelete,
           anti,
           Nominated(unnamed({{"service", "securityscan"}}).Build(), "fake-node"),
           {},
           kQueue},
      });
}

// interpodaffinity Test_isSchedulableAfterNodeChange.
TEST(QueueingHints, InterPodAffinityNodeChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  auto affinity = [&](const std::string& key) {
    return PodBuilder(in, "p")
        .RequiredPodAffinity(
            PodTerm(in, key, {Req(in, "service", SelectorOp::kIn, {"securityscan", "value2"})}))
        .Build();
  };
  auto anti = PodBuilder(in, "p")
                  .RequiredPodAntiAffinity(
                      PodTerm(in, "zone", {Req(in, "another", SelectorOp::kIn, {"label"})}))
                  .Build();
  auto node = [&](std::vector<std::pair<std::string, std::string>> labels) {
    NodeBuilder b(in, "node-a");
    for (const auto& [k, v] : labels) b.Label(k, v);
    return b.Build();
  };
  RunHints(InterPodAffinity(), cluster,
           {
               {"add a new node with matched pod affinity topologyKey",
                kNodeAdd,
                affinity("zone"),
                {},
                node({{"zone", "zone1"}}),
                kQueue},
               {"add a new node without matched topologyKey",
                kNodeAdd,
                affinity("region"),
                {},
                node({{"zone", "zone1"}}),
                kSkip},
               {"update node label but not topologyKey", kNodeLabel, affinity("zone"),
                node({{"aaa", "a"}}), node({{"aaa", "b"}}), kSkip},
               {"update node label that isn't related to the pod affinity", kNodeLabel,
                affinity("zone"), node({{"zone", "zone1"}}),
                node({{"zone", "zone1"}, {"unrelated-label", "unrelated"}}), kSkip},
               {"update node with different affinity topologyKey value", kNodeLabel,
                affinity("zone"), node({{"zone", "zone1"}}), node({{"zone", "zone2"}}), kQueue},
               {"update node to have the affinity topology label", kNodeLabel, affinity("zone"),
                node({{"aaa", "a"}}), node({{"zone", "zone1"}}), kQueue},
               {"add a new node with matched pod anti-affinity topologyKey",
                kNodeAdd,
                anti,
                {},
                node({{"zone", "zone1"}}),
                kQueue},
               {"add a new node without matched pod anti-affinity topologyKey",
                kNodeAdd,
                anti,
                {},
                node({}),
                kQueue},
               {"update node label that isn't related to the pod anti-affinity", kNodeLabel, anti,
                node({{"zone", "zone1"}}),
                node({{"zone", "zone1"}, {"unrelated-label", "unrelated"}}), kSkip},
               {"update node with different anti-affinity topologyKey value", kNodeLabel, anti,
                node({{"zone", "zone1"}}), node({{"zone", "zone2"}}), kQueue},
               {"update node to have the anti-affinity topology label", kNodeLabel, anti,
                node({{"aaa", "a"}}), node({{"zone", "zone1"}}), kSkip},
               {"update node label not to have anti-affinity topology label", kNodeLabel, anti,
                node({{"zone", "zone1"}}), node({{"aaa", "a"}}), kQueue},
           });
  // With hints on, taint updates are not registered (the queue adds one
  // without a hint for Node/Add, see queueing_hint_map.h).
  EXPECT_FALSE(
      Registers(InterPodAffinity(), cluster, {EventResource::kNode, action::kUpdateNodeTaint, {}}));
  EXPECT_FALSE(Registers(InterPodAffinity(), cluster, kNodeDelete));
}

PodTopologySpreadArgs ListDefaulting() {
  PodTopologySpreadArgs a;
  a.system_defaulting = false;
  return a;
}

// podtopologyspread Test_isSchedulableAfterNodeChange (ListDefaulting,
// no default constraints; fooSelector is Exists(foo)).
TEST(QueueingHints, PodTopologySpreadNodeChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  using pts_test::C;
  auto zone = pts_test::MakePod(cluster, pts_test::PodSpec{"", {C{1, "zone", "foo"}}});
  auto zone_node =
      pts_test::MakePod(cluster, pts_test::PodSpec{"", {C{1, "zone", "foo"}, C{1, "node", "foo"}}});
  auto node = [&](const std::string& labels, const std::string& taint = "") {
    NodeBuilder b(in, "node-a");
    for (const auto& [k, v] : pts_test::ParseLabels(labels)) b.Label(k, v);
    if (!taint.empty()) b.Taint(taint, "bbb", TaintEffect::kNoSchedule);
    return b.Build();
  };
  RunHints(
      PodTopologySpread(ListDefaulting()), cluster,
      {
          {"node updates label which matches topologyKey", kNodeLabel, zone, node("zone=zone1"),
           node("zone=zone2"), kQueue},
          {"node that doesn't match topologySpreadConstraints updates non-related label",
           kNodeLabel, zone, node("foo=bar1"), node("foo=bar2"), kSkip},
          {"node that match topologySpreadConstraints adds non-related label", kNodeLabel,
           zone_node, node("zone=zone1,node=node1,foo=bar"), node("zone=zone1,node=node1"), kSkip},
          {"create node with non-related labels", kNodeAdd, zone, {}, node("foo=bar"), kSkip},
          {"create node with related labels", kNodeAdd, zone, {}, node("zone=zone1"), kQueue},
          {"delete node with non-related labels", kNodeDelete, zone, node("foo=bar"), {}, kSkip},
          {"delete node with related labels", kNodeDelete, zone, node("zone=zone1"), {}, kQueue},
          {"add node with related labels that only match one of topologySpreadConstraints",
           kNodeAdd,
           zone_node,
           {},
           node("zone=zone1"),
           kSkip},
          {"add node with related labels that match all topologySpreadConstraints",
           kNodeAdd,
           zone_node,
           {},
           node("zone=zone1,node=node1"),
           kQueue},
          {"update node with related labels that only match one of topologySpreadConstraints",
           kNodeLabel, zone_node, node("zone=zone1"), node("zone=zone1"), kSkip},
          {"update node with related labels that match all topologySpreadConstraints", kNodeLabel,
           zone_node, node("zone=zone1,node=node1"), node("zone=zone1,node=node2"), kQueue},
          {"update node with different taints that match all topologySpreadConstraints", kNodeTaint,
           zone_node, node("zone=zone1,node=node1", "aaa"), node("zone=zone1,node=node1", "ccc"),
           kQueue},
          {"update node with different taints that only match one of "
           "topologySpreadConstraints",
           kNodeTaint, zone_node, node("node=node1", "aaa"), node("node=node1", "ccc"), kSkip},
      });
}

// podtopologyspread Test_isSchedulableAfterPodChange (fooSelector and
// barSelector are Exists(foo) / Exists(bar)).
TEST(QueueingHints, PodTopologySpreadPodChange) {
  ClusterState cluster;
  Interner& in = cluster.interner();
  using pts_test::C;
  auto target = [&](std::vector<C> cs) {
    return pts_test::MakePod(
        cluster,
        pts_test::PodSpec{"foo", std::move(cs), [](Interner&, PodBuilder& b) { b.Uid("p"); }});
  };
  auto pod = target({C{1, "zone", "foo"}});
  auto multi = target({C{1, "zone", "foo"}, C{1, "node", "bar"}});
  auto honor = target(
      {C{1, "zone", "foo", true, 1, NodeInclusionPolicy::kHonor, NodeInclusionPolicy::kHonor},
       C{1, "node", "bar"}});
  auto ignore = target({C{1, "zone", "foo"}, C{1, "node", "bar"}});
  auto p2 = [&](const std::string& labels, const std::string& node = "fake-node",
                const std::string& ns = "default") {
    PodBuilder b(in, "p2", ns);
    b.Uid("p2");
    if (!node.empty()) b.NodeName(node);
    for (const auto& [k, v] : pts_test::ParseLabels(labels)) b.Label(k, v);
    return b.Build();
  };
  auto self = [&](const std::string& labels, bool tolerates = false) {
    PodBuilder b(in, "p");
    b.Uid("p");
    for (const auto& [k, v] : pts_test::ParseLabels(labels)) b.Label(k, v);
    if (tolerates) {
      b.Toleration("node.kubernetes.io/unschedulable", TolerationOp::kExists, "",
                   TaintEffect::kNoSchedule);
    }
    return b.Build();
  };
  const ClusterEvent own_toleration = kPodToleration;
  RunHints(PodTopologySpread(ListDefaulting()), cluster,
           {
               {"add pod with labels match topologySpreadConstraints selector",
                kPodAdd,
                pod,
                {},
                p2("foo"),
                kQueue},
               {"add un-scheduled pod", kPodAdd, pod, {}, p2("foo", ""), kSkip},
               {"update un-scheduled pod", kPodLabel, pod, p2("bar", ""), p2("foo", ""), kSkip},
               {"delete un-scheduled pod", kPodDelete, pod, p2("foo", ""), {}, kSkip},
               {"add pod with different namespace",
                kPodAdd,
                pod,
                {},
                p2("foo", "fake-node", "fake-namespace"),
                kSkip},
               {"add pod with labels don't match topologySpreadConstraints selector",
                kPodAdd,
                pod,
                {},
                p2("bar"),
                kSkip},
               {"delete pod with labels that match topologySpreadConstraints selector",
                kPodDelete,
                pod,
                p2("foo"),
                {},
                kQueue},
               {"delete nominated pod with labels that don't match topologySpreadConstraints "
                "selector",
                kPodDelete,
                pod,
                Nominated(p2("bar", ""), "fake-node"),
                {},
                kSkip},
               {"delete nominated pod with labels that match topologySpreadConstraints selector",
                kPodDelete,
                pod,
                Nominated(p2("foo", ""), "fake-node"),
                {},
                kQueue},
               {"delete pod with labels that don't match topologySpreadConstraints selector",
                kPodDelete,
                pod,
                p2("bar"),
                {},
                kSkip},
               {"update pod's non-related label", kPodLabel, pod, p2("foo,bar=bar1"),
                p2("foo,bar=bar2"), kSkip},
               {"add pod's label that matches topologySpreadConstraints selector", kPodLabel, pod,
                p2(""), p2("foo"), kQueue},
               {"delete pod label that matches topologySpreadConstraints selector", kPodLabel, pod,
                p2("foo"), p2(""), kQueue},
               {"change pod's label that matches topologySpreadConstraints selector", kPodLabel,
                pod, p2("foo=foo1"), p2("foo=foo2"), kSkip},
               {"change pod's label that doesn't match topologySpreadConstraints selector",
                kPodLabel, pod, p2("foo,bar=bar1"), p2("foo,bar=bar2"), kSkip},
               {"add pod's label that matches topologySpreadConstraints selector with multi "
                "topologySpreadConstraints",
                kPodLabel, multi, p2("foo"), p2("foo,bar=bar2"), kQueue},
               {"change pod's label that doesn't match topologySpreadConstraints selector with "
                "multi topologySpreadConstraints",
                kPodLabel, multi, p2("foo"), p2("foo,baz"), kSkip},
               {"change pod's label that match topologySpreadConstraints selector with multi "
                "topologySpreadConstraints",
                kPodLabel, multi, p2("foo,bar"), p2("foo,bar=bar2"), kSkip},
               {"the unschedulable Pod has topologySpreadConstraint with NodeTaintsPolicy:Honor "
                "and has got a new toleration",
                own_toleration, honor, self("foo"), self("foo", true), kQueue},
               {"the unschedulable Pod has topologySpreadConstraint without "
                "NodeTaintsPolicy:Honor and has got a new toleration",
                own_toleration, ignore, self("foo"), self("foo", true), kSkip},
               {"the unschedulable Pod has topologySpreadConstraint and has got a new label "
                "matching the selector of the constraint",
                kOwnLabel, ignore, self(""), self("foo"), kQueue},
               {"the unschedulable Pod has topologySpreadConstraint and has got a new unrelated "
                "label",
                kOwnLabel, ignore, self(""), self("unrelated"), kSkip},
           });
}

// Default constraints take their selector from the Services at the time of
// the event (buildDefaultConstraints reads the listers).
TEST(QueueingHints, PodTopologySpreadDefaultConstraintsReadTheCluster) {
  ClusterState cluster;
  PodTopologySpreadArgs args = ListDefaulting();
  args.default_constraints.push_back(
      {.max_skew = 1, .topology_key = "zone", .do_not_schedule = true});
  const PodTopologySpread pl(args);
  auto pod = pts_test::MakePod(cluster, pts_test::P{"p", "", "app=web"});
  auto peer = pts_test::MakePod(cluster, pts_test::P{"q", "n1", "app=web"});
  RunHints(pl, cluster, {{"no Service selects the pod", kPodAdd, pod, {}, peer, kSkip}});
  pts_test::AddService(cluster, "web", "app=web");
  RunHints(pl, cluster, {{"a Service selects both", kPodAdd, pod, {}, peer, kQueue}});
}

}  // namespace
}  // namespace queueing_hints_test
}  // namespace sched
