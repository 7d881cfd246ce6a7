// Session::Fork: a child equal to its parent that neither side's changes
// reach. The property test drives a family of engines (forks of forks,
// some freed on the way) with random operations and checks each against
// an engine built from scratch with that engine's whole history: equal
// state digests (state, queue, clock, random sources) and equal decisions.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "libsched/engine/engine.h"
#include "libsched/plugins/registry.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/default_engine.h"

namespace sched {
namespace fork_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;
using testing::PodTerm;
using testing::Req;

constexpr int64_t kGi = int64_t{1} << 30;

std::unique_ptr<Engine> NewEngine() { return testing::NewDefaultEngine(7); }

std::unique_ptr<Engine> Fork(Engine& e) { return e.Lock().Fork(); }

// A fork of an empty engine: its interner is shared from the start, as a
// forked engine's is, so state digests (which leave a shared interner's
// size out) compare alike before and after a fork.
std::unique_ptr<Engine> NewFamilyEngine() { return Fork(*NewEngine()); }

// One operation of a history, replayable on any engine.
struct Op {
  enum Kind { kNode, kRemoveNode, kBoundPod, kRemovePod, kQueuePod, kSchedule, kRun, kClock };
  Kind kind;
  int node = 0;           // node number
  int pod = 0;            // pod number (names are unique across the test)
  int64_t milli_cpu = 0;  // node capacity or pod request
  int app = 0;            // pod label app=a<app>; a node's zone
  bool assume = false;    // kSchedule
  uint32_t cycles = 0;    // kRun
  uint64_t millis = 0;    // kClock
  int32_t priority = 0;   // pods: high ones may preempt (nominations)
  bool gated = false;     // kQueuePod: a scheduling gate (unschedulable until updated without)
};

std::string NodeName(int n) { return "n" + std::to_string(n); }
std::string PodName(int p) { return "p" + std::to_string(p); }

std::shared_ptr<Pod> MakePod(Interner& in, const Op& op, bool bound) {
  PodBuilder b(in, PodName(op.pod));
  b.Label("app", "a" + std::to_string(op.app)).Container(op.milli_cpu, kGi / 4);
  // Some pods spread away from their app's other pods by zone: the affinity
  // indexes and topology domains take part.
  if (op.pod % 3 == 0) {
    b.PreferredPodAntiAffinity(
        10, PodTerm(in, "zone", {Req(in, "app", SelectorOp::kIn, {"a" + std::to_string(op.app)})}));
  }
  if (bound) b.NodeName(NodeName(op.node));
  b.Priority(op.priority);
  auto pod = std::make_shared<Pod>(*b.Build());
  pod->scheduler_name = kDefaultSchedulerName;
  if (op.gated) pod->scheduling_gates = {"example.com/wait"};
  return pod;
}

// Applies `op`; returns the decisions it made ("" for none) in a form two
// engines can compare.
std::string Do(Engine& e, const Op& op) {
  Engine::Session s = e.Lock();
  std::string out;
  auto decision = [&](const PodResult& r) {
    out += r.pod + "->" + r.node + "/" + std::to_string(static_cast<int>(r.outcome)) + "/" +
           std::to_string(r.feasible_nodes) +
           (r.nominated_node.empty() ? "" : "!" + r.nominated_node) + ";";
  };
  switch (op.kind) {
    case Op::kNode: {
      Interner& in = s.interner();
      Change c{};
      c.op = Change::Op::kUpsertNode;
      c.node = NodeBuilder(in, NodeName(op.node))
                   .Label("zone", "z" + std::to_string(op.app))
                   .Capacity(op.milli_cpu, 16 * kGi)
                   .Build();
      s.Apply({&c, 1});
      break;
    }
    case Op::kRemoveNode: {
      Change c{};
      c.op = Change::Op::kRemoveNode;
      c.key = NodeName(op.node);
      s.Apply({&c, 1});
      break;
    }
    case Op::kBoundPod:
    case Op::kRemovePod: {
      Change c{};
      c.op = op.kind == Op::kBoundPod ? Change::Op::kUpsertPod : Change::Op::kRemovePod;
      c.pod = MakePod(s.interner(), op, true);
      c.key = PodKey(*c.pod);
      s.Apply({&c, 1});
      break;
    }
    case Op::kQueuePod: {
      Change c{};
      c.op = Change::Op::kQueuePod;
      c.pod = MakePod(s.interner(), op, false);
      s.Apply({&c, 1});
      break;
    }
    case Op::kSchedule: {
      ScheduleOptions options;
      options.assume = op.assume;
      decision(s.Schedule(MakePod(s.interner(), op, false), options));
      break;
    }
    case Op::kRun: {
      for (const PodResult& r : s.Run(op.cycles, {})) decision(r);
      break;
    }
    case Op::kClock:
      s.AdvanceClock(op.millis);
      break;
  }
  return out;
}

struct Member {
  std::unique_ptr<Engine> engine;
  std::vector<Op> history;
  std::vector<std::string> decisions;  // one per history entry
};

// An engine built from scratch with `history` must reach the state of `e`
// and have made the same decisions.
void ExpectSameAsReplay(Engine& e, const std::vector<Op>& history,
                        const std::vector<std::string>& decisions, const std::string& what) {
  std::unique_ptr<Engine> ref = NewFamilyEngine();
  for (size_t i = 0; i < history.size(); ++i) {
    ASSERT_EQ(Do(*ref, history[i]), decisions[i]) << what << ", operation " << i;
  }
  EXPECT_EQ(ref->StateDigest(), e.StateDigest()) << what;
}

void ExpectSameAsReplay(const Member& m, const std::string& what) {
  ExpectSameAsReplay(*m.engine, m.history, m.decisions, what);
}

Op RandomOp(std::mt19937_64& rng, int* next_pod, int* next_node) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  Op op{};
  op.kind = static_cast<Op::Kind>(pick(8));
  op.app = pick(3);
  switch (op.kind) {
    case Op::kNode:
      // New nodes mostly, sometimes an update of an existing one.
      op.node = pick(4) == 0 && *next_node > 0 ? pick(*next_node) : (*next_node)++;
      op.milli_cpu = 1000 * (1 + pick(4));
      break;
    case Op::kRemoveNode:
      op.node = *next_node > 0 ? pick(*next_node) : 0;
      break;
    case Op::kBoundPod:
    case Op::kRemovePod:
      // Removals name pods that may exist (bound, assumed) or not.
      op.pod = op.kind == Op::kBoundPod || *next_pod == 0 ? (*next_pod)++ : pick(*next_pod);
      op.node = *next_node > 0 ? pick(*next_node) : 0;
      op.milli_cpu = 100 * (1 + pick(10));
      break;
    case Op::kQueuePod:
    case Op::kSchedule:
      // A queued pod is sometimes an earlier one again: an update of a
      // pending pod (the queue's Update: in activeQ, backoffQ,
      // unschedulable or gated; ungated when the gate goes), ignored when
      // bound. Some are gated; high-priority ones preempt when nothing fits.
      op.pod = op.kind == Op::kQueuePod && *next_pod > 0 && pick(4) == 0 ? pick(*next_pod)
                                                                         : (*next_pod)++;
      op.milli_cpu = 100 * (1 + pick(30));
      op.assume = pick(2) == 0;
      op.priority = pick(3) == 0 ? 100 : 0;
      op.gated = op.kind == Op::kQueuePod && pick(6) == 0;
      break;
    case Op::kRun:
      op.cycles = static_cast<uint32_t>(pick(4));
      break;
    case Op::kClock:
      op.millis = 100 + 1000 * static_cast<uint64_t>(pick(12));
      break;
  }
  return op;
}

