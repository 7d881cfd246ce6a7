// PriorityQueue: ordering, backoff timing, event-driven moves with hints,
// in-flight events, scheduling gates, the unschedulable timeout, and
// nominations. Cases follow pkg/scheduler/backend/queue/scheduling_queue_test.go.
#include "libsched/queue/scheduling_queue.h"

#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "libsched/framework/profile.h"
#include "libsched/plugins/registry.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace scheduling_queue_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;
using testing::NodeBuilder;
using testing::PodBuilder;

// A Filter plugin that registers the given events; it never rejects by
// itself: tests name it among a pod's unschedulable plugins.
class FakePlugin final : public FilterPlugin, public EnqueueExtensions {
 public:
  FakePlugin(std::string name, std::vector<ClusterEventWithHint> events)
      : name_(std::move(name)), events_(std::move(events)) {}
  std::string_view Name() const override { return name_; }
  Status Filter(const CycleState&, const Pod&, const NodeInfo&) const override {
    return Status();
  }
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState&) const override {
    return events_;
  }

 private:
  std::string name_;
  std::vector<ClusterEventWithHint> events_;
};

QueueingHint Queue(const Pod&, const EventObject&, const EventObject&) {
  return QueueingHint::kQueue;
}
QueueingHint Skip(const Pod&, const EventObject&, const EventObject&) {
  return QueueingHint::kQueueSkip;
}

constexpr ClusterEvent kNodeAdd = events::kNodeAdd;
constexpr ClusterEvent kNodeLabel{EventResource::kNode, action::kUpdateNodeLabel, {}};
constexpr ClusterEvent kPvAdd{EventResource::kPersistentVolume, action::kAdd, {}};

class QueueTest : public ::testing::Test {
 protected:
  QueueTest() : profile_("default-scheduler") {
    // fooPlugin: NodeAdd -> Queue; barPlugin: NodeAdd -> Skip,
    // UpdateNodeLabel -> Queue.
    profile_.Add(std::make_unique<FakePlugin>(
        "fooPlugin", std::vector<ClusterEventWithHint>{{kNodeAdd, Queue}}));
    profile_.Add(std::make_unique<FakePlugin>(
        "barPlugin", std::vector<ClusterEventWithHint>{{kNodeAdd, Skip}, {kNodeLabel, Queue}}));
    profile_.Add(std::make_unique<FakePlugin>(
        "pvPlugin", std::vector<ClusterEventWithHint>{{kPvAdd, nullptr}}));
    Build();
  }

  void Build(QueueOptions o = {}) {
    QueueingHintMapPerProfile m;
    m.emplace("default-scheduler", BuildProfileQueueingHints(profile_, cluster_));
    q_ = std::make_unique<PriorityQueue>(clock_, std::move(m), o);
  }

  std::shared_ptr<const Pod> P(const std::string& name, int32_t priority = 0) {
    return PodBuilder(in_, name).Priority(priority).Build();
  }
  std::shared_ptr<const Node> N(const std::string& name) { return NodeBuilder(in_, name).Build(); }

  // Pops `name` (must be the head) and hands it back rejected by `plugins`.
  void FailAttempt(const std::string& name, std::vector<std::string> plugins) {
    auto p = q_->Pop();
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(p->pod->name, name);
    p->unschedulable_plugins = {plugins.begin(), plugins.end()};
    ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
  }

  // The queue `name` is in ("" when unknown).
  std::string Where(const std::string& name) const {
    for (const QueuedPodView& v : q_->Snapshot()) {
      if (v.pod->name == name) return std::string(v.queue);
    }
    return "";
  }
  std::vector<std::string> PopAll() {
    std::vector<std::string> out;
    while (auto p = q_->Pop()) {
      out.push_back(p->pod->name);
      q_->Done(*p);
    }
    return out;
  }

  FakeClock clock_{seconds(1000)};
  ClusterState cluster_;
  Interner& in_ = cluster_.interner();
  Profile profile_;
  std::unique_ptr<PriorityQueue> q_;
};

