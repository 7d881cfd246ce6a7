// ClusterEvent matching and change extraction; cases from
// pkg/scheduler/framework/{types_test,events_test}.go.
#include "libsched/framework/cluster_event.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "libsched/testing/builders.h"

namespace sched {
namespace cluster_event_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

TEST(ClusterEvent, Matches) {
  struct Case {
    const char* name;
    ClusterEvent registered;
    ClusterEvent incoming;
    bool want;
  };
  const std::vector<Case> cases = {
      {"wildcard registration", {EventResource::kWildCard, action::kAll, {}},
       {EventResource::kNode, action::kAdd, {}}, true},
      {"wildcard resource, same action", {EventResource::kWildCard, action::kAdd, {}},
       {EventResource::kPod, action::kAdd, {}}, true},
      {"general update matches a specific one", {EventResource::kNode, action::kUpdate, {}},
       {EventResource::kNode, action::kUpdateNodeLabel, {}}, true},
      {"specific update does not match the general one",
       {EventResource::kNode, action::kUpdateNodeLabel, {}},
       {EventResource::kNode, action::kUpdate, {}}, false},
      {"pod matches assigned pod", {EventResource::kPod, action::kAdd, {}},
       {EventResource::kAssignedPod, action::kAdd, {}}, true},
      {"pod matches unschedulable pod", {EventResource::kPod, action::kAll, {}},
       {EventResource::kUnschedulablePod, action::kUpdatePodLabel, {}}, true},
      {"other resource", {EventResource::kNode, action::kAdd, {}},
       {EventResource::kPod, action::kAdd, {}}, false},
      {"other action", {EventResource::kNode, action::kAdd | action::kUpdateNodeTaint, {}},
       {EventResource::kNode, action::kDelete, {}}, false},
      {"one of several actions", {EventResource::kNode, action::kAdd | action::kUpdateNodeTaint, {}},
       {EventResource::kNode, action::kUpdateNodeTaint, {}}, true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.registered.Matches(c.incoming), c.want) << c.name;
  }
}

TEST(ClusterEvent, Label) {
  EXPECT_EQ(events::kNodeAdd.Label(), "NodeAdd");
  EXPECT_EQ((ClusterEvent{EventResource::kUnschedulablePod, action::kUpdatePodLabel, {}}.Label()),
            "UnschedulablePodUpdatePodLabel");
  EXPECT_EQ((ClusterEvent{EventResource::kStorageClass, action::kUpdate, {}}.Label()),
            "storage.k8s.io/StorageClassUpdate");
  EXPECT_EQ(events::kUnschedulableTimeout.Label(), "UnschedulableTimeout");
  EXPECT_EQ(ActionTypeName(action::kAdd | action::kDelete), "");
}

// The labels come from a table built once: each must be the resource's
// name joined with the action's, for every resource and every action,
// named or not, and stay put (callers keep the view).
TEST(ClusterEvent, LabelOfEveryResourceAndAction) {
  std::vector<ActionType> actions = {action::kNone, action::kUpdate, action::kAll,
                                     action::kAdd | action::kDelete,
                                     action::kUpdateNodeLabel | action::kUpdateNodeTaint};
  for (int bit = 0; bit < 13; ++bit) actions.push_back(1u << bit);
  for (int r = 0; r <= static_cast<int>(EventResource::kDeviceClass); ++r) {
    for (ActionType a : actions) {
      const ClusterEvent e{static_cast<EventResource>(r), a, {}};
      const std::string want =
          std::string(EventResourceName(e.resource)) + std::string(ActionTypeName(a));
      EXPECT_EQ(e.Label(), want) << r << " " << a;
      EXPECT_EQ(e.Label().data(), e.Label().data()) << r << " " << a;
    }
  }
}

std::vector<ActionType> Actions(const std::vector<ClusterEvent>& events) {
  std::vector<ActionType> out;
  for (const ClusterEvent& e : events) out.push_back(e.action);
  return out;
}

// TestNodeSchedulingPropertiesChange.
TEST(ClusterEvent, NodeSchedulingPropertiesChange) {
  Interner in;
  auto base = [&] { return NodeBuilder(in, "n").Label("a", "1").Capacity(1000, 1000); };
  struct Case {
    const char* name;
    std::shared_ptr<const Node> old_node, new_node;
    std::vector<ActionType> want;
  };
  const std::vector<Case> cases = {
      {"no change", base().Build(), base().Build(), {}},
      {"unschedulable turned off", base().Unschedulable().Build(), base().Build(),
       {action::kUpdateNodeTaint}},
      {"unschedulable turned on", base().Build(), base().Unschedulable().Build(), {}},
      {"allocatable", base().Build(), NodeBuilder(in, "n").Label("a", "1").Capacity(2000, 1000).Build(),
       {action::kUpdateNodeAllocatable}},
      {"labels", base().Build(), base().Label("b", "2").Build(), {action::kUpdateNodeLabel}},
      {"taints", base().Build(), base().Taint("k", "v", TaintEffect::kNoSchedule).Build(),
       {action::kUpdateNodeTaint}},
      {"labels and taints", base().Build(),
       base().Label("b", "2").Taint("k", "v", TaintEffect::kNoSchedule).Build(),
       {action::kUpdateNodeLabel, action::kUpdateNodeTaint}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Actions(NodeSchedulingPropertiesChange(*c.new_node, *c.old_node)), c.want) << c.name;
  }
}

// TestPodSchedulingPropertiesChange.
TEST(ClusterEvent, PodSchedulingPropertiesChange) {
  Interner in;
  auto base = [&] { return PodBuilder(in, "p").Label("a", "1").Container(500, 1000); };
  Pod gated = *base().Build();
  gated.scheduling_gates = {"g"};
  struct Case {
    const char* name;
    Pod old_pod, new_pod;
    std::vector<ActionType> want;
  };
  const std::vector<Case> cases = {
      {"nothing specific", *base().Build(), *base().Priority(3).Build(), {action::kUpdate}},
      {"labels", *base().Build(), *base().Label("b", "2").Build(), {action::kUpdatePodLabel}},
      {"scale down", *base().Build(), *PodBuilder(in, "p").Label("a", "1").Container(400, 1000).Build(),
       {action::kUpdatePodScaleDown}},
      {"scale up", *base().Build(), *PodBuilder(in, "p").Label("a", "1").Container(600, 1000).Build(),
       {action::kUpdate}},
      {"gates eliminated", gated, *base().Build(), {action::kUpdatePodSchedulingGatesEliminated}},
      {"toleration added", *base().Build(),
       *base().Toleration("k", TolerationOp::kExists, "", TaintEffect::kNoSchedule).Build(),
       {action::kUpdatePodToleration}},
      {"labels and toleration", *base().Build(),
       *base().Label("b", "2").Toleration("k", TolerationOp::kExists, "", TaintEffect::kNone).Build(),
       {action::kUpdatePodLabel, action::kUpdatePodToleration}},
  };
  for (const Case& c : cases) {
    const auto got = PodSchedulingPropertiesChange(c.new_pod, c.old_pod);
    EXPECT_EQ(Actions(got), c.want) << c.name;
    for (const ClusterEvent& e : got) EXPECT_EQ(e.resource, EventResource::kUnschedulablePod);
  }
  Pod bound = *base().NodeName("n").Build();
  EXPECT_EQ(PodSchedulingPropertiesChange(bound, bound)[0].resource, EventResource::kAssignedPod);
}

}  // namespace
}  // namespace cluster_event_test
}  // namespace sched