TEST(ForkTest, RandomOperationsOnAFamilyMatchReplays) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed);
    int next_pod = 0;
    int next_node = 0;
    std::vector<Member> family;
    family.push_back({NewFamilyEngine(), {}, {}});
    for (int step = 0; step < 160; ++step) {
      const size_t i = rng() % family.size();
      const uint64_t roll = rng() % 100;
      if (roll < 8 && family.size() < 6) {  // fork (of a fork, often)
        Member child{Fork(*family[i].engine), family[i].history, family[i].decisions};
        family.push_back(std::move(child));
        continue;
      }
      if (roll < 11 && family.size() > 1) {  // free one, the root included
        family.erase(family.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
      const Op op = RandomOp(rng, &next_pod, &next_node);
      family[i].decisions.push_back(Do(*family[i].engine, op));
      family[i].history.push_back(op);
    }
    for (size_t i = 0; i < family.size(); ++i) {
      ExpectSameAsReplay(family[i],
                         "seed " + std::to_string(seed) + ", member " + std::to_string(i));
    }
  }
}

// A long line of forks of forks, each new generation writing what its
// ancestors still share and older generations writing after it: every
// generation matches its replay (copy-on-write shares pieces across many
// engines at once).
TEST(ForkTest, ManyGenerationsEachMatchTheirReplays) {
  std::mt19937_64 rng(99);
  int next_pod = 0;
  int next_node = 0;
  std::vector<Member> line;
  line.push_back({NewFamilyEngine(), {}, {}});
  auto act = [&](Member& m) {
    const Op op = RandomOp(rng, &next_pod, &next_node);
    m.decisions.push_back(Do(*m.engine, op));
    m.history.push_back(op);
  };
  for (int i = 0; i < 12; ++i) act(line[0]);
  for (int generation = 1; generation <= 24; ++generation) {
    Member& last = line.back();
    Member child{Fork(*last.engine), last.history, last.decisions};
    line.push_back(std::move(child));
    act(line.back());
    act(line[rng() % line.size()]);
    act(line[rng() % line.size()]);
  }
  for (size_t i = 0; i < line.size(); ++i) {
    ExpectSameAsReplay(line[i], "generation " + std::to_string(i));
  }
}