// Everything Snapshot shows of each pod, for comparing a queue with itself.
std::vector<std::string> Fields(const PriorityQueue& q) {
  std::vector<std::string> out;
  for (const QueuedPodView& v : q.Snapshot()) {
    std::string s = v.pod->name + "@" + std::to_string(reinterpret_cast<uintptr_t>(v.pod.get())) +
                    " " + std::string(v.queue) + " attempts=" + std::to_string(v.attempts) +
                    " ts=" + std::to_string(v.timestamp.count()) + " backoff=" +
                    std::to_string(v.backoff_expiration.value_or(Time::min()).count()) +
                    " gate=" + v.gating_plugin + " nominated=" + v.nominated_node_name +
                    " plugins=";
    for (const std::string& p : v.unschedulable_plugins) s += p + ",";
    out.push_back(std::move(s));
  }
  return out;
}

// A rolled-back Batch puts back every field a pop and what follows it
// wrote (Pop and AddUnschedulableIfNotPresent record field by field).
TEST_F(QueueTest, RollbackRestoresEveryFieldOfAPoppedPod) {
  struct Case {
    const char* name;
    std::vector<std::string> plugins;  // the cycle's rejecting plugins
    bool nominate;                     // the cycle replaces p->pod (Engine::Nominate)
    bool fail;                         // else the pod is placed (Done)
  };
  const Case cases[] = {
      {"placed", {}, false, false},
      {"rejected by a plugin", {"fooPlugin"}, false, true},
      {"error", {}, false, true},
      {"nominated and rejected", {"barPlugin"}, true, true},
  };
  for (const Case& c : cases) {
    for (const bool second_attempt : {false, true}) {
      Build();
      q_->Add(P("p"));
      if (second_attempt) {  // counts, plugins and a backoff to restore
        FailAttempt("p", {"fooPlugin"});
        q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, {});
        clock_.Step(seconds(20));
        q_->FlushBackoffQCompleted();
      }
      clock_.Step(seconds(1));
      const std::vector<std::string> before = Fields(*q_);
      {
        PriorityQueue::Batch batch(*q_);
        auto p = q_->Pop();
        ASSERT_NE(p, nullptr) << c.name;
        if (c.nominate) {
          auto nominated = std::make_shared<Pod>(*p->pod);
          nominated->nominated_node_name = "n1";
          p->pod = std::move(nominated);
        }
        if (c.fail) {
          p->unschedulable_plugins = {c.plugins.begin(), c.plugins.end()};
          ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess()) << c.name;
        } else {
          q_->Done(*p);
        }
        ASSERT_NE(Fields(*q_), before) << c.name;
      }
      EXPECT_EQ(Fields(*q_), before) << c.name << " second attempt " << second_attempt;
    }
  }
}

TEST_F(QueueTest, PopsByPriorityThenQueueTime) {
  q_->Add(P("low", 1));
  clock_.Step(milliseconds(1));
  q_->Add(P("high", 10));
  clock_.Step(milliseconds(1));
  q_->Add(P("low-later", 1));
  clock_.Step(milliseconds(1));
  q_->Add(P("mid", 5));
  EXPECT_EQ(PopAll(), (std::vector<std::string>{"high", "mid", "low", "low-later"}));
  EXPECT_EQ(q_->Pop(), nullptr);
  EXPECT_EQ(q_->SchedulingCycle(), 4);
}

// Pods queued at one instant (the engine applies a batch at one clock
// reading) pop by priority, then by key ("namespace/name").
TEST_F(QueueTest, PodsQueuedAtOneInstantPopByPriorityThenKey) {
  struct Case {
    std::vector<std::pair<std::string, int32_t>> pods;  // name, priority; added in order
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {{{"b", 0}, {"a", 0}, {"c", 0}}, {"a", "b", "c"}},
      {{{"b", 0}, {"a", -1}, {"c", 2}}, {"c", "b", "a"}},
      {{{"pod-10", 1}, {"pod-9", 1}, {"pod-1", 1}}, {"pod-1", "pod-10", "pod-9"}},
      {{{"x", std::numeric_limits<int32_t>::min()},
        {"y", std::numeric_limits<int32_t>::max()},
        {"w", 0}},
       {"y", "w", "x"}},
  };
  for (const Case& c : cases) {
    Build();
    for (const auto& [name, priority] : c.pods) q_->Add(P(name, priority));
    EXPECT_EQ(PopAll(), c.want);
  }
}

