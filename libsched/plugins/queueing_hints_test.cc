// The plugins' EventsToRegister and queueing hints, with cases from each
// upstream plugin's isSchedulableAfter* tests.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/plugins/node_affinity.h"
#include "libsched/plugins/node_name.h"
#include "libsched/plugins/node_ports.h"
#include "libsched/plugins/node_resources_fit.h"
#include "libsched/plugins/node_unschedulable.h"
#include "libsched/plugins/scheduling_gates.h"
#include "libsched/plugins/taint_toleration.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;
using testing::Req;
using testing::Term;

constexpr QueueingHint kQueue = QueueingHint::kQueue;
constexpr QueueingHint kSkip = QueueingHint::kQueueSkip;

struct HintCase {
  std::string name;
  ClusterEvent event;
  std::shared_ptr<const Pod> pod;
  EventObject old_obj;
  EventObject new_obj;
  QueueingHint want;
};

// Runs each case through the hint of the registration matching its event
// (no hint: Queue); a case whose event the plugin did not register fails.
void RunHints(const EnqueueExtensions& pl, const Interner& in, const std::vector<HintCase>& cases) {
  const std::vector<ClusterEventWithHint> regs = pl.EventsToRegister(in);
  for (const HintCase& c : cases) {
    SCOPED_TRACE(c.name);
    const ClusterEventWithHint* reg = nullptr;
    for (const ClusterEventWithHint& r : regs) {
      if (r.event.Matches(c.event)) reg = &r;
    }
    ASSERT_NE(reg, nullptr) << "event not registered";
    const QueueingHint got = reg->hint ? reg->hint(*c.pod, c.old_obj, c.new_obj) : kQueue;
    EXPECT_EQ(got, c.want);
  }
}

constexpr ClusterEvent kNodeAdd = events::kNodeAdd;
constexpr ClusterEvent kNodeTaint{EventResource::kNode, action::kUpdateNodeTaint, {}};
constexpr ClusterEvent kNodeLabel{EventResource::kNode, action::kUpdateNodeLabel, {}};
constexpr ClusterEvent kNodeAllocatable{EventResource::kNode, action::kUpdateNodeAllocatable, {}};
constexpr ClusterEvent kPodDelete = events::kAssignedPodDelete;
constexpr ClusterEvent kPodToleration{EventResource::kUnschedulablePod,
                                      action::kUpdatePodToleration, {}};
constexpr ClusterEvent kPodScaleDown{EventResource::kAssignedPod, action::kUpdatePodScaleDown, {}};

bool Registers(const EnqueueExtensions& pl, const Interner& in, const ClusterEvent& e) {
  for (const ClusterEventWithHint& r : pl.EventsToRegister(in)) {
    if (r.event.Matches(e)) return true;
  }
  return false;
}

TEST(QueueingHints, Registrations) {
  Interner in;
  EXPECT_TRUE(Registers(NodeName(), in, kNodeAdd));
  EXPECT_FALSE(Registers(NodeName(), in, kNodeLabel));
  EXPECT_FALSE(Registers(NodeAffinity(), in, kNodeTaint));
  EXPECT_TRUE(Registers(NodePorts(), in, kPodDelete));
  EXPECT_FALSE(Registers(NodePorts(), in, kPodScaleDown));
  EXPECT_TRUE(Registers(NodeResourcesFit(), in, kPodScaleDown));
  EXPECT_FALSE(Registers(NodeResourcesFit(), in, kNodeTaint));
  EXPECT_FALSE(Registers(TaintToleration(), in, kNodeLabel));
}

// nodeunschedulable TestIsSchedulableAfterNodeChange /
// TestIsSchedulableAfterPodTolerationChange.
TEST(QueueingHints, NodeUnschedulable) {
  Interner in;
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
  RunHints(NodeUnschedulable(), in,
           {
               {"schedulable node added", kNodeAdd, pod, {}, sched, kQueue},
               {"unschedulable node added", kNodeAdd, pod, {}, unsched, kSkip},
               {"became schedulable", kNodeTaint, pod, unsched, sched, kQueue},
               {"stayed unschedulable", kNodeTaint, pod, unsched, unsched, kSkip},
               {"stayed schedulable", kNodeTaint, pod, sched, sched, kSkip},
               {"pod now tolerates", kPodToleration, pod, pod, tolerating, kQueue},
               {"pod still does not tolerate", kPodToleration, pod, pod,
                PodBuilder(in, "p").Toleration("k", TolerationOp::kExists, "", TaintEffect::kNone)
                    .Build(),
                kSkip},
               {"another pod", kPodToleration, pod, other, other, kSkip},
           });
}

