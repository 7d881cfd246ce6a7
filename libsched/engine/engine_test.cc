// The engine driven in model types, without JSON: changes applied, pods
// scheduled and run, reports read, and calls that fail leaving it as it was.
#include "libsched/engine/engine.h"

#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "libsched/plugins/registry.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/default_engine.h"

namespace sched {
namespace engine_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

constexpr int64_t kGi = int64_t{1} << 30;

std::unique_ptr<Engine> NewEngine(uint64_t seed = 1) { return testing::NewDefaultEngine(seed); }

Change NodeChange(Interner& in, const std::string& name, int64_t milli_cpu) {
  Change c{};
  c.op = Change::Op::kUpsertNode;
  c.node = NodeBuilder(in, name).Capacity(milli_cpu, 8 * kGi).Build();
  return c;
}

std::shared_ptr<Pod> PendingPod(Interner& in, const std::string& name, int64_t milli_cpu) {
  auto pod = std::make_shared<Pod>(*PodBuilder(in, name).Container(milli_cpu, kGi).Build());
  pod->scheduler_name = kDefaultSchedulerName;
  return pod;
}

Change QueueChange(Interner& in, const std::string& name, int64_t milli_cpu) {
  Change c{};
  c.op = Change::Op::kQueuePod;
  c.pod = PendingPod(in, name, milli_cpu);
  return c;
}

// A pending pod that uses the claim "default/`claim`" (as "r").
std::shared_ptr<Pod> PodUsingClaim(Interner& in, const std::string& name,
                                   const std::string& claim) {
  std::shared_ptr<Pod> pod = PendingPod(in, name, 100);
  PodResourceClaim& rc = pod->resource_claims.emplace_back();
  rc.name = "r";
  rc.claim_name = claim;
  return pod;
}

// The claim "default/`name`", allocated one device.
std::shared_ptr<ResourceClaim> AllocatedClaim(const std::string& name) {
  auto claim = std::make_shared<ResourceClaim>();
  claim->ns = "default";
  claim->name = name;
  claim->uid = "claim-uid";
  claim->allocation.emplace().devices.push_back({"req", "drv", "pool", "dev", false});
  return claim;
}

Change ClaimUpsert(std::shared_ptr<const ResourceClaim> claim) {
  Change c{};
  c.op = Change::Op::kUpsertResourceClaim;
  c.key = claim->ns + "/" + claim->name;
  c.resource_claim = std::move(claim);
  return c;
}

// Two nodes: "small" (1 CPU) and "big" (4 CPUs).
void ApplyNodes(Engine& e) {
  Engine::Session s = e.Lock();
  Interner& in = s.interner();
  const std::vector<Change> changes = {NodeChange(in, "small", 1000), NodeChange(in, "big", 4000)};
  s.Apply(changes);
}

TEST(EngineTest, SchedulesOnTheNodeThatFitsWithReasonsForTheOther) {
  auto e = NewEngine();
  ApplyNodes(*e);
  Engine::Session s = e->Lock();
  ScheduleOptions options;
  options.assume = true;
  options.node_statuses = true;
  const PodResult r = s.Schedule(PendingPod(s.interner(), "p", 2000), options);
  EXPECT_EQ(r.pod, "default/p");
  EXPECT_EQ(r.outcome, Outcome::kScheduled);
  EXPECT_EQ(r.node, "big");
  EXPECT_TRUE(r.assumed);
  EXPECT_EQ(r.num_all_nodes, 2);
  EXPECT_EQ(r.feasible_nodes, 1);
  ASSERT_EQ(r.node_statuses.size(), 1u);
  EXPECT_EQ(r.node_statuses[0].node, "small");
  EXPECT_EQ(r.node_statuses[0].plugin, "NodeResourcesFit");
  EXPECT_EQ(r.node_statuses[0].reasons, std::vector<std::string>{"Insufficient cpu"});
  // The assumed pod counts: "big" now has 2 CPUs requested.
  const std::vector<NodeReport> nodes = s.Nodes({});
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "big");
  EXPECT_EQ(nodes[0].requested.milli_cpu, 2000);
  EXPECT_EQ(nodes[0].pod_count, 1);
  EXPECT_EQ(nodes[1].requested.milli_cpu, 0);
}

TEST(EngineTest, UnschedulablePodGetsTheFitErrorMessage) {
  auto e = NewEngine();
  ApplyNodes(*e);
  Engine::Session s = e->Lock();
  const PodResult r = s.Schedule(PendingPod(s.interner(), "huge", 8000), {});
  EXPECT_EQ(r.outcome, Outcome::kUnschedulable);
  EXPECT_TRUE(r.node.empty());
  EXPECT_EQ(
      r.message,
      "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 "
      "nodes are available: 2 Preemption is not helpful for scheduling.");
}