TEST_F(QueueTest, AddOfAKnownPodUpdatesIt) {
  q_->Add(P("a", 1));
  q_->Add(P("a", 7));
  q_->Add(P("b", 5));
  EXPECT_EQ(PopAll(), (std::vector<std::string>{"a", "b"}));
}

// TestBackOffFlow: 1s, 2s, 4s, 8s, then capped at 10s; an early flush
// leaves the pod in backoffQ, a flush after expiry moves it.
TEST_F(QueueTest, BackoffDoublesUpToTheMax) {
  q_->Add(P("p"));
  const std::vector<int> want = {1, 2, 4, 8, 10, 10, 10};
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    auto p = q_->Pop();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->attempts, static_cast<int>(i) + 1);
    p->unschedulable_plugins = {"fooPlugin"};
    ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
    EXPECT_EQ(Where("p"), "Unschedulable");
    q_->MoveAllToActiveOrBackoffQueue(events::kUnschedulableTimeout, {}, {});
    ASSERT_EQ(Where("p"), "Backoff");
    const QueuedPodView v = q_->Snapshot()[0];
    ASSERT_TRUE(v.backoff_expiration.has_value());
    EXPECT_EQ(*v.backoff_expiration - clock_.Now(), seconds(want[i]));
    clock_.Step(seconds(want[i]) - milliseconds(1));
    q_->FlushBackoffQCompleted();
    EXPECT_EQ(Where("p"), "Backoff");
    clock_.Step(milliseconds(1) + seconds(1));  // past the ordering window
    q_->FlushBackoffQCompleted();
    EXPECT_EQ(Where("p"), "Active");
  }
}

TEST_F(QueueTest, BackoffIsConfigurable) {
  Build({.pod_initial_backoff = seconds(2), .pod_max_backoff = seconds(3)});
  q_->Add(P("p"));
  for (int want : {2, 3, 3}) {
    auto p = q_->Pop();
    p->unschedulable_plugins = {"fooPlugin"};
    ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
    q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"));
    ASSERT_EQ(Where("p"), "Backoff");
    EXPECT_EQ(*q_->Snapshot()[0].backoff_expiration - clock_.Now(), seconds(want));
    clock_.Step(seconds(want + 1));
    q_->FlushBackoffQCompleted();
  }
}

// An error (no rejecting plugin) always backs off; the count is the
// consecutive errors.
TEST_F(QueueTest, ErrorGoesToBackoff) {
  q_->Add(P("p"));
  FailAttempt("p", {});
  EXPECT_EQ(Where("p"), "Backoff");
  // activeQ is empty: Pop takes the backoffQ head only among plugin-rejected
  // pods, so an errored pod waits.
  EXPECT_EQ(q_->Pop(), nullptr);
  clock_.Step(seconds(2));
  q_->FlushBackoffQCompleted();
  EXPECT_EQ(Where("p"), "Active");
}

// SchedulerPopFromBackoffQ: with activeQ empty, Pop takes the backoffQ head.
TEST_F(QueueTest, PopFromBackoffQWhenActiveQIsEmpty) {
  q_->Add(P("p"));
  FailAttempt("p", {"fooPlugin"});
  q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"));
  ASSERT_EQ(Where("p"), "Backoff");
  auto p = q_->Pop();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->attempts, 2);

  Build({.pop_from_backoff_q = false});
  q_->Add(P("q"));
  FailAttempt("q", {"fooPlugin"});
  q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"));
  ASSERT_EQ(Where("q"), "Backoff");
  EXPECT_EQ(q_->Pop(), nullptr);
}