TEST(QueueingHints, TaintToleration) {
  Interner in;
  auto pod = PodBuilder(in, "p").Toleration("k", TolerationOp::kEqual, "v",
                                            TaintEffect::kNoSchedule).Build();
  auto clean = NodeBuilder(in, "n").Build();
  auto tolerated = NodeBuilder(in, "n").Taint("k", "v", TaintEffect::kNoSchedule).Build();
  auto untolerated = NodeBuilder(in, "n").Taint("x", "v", TaintEffect::kNoSchedule).Build();
  auto prefer = NodeBuilder(in, "n").Taint("x", "v", TaintEffect::kPreferNoSchedule).Build();
  RunHints(TaintToleration(), in,
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
  Interner in;
  auto pod = PodBuilder(in, "p").NodeSelector("foo", "bar").Build();
  auto affinity = PodBuilder(in, "p")
                      .RequiredTerm(Term({Req(in, "zone", SelectorOp::kIn, {"a"})}))
                      .Build();
  auto match = NodeBuilder(in, "n").Label("foo", "bar").Label("zone", "a").Build();
  auto no_match = NodeBuilder(in, "n").Label("foo", "baz").Build();
  RunHints(NodeAffinity(), in,
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
  Interner in;
  auto pod = PodBuilder(in, "p").NodeSelector("foo", "bar").Build();
  NodeAffinityArgs args;
  args.added_required = NodeSelector{{Term({Req(in, "foo", SelectorOp::kIn, {"bar"})})}};
  RunHints(NodeAffinity(args), in,
           {
               {"skip-queue-on-add-scheduler-enforced-node-affinity", kNodeAdd, pod, {},
                NodeBuilder(in, "n").Build(), kSkip},
               {"queue-on-add-scheduler-enforced-node-affinity", kNodeAdd, pod, {},
                NodeBuilder(in, "n").Label("foo", "bar").Build(), kQueue},
           });
}

// nodeports Test_isSchedulableAfterPodDeleted.
TEST(QueueingHints, NodePorts) {
  Interner in;
  auto pod = PodBuilder(in, "p").HostPort(8080).Build();
  auto bound_same = PodBuilder(in, "b").NodeName("n").HostPort(8080).Build();
  auto bound_other = PodBuilder(in, "b").NodeName("n").HostPort(9090).Build();
  auto unbound_same = PodBuilder(in, "b").HostPort(8080).Build();
  Pod nominated = *unbound_same;
  nominated.nominated_node_name = "n";
  RunHints(NodePorts(), in,
           {
               {"bound pod with the port", kPodDelete, pod, bound_same, {}, kQueue},
               {"bound pod with other ports", kPodDelete, pod, bound_other, {}, kSkip},
               {"pod held no port anywhere", kPodDelete, pod, unbound_same, {}, kSkip},
               {"nominated pod with the port", kPodDelete, pod,
                std::make_shared<const Pod>(nominated), {}, kQueue},
               {"node added", kNodeAdd, pod, {}, NodeBuilder(in, "n").Build(), kQueue},
           });
}

// noderesources Test_isSchedulableAfterPodChange / Test_isSchedulableAfterNodeChange.
TEST(QueueingHints, NodeResourcesFit) {
  Interner in;
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
  RunHints(NodeResourcesFit(), in,
           {
               {"queue-on-other-pod-deleted", kPodDelete, pod, pod2(1000, -1, "fake"), {}, kQueue},
               {"skip-queue-on-unscheduled-pod-deleted", kPodDelete, pod, pod2(1000, -1, ""), {},
                kSkip},
               {"queue-on-nominated-pod-deleted", kPodDelete, pod,
                std::make_shared<const Pod>(nominated), {}, kQueue},
               {"skip-queue-on-other-unscheduled-pod", kPodScaleDown, pod, pod2(2000, -1, ""),
                pod2(1000, -1, ""), kSkip},
               {"skip-queue-on-other-pod-unrelated-resource-scaled-down", kPodScaleDown, pod,
                pod2(-1, 2000, "fake"), pod2(-1, 1000, "fake"), kSkip},
               {"queue-on-other-pod-some-resource-scale-down", kPodScaleDown, pod,
                pod2(2000, -1, "fake"), pod2(1000, -1, "fake"), kQueue},
               {"queue-on-target-pod-some-resource-scale-down", kPodScaleDown, pod,
                PodBuilder(in, "pod1").Container(2000, -1).Build(), pod, kQueue},
               {"skip-queue-on-node-add-without-sufficient-resources", kNodeAdd, pod, {}, small,
                kSkip},
               {"skip-queue-on-node-add-without-required-resource-type", kNodeAdd, gpu_pod, {},
                big, kSkip},
               {"queue-on-node-add-with-sufficient-resources", kNodeAdd, pod, {}, big, kQueue},
               {"skip-queue-on-node-unrelated-changes", kNodeAllocatable, pod, big, big_more_mem,
                kSkip},
               {"queue-on-pod-requested-resources-increase", kNodeAllocatable, pod, big, bigger,
                kQueue},
               {"skip-queue-on-node-changes-from-suitable-to-unsuitable", kNodeAllocatable, pod,
                big, small, kSkip},
               {"queue-on-node-changes-from-unsuitable-to-suitable", kNodeAllocatable, pod, small,
                big, kQueue},
           });
}

// schedulinggates TestPreEnqueue / Test_isSchedulableAfterPodChange.
TEST(QueueingHints, SchedulingGates) {
  Interner in;
  Pod gated = *PodBuilder(in, "p").Build();
  EXPECT_TRUE(SchedulingGates().PreEnqueue(gated).IsSuccess());
  gated.scheduling_gates = {"foo", "bar"};
  const Status s = SchedulingGates().PreEnqueue(gated);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "waiting for scheduling gates: [foo bar]");

  auto pod = PodBuilder(in, "p").Build();
  const ClusterEvent eliminated{EventResource::kUnschedulablePod,
                                action::kUpdatePodSchedulingGatesEliminated, {}};
  RunHints(SchedulingGates(), in,
           {
               {"the pod itself", eliminated, pod, std::make_shared<const Pod>(gated), pod, kQueue},
               {"another pod", eliminated, pod, PodBuilder(in, "o").Build(),
                PodBuilder(in, "o").Build(), kSkip},
           });
}

}  // namespace
}  // namespace sched