TEST(EngineTest, RunSchedulesTheQueueAndRequeuesWhatDoesNotFit) {
  auto e = NewEngine();
  ApplyNodes(*e);
  {
    Engine::Session s = e->Lock();
    Interner& in = s.interner();
    const std::vector<Change> pods = {QueueChange(in, "a", 3000), QueueChange(in, "b", 3000)};
    s.Apply(pods);
    EXPECT_EQ(s.Queue().pods.size(), 2u);
  }
  Engine::Session s = e->Lock();
  const std::vector<PodResult> results = s.Run(0, {});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].outcome, Outcome::kScheduled);
  EXPECT_EQ(results[0].node, "big");
  EXPECT_TRUE(results[0].assumed);
  EXPECT_EQ(results[1].outcome, Outcome::kUnschedulable);
  const QueueReport q = s.Queue();
  ASSERT_EQ(q.pods.size(), 1u);
  EXPECT_EQ(q.pods[0].queue, kUnschedulableQ);
}

// A pod that fits nowhere goes back to the queue with every plugin that
// rejected a node (Diagnosis.UnschedulablePlugins), however its node
// failures run: one plugin throughout, runs of one plugin then another and
// back, or a different plugin on each node.
TEST(EngineTest, RunRecordsEveryRejectingPluginOfTheFailures) {
  enum Kind { kSmall, kTainted, kCordoned };
  struct Case {
    std::string name;
    std::vector<Kind> nodes;  // in the order they are added
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"one plugin", {kSmall, kSmall, kSmall}, {"NodeResourcesFit"}},
      {"runs", {kSmall, kSmall, kTainted, kTainted, kSmall},
       {"NodeResourcesFit", "TaintToleration"}},
      {"one each", {kTainted, kSmall, kCordoned},
       {"NodeResourcesFit", "NodeUnschedulable", "TaintToleration"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    auto e = NewEngine();
    Engine::Session s = e->Lock();
    Interner& in = s.interner();
    std::vector<Change> changes;
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      const bool small = c.nodes[i] == kSmall;
      NodeBuilder b(in, "n" + std::to_string(i));
      b.Capacity(small ? 1000 : 4000, 8 * kGi);
      if (c.nodes[i] == kTainted) b.Taint("dedicated", "x", TaintEffect::kNoSchedule);
      if (c.nodes[i] == kCordoned) b.Unschedulable();
      Change node{};
      node.op = Change::Op::kUpsertNode;
      node.node = b.Build();
      changes.push_back(std::move(node));
    }
    changes.push_back(QueueChange(in, "p", 2000));
    s.Apply(changes);
    const std::vector<PodResult> results = s.Run(0, {});
    ASSERT_EQ(results.size(), 1u);
    EXPECT_EQ(results[0].outcome, Outcome::kUnschedulable);
    const QueueReport q = s.Queue();
    ASSERT_EQ(q.pods.size(), 1u);
    EXPECT_EQ(q.pods[0].unschedulable_plugins, c.want);
  }
}

TEST(EngineTest, AdvanceClockRefusesToOverflow) {
  auto e = NewEngine();
  const uint64_t before = e->StateDigest();
  EXPECT_FALSE(e->Lock().AdvanceClock(Engine::kMaxClockMillis + 1));
  EXPECT_EQ(e->StateDigest(), before);
  EXPECT_TRUE(e->Lock().AdvanceClock(1500));
  EXPECT_EQ(e->Lock().Queue().now, std::chrono::milliseconds(1500));
}

// DRADeviceBindingConditions: DynamicResources judges the binding timeout
// (allocationTimestamp + 600 s) against the engine's clock, read as Unix
// time; a fork reads its own clock.
TEST(EngineTest, DraBindingTimeoutReadsTheEngineClock) {
  auto e = NewEngine();
  ApplyNodes(*e);
  std::shared_ptr<Pod> with_claim;
  {
    Engine::Session s = e->Lock();
    with_claim = PodUsingClaim(s.interner(), "p", "claim");
    std::shared_ptr<ResourceClaim> claim = AllocatedClaim("claim");
    claim->allocation->devices[0].binding_conditions = {"ready"};
    claim->allocation->allocation_timestamp = int64_t{700} * 1'000'000'000;  // Unix 700 s
    s.Apply(std::vector<Change>{ClaimUpsert(claim)});
  }
  // Clock 0 (1970-01-01T00:00:00Z): pending, not timed out.
  EXPECT_EQ(e->Lock().Schedule(with_claim, {}).outcome, Outcome::kScheduled);
  ASSERT_TRUE(e->Lock().AdvanceClock(1'300'000));  // exactly at the timeout: Before is strict
  EXPECT_EQ(e->Lock().Schedule(with_claim, {}).outcome, Outcome::kScheduled);
  std::unique_ptr<Engine> fork = e->Lock().Fork();
  ASSERT_TRUE(e->Lock().AdvanceClock(1));
  const PodResult r = e->Lock().Schedule(with_claim, {});
  EXPECT_EQ(r.outcome, Outcome::kUnschedulable);
  EXPECT_NE(r.message.find("2 resourceclaim not available on the node"), std::string::npos)
      << r.message;
  // The fork's clock stayed behind.
  EXPECT_EQ(fork->Lock().Schedule(with_claim, {}).outcome, Outcome::kScheduled);
}