// TestPriorityQueue_MoveAllToActiveOrBackoffQueueWithQueueingHint: only the
// rejecting plugins' hints count.
TEST_F(QueueTest, EventsMoveOnlyPodsTheirHintsAccept) {
  struct Case {
    const char* name;
    std::vector<std::string> plugins;
    ClusterEvent event;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"registered plugin says Queue", {"fooPlugin"}, kNodeAdd, "Backoff"},
      {"registered plugin says Skip", {"barPlugin"}, kNodeAdd, "Unschedulable"},
      {"one of two says Queue", {"fooPlugin", "barPlugin"}, kNodeAdd, "Backoff"},
      {"plugin did not register the event", {"fooPlugin"}, kNodeLabel, "Unschedulable"},
      {"specific update matches", {"barPlugin"}, kNodeLabel, "Backoff"},
      {"general update does not match a specific registration",
       {"barPlugin"},
       {EventResource::kNode, action::kUpdate, {}},
       "Unschedulable"},
      {"no hint means Queue", {"pvPlugin"}, kPvAdd, "Backoff"},
      {"rejector unknown to the profile", {"other"}, kNodeAdd, "Unschedulable"},
      {"wildcard moves everyone", {"barPlugin"}, events::kUnschedulableTimeout, "Backoff"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Build();
    q_->Add(P("p"));
    FailAttempt("p", c.plugins);
    ASSERT_EQ(Where("p"), "Unschedulable");
    q_->MoveAllToActiveOrBackoffQueue(c.event, {}, N("n"));
    EXPECT_EQ(Where("p"), c.want);
  }
}

TEST_F(QueueTest, MovedPodSkipsBackoffOnceItIsOver) {
  q_->Add(P("p"));
  FailAttempt("p", {"fooPlugin"});
  clock_.Step(seconds(3));  // backoff after one failure: 1s
  q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"));
  EXPECT_EQ(Where("p"), "Active");
}

TEST_F(QueueTest, PreCheckFiltersPods) {
  q_->Add(P("a", 1));
  q_->Add(P("b", 2));
  FailAttempt("b", {"fooPlugin"});
  FailAttempt("a", {"fooPlugin"});
  q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"),
                                    [](const Pod& p) { return p.priority >= 2; });
  EXPECT_EQ(Where("a"), "Unschedulable");
  EXPECT_EQ(Where("b"), "Backoff");
}

// Test_InFlightPods: an event received during the cycle that the rejecting
// plugin's hint accepts sends the pod straight to backoffQ.
TEST_F(QueueTest, InFlightEventIsReplayedOnFailure) {
  q_->Add(P("p"));
  auto p = q_->Pop();
  q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"));
  p->unschedulable_plugins = {"fooPlugin"};
  ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
  EXPECT_EQ(Where("p"), "Backoff");
  EXPECT_EQ(q_->NumInFlight(), 0u);
}

// The receivedMoveRequest flaw: an event that arrives while the pod is in
// flight but that none of its rejecting plugins care about must not send
// it to backoffQ.
TEST_F(QueueTest, InFlightEventThatMovesNothingLeavesPodUnschedulable) {
  q_->Add(P("p"));
  auto p = q_->Pop();
  q_->MoveAllToActiveOrBackoffQueue(kNodeAdd, {}, N("n"));       // barPlugin: Skip
  q_->MoveAllToActiveOrBackoffQueue(kPvAdd, {}, {});              // not registered by bar
  p->unschedulable_plugins = {"barPlugin"};
  ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
  EXPECT_EQ(Where("p"), "Unschedulable");
}