// A long pending queue (pods in activeQ, backoffQ and unschedulable, gated
// and nominated ones) shared by forks, then random operations on every
// side, mostly the queue's (pods queued, updated, popped, failed, moved by
// node and pod events and by time, deleted): each matches its replay.
TEST(ForkTest, PendingQueueSharedThenChangedOnEverySide) {
  int nominated = 0;  // preemption's nominations in the setups, over all seeds
  int gated = 0;
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 rng(seed);
    int next_pod = 0;
    int next_node = 0;
    auto act = [&](Member& m, const Op& op) {
      m.decisions.push_back(Do(*m.engine, op));
      m.history.push_back(op);
    };
    // Queue operations twice as likely as the others.
    auto queue_op = [&] {
      Op op = RandomOp(rng, &next_pod, &next_node);
      if (op.kind == Op::kSchedule || op.kind == Op::kRemoveNode) {
        op = RandomOp(rng, &next_pod, &next_node);
      }
      return op;
    };
    Member root{NewFamilyEngine(), {}, {}};
    for (int n = 0; n < 5; ++n) {
      act(root, {.kind = Op::kNode, .node = next_node++, .milli_cpu = 2000, .app = n % 3});
    }
    for (int i = 0; i < 15; ++i) {  // victims for the high-priority pods
      act(root, {.kind = Op::kBoundPod, .node = i % 5, .pod = next_pod++, .milli_cpu = 500});
    }
    for (int i = 0; i < 40; ++i) {
      act(root, {.kind = Op::kQueuePod,
                 .pod = next_pod++,
                 .milli_cpu = 100 * (1 + static_cast<int64_t>(rng() % 30)),
                 .app = static_cast<int>(rng() % 3),
                 .priority = rng() % 3 == 0 ? 100 : 0,
                 .gated = rng() % 6 == 0});
    }
    act(root, {.kind = Op::kRun, .cycles = 16});
    // A node added before their backoff ends: pods it may help go to backoffQ.
    act(root, {.kind = Op::kNode, .node = next_node++, .milli_cpu = 1000});
    act(root, {.kind = Op::kRun, .cycles = 4});
    for (const std::string& d : root.decisions) {
      nominated += static_cast<int>(std::count(d.begin(), d.end(), '!'));
    }
    {
      const QueueReport q = root.engine->Lock().Queue();
      std::set<std::string_view> queues;
      for (const QueuedPodView& v : q.pods) {
        queues.insert(v.queue);
        if (!v.gating_plugin.empty()) ++gated;
      }
      EXPECT_EQ(queues, (std::set<std::string_view>{kActiveQ, kBackoffQ, kUnschedulableQ}));
    }
    std::vector<Member> family;
    family.push_back(std::move(root));
    for (int step = 0; step < 120; ++step) {
      const size_t i = rng() % family.size();
      if (rng() % 100 < 8 && family.size() < 5) {
        Member child{Fork(*family[i].engine), family[i].history, family[i].decisions};
        family.push_back(std::move(child));
        continue;
      }
      act(family[i], queue_op());
    }
    for (size_t i = 0; i < family.size(); ++i) {
      ExpectSameAsReplay(family[i],
                         "seed " + std::to_string(seed) + ", member " + std::to_string(i));
    }
  }
  EXPECT_GT(nominated, 0);
  EXPECT_GT(gated, 0);
}