// A hook that throws stands for a caller whose rendering ran out of
// memory: the call is undone, random source and start index included.
TEST(EngineTest, CallsWhoseHookThrowsLeaveTheDigestEqual) {
  auto e = NewEngine();
  ApplyNodes(*e);
  {
    Engine::Session s = e->Lock();
    const std::vector<Change> pods = {QueueChange(s.interner(), "queued", 500)};
    s.Apply(pods);
  }
  const uint64_t before = e->StateDigest();
  const auto fail = [](std::span<const PodResult>) { throw std::bad_alloc(); };
  {
    Engine::Session s = e->Lock();
    ScheduleOptions assume;
    assume.assume = true;
    EXPECT_THROW(s.Schedule(PendingPod(s.interner(), "p", 500), assume, fail), std::bad_alloc);
  }
  EXPECT_EQ(e->StateDigest(), before);
  EXPECT_THROW(e->Lock().Run(0, {}, fail), std::bad_alloc);
  EXPECT_EQ(e->StateDigest(), before);
  // Without the failure the same calls change the state.
  {
    Engine::Session s = e->Lock();
    ScheduleOptions assume;
    assume.assume = true;
    EXPECT_TRUE(s.Schedule(PendingPod(s.interner(), "p", 500), assume).assumed);
  }
  EXPECT_NE(e->StateDigest(), before);
}

// A call's marks reuse the storage of the call before (MarkSchedulers):
// a failed call after others goes back to its own start, not theirs.
TEST(EngineTest, FailedRunAfterOthersRewindsToItsOwnStart) {
  struct Case {
    const char* name;
    int runs_before;  // successful one-cycle Runs before the failing one
  };
  const Case cases[] = {{"first call", 0}, {"after one", 1}, {"after two", 2}};
  const auto fail = [](std::span<const PodResult>) { throw std::bad_alloc(); };
  for (const Case& c : cases) {
    auto e = NewEngine(7);
    {
      Engine::Session s = e->Lock();
      Interner& in = s.interner();
      // Equal nodes: their scores tie, so every cycle draws.
      std::vector<Change> changes = {NodeChange(in, "a", 4000), NodeChange(in, "b", 4000),
                                     NodeChange(in, "c", 4000)};
      for (const char* pod : {"p1", "p2", "p3"}) changes.push_back(QueueChange(in, pod, 100));
      s.Apply(changes);
    }
    for (int i = 0; i < c.runs_before; ++i) {
      ASSERT_EQ(e->Lock().Run(1, {}).size(), 1u) << c.name;
    }
    const uint64_t before = e->StateDigest();
    EXPECT_THROW(e->Lock().Run(1, {}, fail), std::bad_alloc) << c.name;
    EXPECT_EQ(e->StateDigest(), before) << c.name;
  }
}

TEST(EngineTest, SessionThatKeepsNothingLeavesTheInternerAsItWas) {
  auto e = NewEngine();
  ApplyNodes(*e);
  const uint64_t before = e->StateDigest();
  {
    Engine::Session s = e->Lock();
    NodeBuilder(s.interner(), "never-applied").Label("zone", "nowhere").Build();
  }
  EXPECT_EQ(e->StateDigest(), before);  // covers the interner's size
}

TEST(EngineTest, SameHistorySameDigest) {
  auto a = NewEngine(7), b = NewEngine(7);
  for (Engine* e : {a.get(), b.get()}) {
    ApplyNodes(*e);
    Engine::Session s = e->Lock();
    const std::vector<Change> pods = {QueueChange(s.interner(), "x", 100)};
    s.Apply(pods);
    s.Run(0, {});
  }
  EXPECT_EQ(a->StateDigest(), b->StateDigest());
}