TEST_F(QueueTest, EventsBeforePopOrAfterDoneAreNotReplayed) {
  q_->Add(P("p"));
  q_->Add(P("other", -1));
  auto p = q_->Pop();
  auto other = q_->Pop();
  q_->Done(*other);
  q_->MoveAllToActiveOrBackoffQueue(kNodeLabel, {}, N("n"));  // during p's cycle
  p->unschedulable_plugins = {"barPlugin"};
  ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
  EXPECT_EQ(Where("p"), "Backoff");

  // "q" is popped after the event (logged because "r" was in flight): it is
  // not replayed for "q".
  Build();
  q_->Add(P("r", 5));
  q_->Add(P("q"));
  auto r = q_->Pop();
  q_->MoveAllToActiveOrBackoffQueue(kNodeLabel, {}, N("n"));
  auto qq = q_->Pop();
  ASSERT_EQ(qq->pod->name, "q");
  qq->unschedulable_plugins = {"barPlugin"};
  ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(qq)).IsSuccess());
  EXPECT_EQ(Where("q"), "Unschedulable");
  q_->Done(*r);
  EXPECT_EQ(q_->NumInFlight(), 0u);
}

TEST_F(QueueTest, UpdateOfInFlightPodIsReplayed) {
  // A fake plugin that registers Pod/UpdatePodLabel for the pod itself.
  profile_.Add(std::make_unique<FakePlugin>(
      "labelPlugin",
      std::vector<ClusterEventWithHint>{
          {{EventResource::kPod, action::kUpdatePodLabel, {}}, nullptr}}));
  Build();
  q_->Add(P("p"));
  auto p = q_->Pop();
  auto updated = PodBuilder(in_, "p").Label("app", "x").Build();
  q_->Update(*p->pod, updated);
  EXPECT_EQ(Where("p"), "InFlight");
  p->unschedulable_plugins = {"labelPlugin"};
  ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
  EXPECT_EQ(Where("p"), "Backoff");
  // The newest version went back into the queue.
  EXPECT_FALSE(q_->Snapshot()[0].pod->labels.empty());
}

TEST_F(QueueTest, DeletedWhileInFlightIsDropped) {
  q_->Add(P("p"));
  auto p = q_->Pop();
  q_->Delete(*p->pod);
  p->unschedulable_plugins = {"fooPlugin"};
  ASSERT_TRUE(q_->AddUnschedulableIfNotPresent(std::move(p)).IsSuccess());
  EXPECT_EQ(Where("p"), "");
  EXPECT_TRUE(q_->Snapshot().empty());
}

TEST_F(QueueTest, AddUnschedulableOfAQueuedPodIsAnError) {
  q_->Add(P("p"));
  auto p = q_->Pop();
  q_->Add(P("p"));  // re-added while in flight: an update of the in-flight pod
  EXPECT_EQ(Where("p"), "InFlight");
  q_->Done(*p);
  q_->Add(P("p"));
  EXPECT_EQ(Where("p"), "Active");
  const Status s = q_->AddUnschedulableIfNotPresent(std::move(p));
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(), "Pod default/p is already present in the active queue");
}

// TestPriorityQueue_flushUnschedulablePodsLeftover / the 5-minute rule.
TEST_F(QueueTest, UnschedulablePodsAreFlushedAfterTheMaxDuration) {
  q_->Add(P("p"));
  FailAttempt("p", {"barPlugin"});
  clock_.Step(minutes(5));
  q_->Flush();
  EXPECT_EQ(Where("p"), "Unschedulable");  // not longer than 5 min yet
  clock_.Step(milliseconds(1));
  q_->Flush();
  EXPECT_EQ(Where("p"), "Active");  // backoff (1 s) long over

  Build({.pod_max_in_unschedulable_pods = seconds(30)});
  q_->Add(P("q"));
  FailAttempt("q", {"barPlugin"});
  clock_.Step(seconds(31));
  q_->FlushUnschedulablePodsLeftover();
  EXPECT_EQ(Where("q"), "Active");
}

TEST_F(QueueTest, UnscheduledPodUpdateUsesHints) {
  profile_.Add(std::make_unique<FakePlugin>(
      "labelPlugin",
      std::vector<ClusterEventWithHint>{
          {{EventResource::kPod, action::kUpdatePodLabel, {}}, nullptr}}));
  Build();
  q_->Add(P("p"));
  FailAttempt("p", {"labelPlugin"});
  auto old_pod = P("p");
  q_->Update(*old_pod, PodBuilder(in_, "p").Priority(3).Build());  // no label change
  EXPECT_EQ(Where("p"), "Unschedulable");
  q_->Update(*old_pod, PodBuilder(in_, "p").Label("a", "b").Build());
  EXPECT_EQ(Where("p"), "Backoff");
}