// A fork taken inside a transaction, then both sides go on writing (the
// same nodes and pods included) before the parent reverts: the parent is
// back where it began, the child has everything it saw and did.
TEST(ForkTest, ForkInsideATransactionThenBothSidesWrite) {
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::mt19937_64 rng(seed);
    int next_pod = 0;
    int next_node = 0;
    // Any operation, the queue's too: the child, forked inside the
    // transaction, copies the queue at once (the parent's revert writes
    // back into what it holds).
    auto state_op = [&] { return RandomOp(rng, &next_pod, &next_node); };
    Member parent{NewFamilyEngine(), {}, {}};
    auto act = [&](Member& m, const Op& op) {
      m.decisions.push_back(Do(*m.engine, op));
      m.history.push_back(op);
    };
    for (int i = 0; i < 15; ++i) act(parent, state_op());
    const std::vector<Op> before = parent.history;
    const std::vector<std::string> before_decisions = parent.decisions;
    parent.engine->Lock().Begin();
    for (int i = 0; i < 6; ++i) act(parent, state_op());
    Member child{Fork(*parent.engine), parent.history, parent.decisions};
    for (int i = 0; i < 12; ++i) act(rng() % 2 == 0 ? parent : child, state_op());
    ASSERT_TRUE(parent.engine->Lock().Revert());
    parent.history = before;
    parent.decisions = before_decisions;
    for (int i = 0; i < 6; ++i) act(rng() % 2 == 0 ? parent : child, state_op());
    ExpectSameAsReplay(parent, "parent, seed " + std::to_string(seed));
    ExpectSameAsReplay(child, "child, seed " + std::to_string(seed));
  }
}

// The child starts equal: same digest, and the same next decision as the
// parent for the same pod (random source and start index copied).
TEST(ForkTest, ChildStartsEqualAndDecidesAlike) {
  auto parent = NewEngine();
  for (int n = 0; n < 6; ++n) Do(*parent, {.kind = Op::kNode, .node = n, .milli_cpu = 4000});
  for (int p = 0; p < 4; ++p) {
    Do(*parent, {.kind = Op::kQueuePod, .pod = p, .milli_cpu = 500});
  }
  Do(*parent, {.kind = Op::kRun, .cycles = 2});
  auto child = Fork(*parent);
  EXPECT_EQ(child->StateDigest(), parent->StateDigest());
  const Op run{.kind = Op::kRun};
  EXPECT_EQ(Do(*child, run), Do(*parent, run));
  EXPECT_EQ(child->StateDigest(), parent->StateDigest());
}