// Revert puts back everything since Begin, the interner and the random
// source included; Commit keeps; an inner Commit joins the outer one.
TEST(EngineTest, TransactionRevertLeavesTheDigestEqual) {
  auto e = NewEngine();
  ApplyNodes(*e);
  const uint64_t before = e->StateDigest();
  e->Lock().Begin();
  {
    Engine::Session s = e->Lock();
    Interner& in = s.interner();
    const std::vector<Change> changes = {NodeChange(in, "new-node", 8000),
                                         QueueChange(in, "queued", 6000)};
    s.Apply(changes);
  }
  {
    Engine::Session s = e->Lock();
    ScheduleOptions assume;
    assume.assume = true;
    EXPECT_TRUE(s.Schedule(PendingPod(s.interner(), "p", 500), assume).assumed);
  }
  EXPECT_EQ(e->Lock().Run(0, {}).size(), 1u);
  EXPECT_TRUE(e->Lock().AdvanceClock(90'000));
  EXPECT_NE(e->StateDigest(), before);
  EXPECT_TRUE(e->Lock().Revert());
  EXPECT_EQ(e->StateDigest(), before);
  EXPECT_FALSE(e->Lock().Revert());  // none open
  EXPECT_FALSE(e->Lock().Commit());

  {
    Engine::Session s = e->Lock();
    s.Begin();
    s.Begin();
  }
  {
    Engine::Session s = e->Lock();
    ScheduleOptions assume;
    assume.assume = true;
    s.Schedule(PendingPod(s.interner(), "inner", 500), assume);
  }
  EXPECT_TRUE(e->Lock().Commit());
  const uint64_t with_inner = e->StateDigest();
  EXPECT_NE(with_inner, before);
  EXPECT_TRUE(e->Lock().Revert());
  EXPECT_EQ(e->StateDigest(), before);

  e->Lock().Begin();
  {
    Engine::Session s = e->Lock();
    ScheduleOptions assume;
    assume.assume = true;
    s.Schedule(PendingPod(s.interner(), "kept", 500), assume);
  }
  const uint64_t kept = e->StateDigest();
  EXPECT_TRUE(e->Lock().Commit());
  EXPECT_EQ(e->StateDigest(), kept);
  EXPECT_EQ(e->Lock().transactions(), 0u);
}

// A cycle after Revert decides as on an engine that never saw the
// transaction (random source, start index, emptied equivalence cache).
TEST(EngineTest, CycleAfterRevertMatchesAnEngineWithoutTheTransaction) {
  auto a = NewEngine(5), b = NewEngine(5);
  ApplyNodes(*a);
  ApplyNodes(*b);
  a->Lock().Begin();
  for (int i = 0; i < 3; ++i) {
    Engine::Session s = a->Lock();
    ScheduleOptions assume;
    assume.assume = true;
    s.Schedule(PendingPod(s.interner(), "t" + std::to_string(i), 100), assume);
  }
  EXPECT_TRUE(a->Lock().Revert());
  ScheduleOptions scores;
  scores.scores = true;
  for (int i = 0; i < 3; ++i) {
    Engine::Session sa = a->Lock();
    const PodResult ra = sa.Schedule(PendingPod(sa.interner(), "x", 100), scores);
    Engine::Session sb = b->Lock();
    const PodResult rb = sb.Schedule(PendingPod(sb.interner(), "x", 100), scores);
    EXPECT_EQ(ra.node, rb.node);
  }
  EXPECT_EQ(a->StateDigest(), b->StateDigest());
}

// A pod's deletion drops the extended resource claim assumed for it (its
// name is the pod's with "-extended-resources-<assumed>"), and only its:
// seen by a second pod that uses that claim.
TEST(EngineTest, PodDeletionDropsOnlyItsAssumedExtendedClaim) {
  struct Case {
    std::string deleted;
    Outcome user_outcome;
  };
  for (const Case& c : {Case{"p", Outcome::kUnschedulable}, Case{"other", Outcome::kScheduled}}) {
    SCOPED_TRACE(c.deleted);
    auto e = NewEngine();
    ApplyNodes(*e);
    std::shared_ptr<Pod> user;
    {
      Engine::Session s = e->Lock();
      const std::string claim = "p-extended-resources-<assumed>";
      user = PodUsingClaim(s.interner(), "user", claim);
      const Change upsert = ClaimUpsert(AllocatedClaim(claim));
      Change remove{};
      remove.op = Change::Op::kRemovePod;
      remove.key = "default/" + c.deleted;
      remove.pod = PendingPod(s.interner(), c.deleted, 100);
      s.Apply(std::vector<Change>{upsert, remove});
    }
    EXPECT_EQ(e->Lock().Schedule(user, {}).outcome, c.user_outcome);
  }
}

}  // namespace
}  // namespace engine_test
}  // namespace sched