TEST_F(QueueTest, UpdateAndDeleteInActiveAndBackoff) {
  q_->Add(P("a", 1));
  q_->Add(P("b", 2));
  q_->Update(*P("a", 1), P("a", 3));  // re-sorted
  q_->Delete(*P("b"));
  EXPECT_EQ(Where("b"), "");
  q_->Update(*P("c"), P("c"));  // unknown: added
  EXPECT_EQ(PopAll(), (std::vector<std::string>{"a", "c"}));
}

// SchedulingGates: a gated pod waits among the unschedulable pods, is not
// moved by other events or the timeout, and enters activeQ when the update
// that removes its last gate arrives.
TEST(SchedulingQueueGates, GatedUntilTheLastGateIsRemoved) {
  FakeClock clock;
  ClusterState cluster;
  Interner& in = cluster.interner();
  Profile profile = NewDefaultProfile();
  QueueingHintMapPerProfile m;
  m.emplace("default-scheduler", BuildProfileQueueingHints(profile, cluster));
  PriorityQueue q(clock, std::move(m));

  Pod gated = *PodBuilder(in, "p").Build();
  gated.scheduling_gates = {"a", "b"};
  auto two = std::make_shared<const Pod>(gated);
  gated.scheduling_gates = {"b"};
  auto one = std::make_shared<const Pod>(gated);
  gated.scheduling_gates.clear();
  auto none = std::make_shared<const Pod>(gated);

  q.Add(two);
  ASSERT_EQ(q.Snapshot().size(), 1u);
  EXPECT_EQ(q.Snapshot()[0].queue, kUnschedulableQ);
  EXPECT_EQ(q.Snapshot()[0].gating_plugin, "SchedulingGates");
  EXPECT_EQ(q.Pop(), nullptr);

  q.MoveAllToActiveOrBackoffQueue(events::kNodeAdd, {}, NodeBuilder(in, "n").Build());
  clock.Step(std::chrono::minutes(10));
  q.Flush();
  EXPECT_EQ(q.Snapshot()[0].queue, kUnschedulableQ);

  q.Update(*two, one);
  EXPECT_EQ(q.Snapshot()[0].queue, kUnschedulableQ);
  q.Update(*one, none);
  EXPECT_EQ(q.Snapshot()[0].queue, kActiveQ);
  EXPECT_EQ(q.Snapshot()[0].gating_plugin, "");
  ASSERT_NE(q.Pop(), nullptr);
}

// A PreEnqueue plugin that gates every pod while *closed; NodeAdd may open it.
class FakeGate final : public PreEnqueuePlugin, public EnqueueExtensions {
 public:
  FakeGate(std::string name, const bool* closed) : name_(std::move(name)), closed_(closed) {}
  std::string_view Name() const override { return name_; }
  Status PreEnqueue(const Pod&, const ClusterState&) const override {
    return *closed_ ? Status(Code::kUnschedulableAndUnresolvable, "closed") : Status();
  }
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState&) const override {
    return {{events::kNodeAdd, nullptr}};
  }

 private:
  std::string name_;
  const bool* closed_;
};

// The plugin that gated a pod last runs first when it is tried again, so it
// stays the gating plugin while it still gates; otherwise the profile's
// order decides (gateA before gateB).
struct GateStep {
  bool a_closed, b_closed;
  std::string gating;  // after the pod is added (first step) or NodeAdd
};

class QueueGateOrder : public ::testing::TestWithParam<std::vector<GateStep>> {};