// A fork taken inside a transaction copies the state as it is then; the
// parent's Revert puts back only the parent, and the child keeps the
// strings made inside the transaction (the shared interner).
TEST(ForkTest, ParentRevertLeavesTheChildAlone) {
  auto parent = NewFamilyEngine();
  Do(*parent, {.kind = Op::kNode, .node = 0, .milli_cpu = 4000});
  const uint64_t before = parent->StateDigest();
  parent->Lock().Begin();
  Do(*parent, {.kind = Op::kNode, .node = 1, .milli_cpu = 4000, .app = 2});
  Do(*parent, {.kind = Op::kBoundPod, .node = 1, .pod = 1, .milli_cpu = 300, .app = 1});
  // Pending pods too: one scheduled, one failed (unschedulable), one left
  // in activeQ; the revert takes them out of the parent's queue only.
  Do(*parent, {.kind = Op::kQueuePod, .pod = 2, .milli_cpu = 300});
  Do(*parent, {.kind = Op::kQueuePod, .pod = 3, .milli_cpu = 9000, .priority = 100});
  Do(*parent, {.kind = Op::kQueuePod, .pod = 4, .milli_cpu = 200});
  const std::string run = Do(*parent, {.kind = Op::kRun, .cycles = 2});
  auto child = Fork(*parent);
  const uint64_t child_digest = child->StateDigest();
  EXPECT_EQ(child->Lock().transactions(), 0u);
  EXPECT_TRUE(parent->Lock().Revert());
  EXPECT_EQ(parent->StateDigest(), before);
  EXPECT_EQ(child->StateDigest(), child_digest);
  // The child's strings ("z2", "a1", "n1", "p1") still read back.
  ExpectSameAsReplay(*child,
                     {{.kind = Op::kNode, .node = 0, .milli_cpu = 4000},
                      {.kind = Op::kNode, .node = 1, .milli_cpu = 4000, .app = 2},
                      {.kind = Op::kBoundPod, .node = 1, .pod = 1, .milli_cpu = 300, .app = 1},
                      {.kind = Op::kQueuePod, .pod = 2, .milli_cpu = 300},
                      {.kind = Op::kQueuePod, .pod = 3, .milli_cpu = 9000, .priority = 100},
                      {.kind = Op::kQueuePod, .pod = 4, .milli_cpu = 200},
                      {.kind = Op::kRun, .cycles = 2}},
                     {"", "", "", "", "", "", run}, "child");
}

// A child's transaction reverts only the child, even with strings the
// parent interned while it was open.
TEST(ForkTest, ChildRevertWithParentInterningMeanwhile) {
  auto parent = NewEngine();
  Do(*parent, {.kind = Op::kNode, .node = 0, .milli_cpu = 4000});
  auto child = Fork(*parent);
  const uint64_t child_before = child->StateDigest();
  child->Lock().Begin();
  Do(*child, {.kind = Op::kNode, .node = 5, .milli_cpu = 2000, .app = 1});
  Do(*parent, {.kind = Op::kNode, .node = 6, .milli_cpu = 2000, .app = 2});
  Do(*child, {.kind = Op::kBoundPod, .node = 5, .pod = 9, .milli_cpu = 100, .app = 2});
  const uint64_t parent_now = parent->StateDigest();
  EXPECT_TRUE(child->Lock().Revert());
  EXPECT_EQ(child->StateDigest(), child_before);
  EXPECT_EQ(parent->StateDigest(), parent_now);
  ExpectSameAsReplay(*parent,
                     {{.kind = Op::kNode, .node = 0, .milli_cpu = 4000},
                      {.kind = Op::kNode, .node = 6, .milli_cpu = 2000, .app = 2}},
                     {"", ""}, "parent");
}

// Transactions of two siblings, interleaved and ended out of order over
// the one interner, each with strings of its own: both revert to their
// state, and a later Collect leaves what each holds readable.
TEST(ForkTest, SiblingTransactionsEndOutOfOrder) {
  auto a = NewFamilyEngine();
  Do(*a, {.kind = Op::kNode, .node = 0, .milli_cpu = 4000});
  auto b = Fork(*a);
  const uint64_t a_before = a->StateDigest();
  const uint64_t b_before = b->StateDigest();
  a->Lock().Begin();
  Do(*a, {.kind = Op::kNode, .node = 1, .milli_cpu = 2000, .app = 1});
  b->Lock().Begin();
  Do(*b, {.kind = Op::kNode, .node = 2, .milli_cpu = 2000, .app = 2});
  Do(*a, {.kind = Op::kBoundPod, .node = 1, .pod = 3, .milli_cpu = 100, .app = 2});
  EXPECT_TRUE(a->Lock().Revert());
  Do(*b, {.kind = Op::kBoundPod, .node = 2, .pod = 4, .milli_cpu = 100, .app = 1});
  EXPECT_TRUE(b->Lock().Revert());
  EXPECT_EQ(a->StateDigest(), a_before);
  EXPECT_EQ(b->StateDigest(), b_before);
  // Both go on as if the transactions never were.
  const Op more{.kind = Op::kNode, .node = 7, .milli_cpu = 3000, .app = 1};
  Do(*a, more);
  Do(*b, more);
  for (Engine* e : {a.get(), b.get()}) {
    ExpectSameAsReplay(*e, {{.kind = Op::kNode, .node = 0, .milli_cpu = 4000}, more}, {"", ""},
                       "sibling");
  }
}

// Parent and forks used and freed from different threads at once (the
// ThreadSanitizer stage runs this): calls serialize on the family's lock,
// and each engine ends as its own history says.
TEST(ForkThreadsTest, ParentAndForksUsedConcurrently) {
  auto root = NewEngine();
  for (int n = 0; n < 8; ++n) Do(*root, {.kind = Op::kNode, .node = n, .milli_cpu = 4000});
  constexpr int kThreads = 4;
  std::vector<Member> members(kThreads);
  for (int t = 0; t < kThreads; ++t) members[t].engine = Fork(*root);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&members, t] {
      std::mt19937_64 rng(static_cast<uint64_t>(t) + 100);
      int next_pod = 1000 * (t + 1);
      int next_node = 8;
      Member& m = members[t];
      for (int step = 0; step < 60; ++step) {
        if (step % 20 == 19) {  // a short-lived fork, freed on this thread
          auto scratch = Fork(*m.engine);
          Do(*scratch, {.kind = Op::kRun});
          continue;
        }
        const Op op = RandomOp(rng, &next_pod, &next_node);
        m.decisions.push_back(Do(*m.engine, op));
        m.history.push_back(op);
      }
    });
  }
  // The root changes meanwhile too, then goes.
  for (int p = 0; p < 20; ++p)
    Do(*root, {.kind = Op::kSchedule, .pod = 90000 + p, .milli_cpu = 100, .assume = true});
  root.reset();
  for (std::thread& t : threads) t.join();
  std::vector<Op> base;
  for (int n = 0; n < 8; ++n) base.push_back({.kind = Op::kNode, .node = n, .milli_cpu = 4000});
  for (int t = 0; t < kThreads; ++t) {
    Member& m = members[t];
    m.history.insert(m.history.begin(), base.begin(), base.end());
    m.decisions.insert(m.decisions.begin(), base.size(), "");
    ExpectSameAsReplay(m, "thread " + std::to_string(t));
  }
}

}  // namespace
}  // namespace fork_test
}  // namespace sched