TEST_P(QueueGateOrder, LastGatingPluginRunsFirst) {
  FakeClock clock;
  ClusterState cluster;
  Interner& in = cluster.interner();
  bool a_closed = false, b_closed = false;
  Profile profile("default-scheduler");
  profile.Add(std::make_unique<FakeGate>("gateA", &a_closed));
  profile.Add(std::make_unique<FakeGate>("gateB", &b_closed));
  QueueingHintMapPerProfile m;
  m.emplace("default-scheduler", BuildProfileQueueingHints(profile, cluster));
  PriorityQueue q(clock, std::move(m));
  const std::vector<GateStep>& steps = GetParam();
  for (size_t i = 0; i < steps.size(); ++i) {
    a_closed = steps[i].a_closed;
    b_closed = steps[i].b_closed;
    if (i == 0) {
      q.Add(PodBuilder(in, "p").Build());
    } else {
      q.MoveAllToActiveOrBackoffQueue(events::kNodeAdd, {}, NodeBuilder(in, "n").Build());
    }
    ASSERT_EQ(q.Snapshot().size(), 1u);
    EXPECT_EQ(q.Snapshot()[0].gating_plugin, steps[i].gating) << "step " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, QueueGateOrder,
    ::testing::Values(std::vector<GateStep>{{true, true, "gateA"}},
                      std::vector<GateStep>{{false, true, "gateB"}, {true, true, "gateB"}},
                      std::vector<GateStep>{{true, false, "gateA"},
                                            {true, true, "gateA"},
                                            {false, true, "gateB"},
                                            {false, false, ""}}));

// TestPriorityQueue_NominatedPodsForNode / UpdateNominatedPodForNode.
TEST_F(QueueTest, Nominations) {
  Pod nominated = *P("p", 5);
  nominated.nominated_node_name = "node1";
  auto p = std::make_shared<const Pod>(nominated);
  q_->Add(p);  // an unscheduled pod carrying status.nominatedNodeName
  ASSERT_EQ(q_->NominatedPodsForNode("node1").size(), 1u);

  q_->AddNominatedPod(P("q"), "node1");  // preemption's override
  q_->AddNominatedPod(P("r"));           // no nominatedNodeName: nothing
  ASSERT_EQ(q_->NominatedPodsForNode("node1").size(), 2u);
  EXPECT_EQ(q_->NominatedPodsForNode("node1")[1]->name, "q");

  // An update with no nominatedNodeName in either version keeps the
  // scheduler's own nomination.
  q_->UpdateNominatedPod(*P("q"), P("q", 1));
  EXPECT_EQ(q_->nominator().NominatedNodeFor(*P("q")), "node1");
  EXPECT_EQ(q_->NominatedPodsForNode("node1")[1]->priority, 1);
  // A nomination moves.
  q_->AddNominatedPod(P("q"), "node2");
  EXPECT_EQ(q_->NominatedPodsForNode("node1").size(), 1u);
  EXPECT_EQ(q_->NominatedPodsForNode("node2").size(), 1u);
  // Cleared on assume and on delete.
  q_->DeleteNominatedPodIfExists(*P("q"));
  EXPECT_TRUE(q_->NominatedPodsForNode("node2").empty());
  q_->Delete(*p);
  EXPECT_TRUE(q_->NominatedPodsForNode("node1").empty());
  // A bound pod is never recorded.
  q_->AddNominatedPod(PodBuilder(in_, "bound").NodeName("node3").Build(), "node3");
  EXPECT_TRUE(q_->NominatedPodsForNode("node3").empty());
}

TEST_F(QueueTest, AssignedPodEvents) {
  profile_.Add(std::make_unique<FakePlugin>(
      "podDelete", std::vector<ClusterEventWithHint>{
                       {{EventResource::kPod, action::kDelete, {}}, nullptr}}));
  Build();
  q_->Add(P("p"));
  FailAttempt("p", {"podDelete"});
  auto bound = PodBuilder(in_, "b").NodeName("n").Build();
  q_->AssignedPodAdded(bound);
  EXPECT_EQ(Where("p"), "Unschedulable");
  q_->AssignedPodDeleted(bound);
  EXPECT_EQ(Where("p"), "Backoff");
}

}  // namespace
}  // namespace scheduling_queue_test
}  // namespace sched
