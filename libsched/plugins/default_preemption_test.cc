// DefaultPreemption: upstream's default_preemption_test.go scenarios
// (TestSelectBestCandidate, TestDryRunPreemption's PDB cases,
// TestPodEligibleToPreemptOthers, calculateNumCandidates) with
// NodeResourcesFit as the only Filter, run through the Scheduler.
#include "libsched/plugins/default_preemption.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "libsched/plugins/node_resources_fit.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"
#include "libsched/testing/map_nominator.h"

namespace sched {
namespace default_preemption_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// default_preemption_test.go's priorities and resources (cpu milli, memory).
constexpr int32_t kNeg = -100, kLow = 0, kMid = 100, kHigh = 1000, kVeryHigh = 10000;
struct Req {
  int64_t cpu, mem;
};
constexpr Req kSmall{100, 100}, kMedium{200, 200}, kLarge{300, 300}, kVeryLarge{500, 500};

// epochTime<n>: n nanoseconds after the Unix epoch.
std::optional<int64_t> Epoch(int n) { return n; }

struct PodSpec {
  std::string name;
  std::string node;  // empty: the preemptor
  int32_t priority;
  Req req;
  std::optional<int64_t> start_time = Epoch(0);
  std::vector<std::pair<std::string, std::string>> labels = {};
};

class DefaultPreemptionTest : public ::testing::Test {
 protected:
  void AddNodes(const std::vector<std::string>& names, Req capacity = kVeryLarge) {
    for (const auto& n : names) {
      state_->UpsertNode(
          NodeBuilder(state_->interner(), n).Capacity(capacity.cpu, capacity.mem, 32).Build());
    }
  }
  std::shared_ptr<Pod> MakePod(const PodSpec& s) {
    PodBuilder b(state_->interner(), s.name);
    b.Priority(s.priority).Container(s.req.cpu, s.req.mem);
    for (const auto& [k, v] : s.labels) b.Label(k, v);
    if (!s.node.empty()) b.NodeName(s.node);
    auto p = std::make_shared<Pod>(*b.Build());
    p->uid = s.name;
    p->start_time = s.start_time;
    return p;
  }
  void AddPods(const std::vector<PodSpec>& pods) {
    for (const auto& s : pods) state_->UpsertPod(MakePod(s));
  }
  static Profile MakeProfile(DefaultPreemptionArgs args = {}) {
    Profile p("default-scheduler");
    p.Add(std::make_unique<NodeResourcesFit>(NodeResourcesFitArgs{}));
    p.Add(std::make_unique<DefaultPreemption>(args));
    return p;
  }
  static std::vector<std::string> Names(const std::vector<std::shared_ptr<const Pod>>& pods) {
    std::vector<std::string> out;
    for (const auto& p : pods) out.push_back(p->name);
    return out;
  }

  std::unique_ptr<ClusterState> state_ = std::make_unique<ClusterState>();
};

TEST_F(DefaultPreemptionTest, SelectBestCandidate) {
  struct Case {
    const char* name;
    std::vector<std::string> nodes;
    int32_t priority;
    std::vector<PodSpec> pods;
    std::set<std::string> want;  // any of these
  };
  const Case cases[] = {
      {"a pod that fits on both nodes when lower priority pods are preempted",
       {"node1", "node2"},
       kHigh,
       {{"p1", "node1", kMid, kLarge}, {"p2", "node2", kMid, kLarge}},
       {"node1", "node2"}},
      {"node with min highest priority pod is picked",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kMid, kMedium},
        {"p1.2", "node1", kMid, kLarge},
        {"p2.1", "node2", kMid, kMedium},
        {"p2.2", "node2", kLow, kMedium},
        {"p3.1", "node3", kLow, kMedium},
        {"p3.2", "node3", kLow, kMedium}},
       {"node3"}},
      {"when highest priorities are the same, minimum sum of priorities is picked",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kMid, kMedium},
        {"p1.2", "node1", kMid, kLarge},
        {"p2.1", "node2", kMid, kLarge},
        {"p2.2", "node2", kLow, kMedium},
        {"p3.1", "node3", kMid, kMedium},
        {"p3.2", "node3", kMid, kMedium}},
       {"node2"}},
      {"when highest priority and sum are the same, minimum number of pods is picked",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kMid, kSmall},
        {"p1.2", "node1", kNeg, kSmall},
        {"p1.3", "node1", kMid, kSmall},
        {"p1.4", "node1", kNeg, kSmall},
        {"p2.1", "node2", kMid, kLarge},
        {"p2.2", "node2", kNeg, kMedium},
        {"p3.1", "node3", kMid, kMedium},
        {"p3.2", "node3", kNeg, kSmall},
        {"p3.3", "node3", kLow, kSmall}},
       {"node2"}},
      {"sum of adjusted priorities is considered",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kMid, kSmall},
        {"p1.2", "node1", kNeg, kSmall},
        {"p1.3", "node1", kNeg, kSmall},
        {"p2.1", "node2", kMid, kLarge},
        {"p2.2", "node2", kNeg, kMedium},
        {"p3.1", "node3", kMid, kMedium},
        {"p3.2", "node3", kNeg, kSmall},
        {"p3.3", "node3", kLow, kSmall}},
       {"node2"}},
      {"non-overlapping lowest high priority, sum priorities, and number of pods",
       {"node1", "node2", "node3", "node4"},
       kVeryHigh,
       {{"p1.1", "node1", kMid, kSmall},
        {"p1.2", "node1", kLow, kSmall},
        {"p1.3", "node1", kLow, kSmall},
        {"p2.1", "node2", kHigh, kLarge},
        {"p3.1", "node3", kMid, kMedium},
        {"p3.2", "node3", kLow, kSmall},
        {"p3.3", "node3", kLow, kSmall},
        {"p3.4", "node3", kLow, kMedium},
        {"p4.1", "node4", kMid, kMedium},
        {"p4.2", "node4", kMid, kSmall},
        {"p4.3", "node4", kMid, kSmall},
        {"p4.4", "node4", kNeg, kSmall}},
       {"node1"}},
      {"same priority, same number of victims, different start time for each node's pod",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kMid, kMedium, Epoch(2)},
        {"p1.2", "node1", kMid, kMedium, Epoch(2)},
        {"p2.1", "node2", kMid, kMedium, Epoch(3)},
        {"p2.2", "node2", kMid, kMedium, Epoch(3)},
        {"p3.1", "node3", kMid, kMedium, Epoch(1)},
        {"p3.2", "node3", kMid, kMedium, Epoch(1)}},
       {"node2"}},
      {"same priority, same number of victims, different start time for all pods",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kMid, kMedium, Epoch(4)},
        {"p1.2", "node1", kMid, kMedium, Epoch(2)},
        {"p2.1", "node2", kMid, kMedium, Epoch(5)},
        {"p2.2", "node2", kMid, kMedium, Epoch(1)},
        {"p3.1", "node3", kMid, kMedium, Epoch(3)},
        {"p3.2", "node3", kMid, kMedium, Epoch(6)}},
       {"node3"}},
      {"different priority, same number of victims, different start time for all pods",
       {"node1", "node2", "node3"},
       kHigh,
       {{"p1.1", "node1", kLow, kMedium, Epoch(4)},
        {"p1.2", "node1", kMid, kMedium, Epoch(2)},
        {"p2.1", "node2", kMid, kMedium, Epoch(6)},
        {"p2.2", "node2", kLow, kMedium, Epoch(1)},
        {"p3.1", "node3", kLow, kMedium, Epoch(3)},
        {"p3.2", "node3", kMid, kMedium, Epoch(5)}},
       {"node2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    state_ = std::make_unique<ClusterState>();
    AddNodes(c.nodes);
    AddPods(c.pods);
    for (uint64_t seed : {1, 2, 3}) {
      Scheduler s(MakeProfile(), seed);
      const auto pod = MakePod({"p", "", c.priority, kVeryLarge});
      const ScheduleResult r = s.Schedule(*pod, *state_);
      EXPECT_EQ(r.node, "");
      EXPECT_TRUE(c.want.count(r.nominated_node)) << r.nominated_node << ": " << r.message;
      EXPECT_FALSE(r.victims.empty());
      EXPECT_EQ(r.post_filter_msg, "");
    }
  }
}

TEST_F(DefaultPreemptionTest, VictimsAreTheLeastImportantAndSortedMostImportantFirst) {
  // 500m node holding 4 x 100m (one per priority) + 100m of higher
  // priority: a 300m preemptor must evict 3 of the 4 lower ones; the most
  // important (mid, then the older low) are reprieved first.
  AddNodes({"node1"});
  AddPods({{"keep", "node1", kVeryHigh, kSmall},
           {"mid", "node1", kMid, kSmall},
           {"low-old", "node1", kLow, kSmall, Epoch(1)},
           {"low-new", "node1", kLow, kSmall, Epoch(2)},
           {"neg", "node1", kNeg, kSmall}});
  Scheduler s(MakeProfile(), 1);
  const ScheduleResult r = s.Schedule(*MakePod({"p", "", kHigh, {300, 300}}), *state_);
  EXPECT_EQ(r.nominated_node, "node1");
  EXPECT_EQ(Names(r.victims), (std::vector<std::string>{"low-old", "low-new", "neg"}));
  EXPECT_EQ(r.message, "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory.");
}

TEST_F(DefaultPreemptionTest, PdbViolations) {
  // TestDryRunPreemption's PDB cases: node1 holds two app=foo pods that
  // must both go.
  struct Case {
    const char* name;
    int32_t allowed;
    std::vector<std::string> disrupted;
    int64_t want_violations;
  };
  const Case cases[] = {
      {"preemption with violation of same pdb", 1, {}, 1},
      {"preemption with violation of the pdb with pod whose eviction was processed", 1,
       {"p1.2"}, 0},
      {"preemption with violation of both pdbs' budget", 0, {}, 2},
      {"budget covers both", 2, {}, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    state_ = std::make_unique<ClusterState>();
    AddNodes({"node1"});
    AddPods({{"p1.1", "node1", kMid, kMedium, Epoch(0), {{"app", "foo"}}},
             {"p1.2", "node1", kLow, kMedium, Epoch(0), {{"app", "foo"}}}});
    auto pdb = std::make_shared<PodDisruptionBudget>();
    pdb->ns = "default";
    pdb->name = "pdb";
    pdb->selector.emplace().requirements.push_back(
        testing::Req(state_->interner(), "app", SelectorOp::kIn, {"foo"}));
    pdb->disruptions_allowed = c.allowed;
    pdb->disrupted_pods = c.disrupted;
    state_->UpsertPdb(pdb);

    const Profile profile = MakeProfile();
    Mt19937_64 rng(1);
    const Framework fw(profile, *state_, nullptr, rng);
    const auto pod = MakePod({"p", "", kHigh, kVeryLarge});
    CycleState cs(profile.num_slots());
    PreFilterResult ignored;
    ASSERT_TRUE(profile.pre_filter()[0]->PreFilter(cs, *pod, *state_, &ignored).IsSuccess());
    NodeInfo node = *state_->FindNode("node1");
    const std::vector<const PodDisruptionBudget*> pdbs = {pdb.get()};
    Victims v;
    const DefaultPreemption pl(DefaultPreemptionArgs{});
    ASSERT_TRUE(pl.SelectVictimsOnNode(fw, cs, *pod, node, pdbs, &v).IsSuccess());
    EXPECT_EQ(Names(v.pods), (std::vector<std::string>{"p1.1", "p1.2"}));
    EXPECT_EQ(v.num_pdb_violations, c.want_violations);
    // The original node is untouched.
    EXPECT_EQ(state_->FindNode("node1")->pods().size(), 2u);
  }
}

TEST_F(DefaultPreemptionTest, NonViolatingNodeIsPreferred) {
  AddNodes({"node1", "node2"});
  AddPods({{"a", "node1", kLow, kVeryLarge, Epoch(0), {{"app", "foo"}}},
           {"b", "node2", kMid, kVeryLarge}});
  auto pdb = std::make_shared<PodDisruptionBudget>();
  pdb->ns = "default";
  pdb->name = "pdb";
  pdb->selector.emplace().requirements.push_back(
      testing::Req(state_->interner(), "app", SelectorOp::kIn, {"foo"}));
  state_->UpsertPdb(pdb);
  Scheduler s(MakeProfile(), 1);
  // Without the PDB node1 (lower victim priority) would win.
  EXPECT_EQ(s.Schedule(*MakePod({"p", "", kHigh, kLarge}), *state_).nominated_node, "node2");
  state_->RemovePdb("default/pdb");
  EXPECT_EQ(s.Schedule(*MakePod({"p", "", kHigh, kLarge}), *state_).nominated_node, "node1");
}

TEST_F(DefaultPreemptionTest, MessagesAndTheNodesThatMayHelp) {
  // A 450m pod: node1 (200m free) holds only an equal-priority pod, node2
  // (400m free) a lower one, "tiny" is smaller than the pod (unresolvable:
  // not dry-run).
  AddNodes({"node1", "node2"});
  AddNodes({"tiny"}, {100, 100});
  AddPods({{"same", "node1", kHigh, kLarge}, {"low", "node2", kLow, kSmall}});
  Scheduler s(MakeProfile(), 1);
  const ScheduleResult r = s.Schedule(*MakePod({"p", "", kHigh, {450, 450}}), *state_);
  EXPECT_EQ(r.nominated_node, "node2");
  EXPECT_EQ(Names(r.victims), std::vector<std::string>{"low"});
  // Success adds nothing to the FitError text.
  EXPECT_EQ(r.message, "0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.");

  const ScheduleResult none = s.Schedule(*MakePod({"q", "", kLow, {450, 450}}), *state_);
  EXPECT_EQ(none.nominated_node, "");
  EXPECT_TRUE(none.victims.empty());
  EXPECT_EQ(none.message,
            "0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory. preemption: 0/3 "
            "nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption "
            "victims found for incoming pod.");
}

TEST_F(DefaultPreemptionTest, PodEligibleToPreemptOthers) {
  AddNodes({"node1"});
  auto victim = MakePod({"v", "node1", kLow, kSmall});
  victim->terminating = true;
  victim->disruption_target_by_scheduler = true;
  state_->UpsertPod(victim);
  auto other = MakePod({"o", "node1", kLow, kSmall});
  other->terminating = true;  // terminating, but not because of preemption
  const Profile profile = MakeProfile();
  Mt19937_64 rng(1);
  const Framework fw(profile, *state_, nullptr, rng);
  const DefaultPreemption pl(DefaultPreemptionArgs{});

  auto pod = MakePod({"p", "", kHigh, kSmall});
  EXPECT_EQ(pl.PodEligibleToPreemptOthers(fw, *pod, Code::kUnschedulable), "");
  pod->nominated_node_name = "node1";
  EXPECT_EQ(pl.PodEligibleToPreemptOthers(fw, *pod, Code::kUnschedulable),
            "not eligible due to a terminating pod on the nominated node.");
  // The nominated node cannot help any more: preempt again elsewhere.
  EXPECT_EQ(pl.PodEligibleToPreemptOthers(fw, *pod, Code::kUnschedulableAndUnresolvable), "");
  pod->preempt_never = true;
  EXPECT_EQ(pl.PodEligibleToPreemptOthers(fw, *pod, Code::kUnschedulableAndUnresolvable),
            "not eligible due to preemptionPolicy=Never.");

  state_->RemovePod("default/v");
  state_->UpsertPod(other);
  pod->preempt_never = false;
  EXPECT_EQ(pl.PodEligibleToPreemptOthers(fw, *pod, Code::kUnschedulable), "");
}

TEST_F(DefaultPreemptionTest, PreemptionPolicyNeverMessage) {
  AddNodes({"node1"});
  AddPods({{"low", "node1", kLow, kVeryLarge}});
  Scheduler s(MakeProfile(), 1);
  auto pod = MakePod({"p", "", kHigh, kSmall});
  pod->preempt_never = true;
  const ScheduleResult r = s.Schedule(*pod, *state_);
  EXPECT_EQ(r.nominated_node, "");
  EXPECT_EQ(r.message,
            "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. preemption: not "
            "eligible due to preemptionPolicy=Never.");
}

TEST_F(DefaultPreemptionTest, CalculateNumCandidates) {
  struct Case {
    DefaultPreemptionArgs args;
    int32_t nodes, want;
  };
  const Case cases[] = {
      {{10, 100}, 10, 10},    {{10, 100}, 1000, 100}, {{10, 100}, 5000, 500},
      {{40, 0}, 10, 4},       {{0, 3}, 10, 3},        {{100, 0}, 7, 7},
      {{10, 100}, 0, 0},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(DefaultPreemption(c.args).CalculateNumCandidates(c.nodes), c.want)
        << c.args.min_candidate_nodes_percentage << "/" << c.args.min_candidate_nodes_absolute
        << " of " << c.nodes;
  }
}

TEST_F(DefaultPreemptionTest, CandidateOffsetIsSeeded) {
  // One candidate wanted, four equal nodes: the random offset decides, the
  // same seed always the same way, and different seeds reach different nodes.
  AddNodes({"node1", "node2", "node3", "node4"});
  AddPods({{"a", "node1", kLow, kVeryLarge},
           {"b", "node2", kLow, kVeryLarge},
           {"c", "node3", kLow, kVeryLarge},
           {"d", "node4", kLow, kVeryLarge}});
  std::set<std::string> seen;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Scheduler a(MakeProfile({0, 1}), seed), b(MakeProfile({0, 1}), seed);
    const auto pod = MakePod({"p", "", kHigh, kSmall});
    const std::string na = a.Schedule(*pod, *state_).nominated_node;
    EXPECT_EQ(na, b.Schedule(*pod, *state_).nominated_node);
    seen.insert(na);
  }
  EXPECT_GT(seen.size(), 1u);
}

// A Filter plugin that fails with an Error on the nodes of `errors` once
// they hold no pod: never in the cycle's Filter (every node there still has
// its pods), only in DefaultPreemption's dry run, after the victims'
// removal (the reprieves add pods back, so it passes again then).
class ErrorsWhenEmptied : public FilterPlugin {
 public:
  explicit ErrorsWhenEmptied(std::map<std::string, std::string> errors)
      : errors_(std::move(errors)) {}
  std::string_view Name() const override { return "ErrorsWhenEmptied"; }
  Status Filter(const CycleState&, const Pod&, const NodeInfo& node) const override {
    const auto it = errors_.find(node.node()->name);
    if (it == errors_.end() || !node.pods().empty()) return Status();
    return Status::Error(it->second);
  }

 private:
  std::map<std::string, std::string> errors_;
};

// The dry run's Filter Errors (DryRunPreemption's errs): with no candidate
// they end the PostFilter as one Error, utilerrors.NewAggregate of the
// wrapped messages ("[a, b]", duplicates once, one alone unbracketed),
// which becomes the FitError's preemption part (preemption.go Preempt:
// `if err != nil && len(candidates) == 0 { return nil, fwk.AsStatus(err) }`;
// schedule_one.go keeps a PostFilter Error's message as PostFilterMsg,
// which FitError.Error appends as " %v", without a period);
// with a candidate they are dropped and the pod is nominated.
TEST_F(DefaultPreemptionTest, DryRunFilterErrorsAggregate) {
  // Every node is full of a low-priority pod, but "same" holds an
  // equal-priority one (no victims: UnschedulableAndUnresolvable).
  AddNodes({"node1", "node2", "node3", "same"});
  AddPods({{"a", "node1", kLow, kVeryLarge},
           {"b", "node2", kLow, kVeryLarge},
           {"c", "node3", kLow, kVeryLarge},
           {"s", "same", kHigh, kVeryLarge}});
  auto schedule = [&](std::map<std::string, std::string> errors, uint64_t seed) {
    Profile p = MakeProfile();
    p.Add(std::make_unique<ErrorsWhenEmptied>(std::move(errors)));
    return Scheduler(std::move(p), seed).Schedule(*MakePod({"p", "", kHigh, kSmall}), *state_);
  };
  const std::string fit = "0/4 nodes are available: 4 Insufficient cpu, 4 Insufficient memory.";
  auto wrapped = [](const std::string& m) {
    return "running \"ErrorsWhenEmptied\" filter plugin: " + m;
  };
  // upstream's checkNode order: the Unschedulable nodes from a random
  // offset, round; "same" adds no error.
  std::set<std::string> rotations;
  const std::vector<std::string> errs = {wrapped("node1 broken"), wrapped("node2 broken"),
                                         wrapped("node3 broken")};
  for (int i = 0; i < 3; ++i) {
    rotations.insert(fit + " preemption: [" + errs[i] + ", " + errs[(i + 1) % 3] + ", " +
                     errs[(i + 2) % 3] + "]");
  }
  std::set<std::string> seen;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    // Three errors and a node without victims: no candidate; the cycle is
    // still a FitError (not an error), its preemption part the aggregate.
    ScheduleResult r = schedule(
        {{"node1", "node1 broken"}, {"node2", "node2 broken"}, {"node3", "node3 broken"}}, seed);
    EXPECT_FALSE(r.error);
    EXPECT_EQ(r.nominated_node, "");
    EXPECT_TRUE(r.victims.empty());
    EXPECT_TRUE(rotations.count(r.message)) << r.message;
    seen.insert(r.message);
    // Two of the three with the same text: it appears once.
    r = schedule({{"node1", "node1 broken"}, {"node2", "node1 broken"}, {"node3", "node3 broken"}},
                 seed);
    EXPECT_TRUE(r.message == fit + " preemption: [" + errs[0] + ", " + errs[2] + "]" ||
                r.message == fit + " preemption: [" + errs[2] + ", " + errs[0] + "]")
        << r.message;
    // The same text on every node: one message, no brackets.
    r = schedule({{"node1", "down"}, {"node2", "down"}, {"node3", "down"}}, seed);
    EXPECT_EQ(r.message, fit + " preemption: " + wrapped("down"));
    // One error, and a candidate (node3): the error is dropped, node3 is
    // nominated and the message has no preemption part.
    r = schedule({{"node1", "node1 broken"}, {"node2", "node2 broken"}}, seed);
    EXPECT_FALSE(r.error);
    EXPECT_EQ(r.nominated_node, "node3");
    EXPECT_EQ(Names(r.victims), std::vector<std::string>{"c"});
    EXPECT_EQ(r.message, fit);
  }
  EXPECT_EQ(seen, rotations);  // the offset reaches every order
}

// PreFilter extensions that keep, per node, how many pods were added (+)
// or removed (-) since PreFilter, and a Filter that rejects a node unless
// that count and the node's pods agree and every other node's count is 0.
// So a dry run or nominated-pods pass that started from anything but a
// fresh copy of the node and a fresh clone of the cycle's state (leftovers
// of an earlier candidate or pass) rejects the node.
class CountsPodChanges : public PreFilterPlugin, public FilterPlugin {
 public:
  struct Data : StateData {
    std::map<std::string, int64_t> pods_at_prefilter;
    std::map<std::string, int64_t> delta;
  };
  std::string_view Name() const override { return "CountsPodChanges"; }
  Status PreFilter(CycleState& state, const Pod&, const ClusterState& snapshot,
                   PreFilterResult*) const override {
    auto d = std::make_unique<Data>();
    for (const NodeInfo* n : snapshot.NodeList()) {
      d->pods_at_prefilter[n->node()->name] = static_cast<int64_t>(n->pods().size());
    }
    state.Write(slot(), std::move(d));
    return Status();
  }
  bool HasPreFilterExtensions() const override { return true; }
  Status AddPod(CycleState& state, const Pod&, const Pod&, const NodeInfo& node) const override {
    ++state.CopyOnWrite<Data>(slot())->delta[node.node()->name];
    return Status();
  }
  Status RemovePod(CycleState& state, const Pod&, const Pod&,
                   const NodeInfo& node) const override {
    --state.CopyOnWrite<Data>(slot())->delta[node.node()->name];
    return Status();
  }
  Status Filter(const CycleState& state, const Pod&, const NodeInfo& node) const override {
    const Data& d = *state.Read<Data>(slot());
    const std::string& name = node.node()->name;
    for (const auto& [n, delta] : d.delta) {
      if (n != name && delta != 0) return Status(Code::kUnschedulable, "another node's pods");
    }
    const auto it = d.delta.find(name);
    const int64_t delta = it == d.delta.end() ? 0 : it->second;
    if (d.pods_at_prefilter.at(name) + delta != static_cast<int64_t>(node.pods().size())) {
      return Status(Code::kUnschedulable, "pods and state disagree");
    }
    return Status();
  }
};

using testing::MapNominator;

// Each candidate's dry run, and each nominated-pods pass, starts from the
// snapshot's node and the cycle's state, whatever the order of the
// candidates (the offset) and whatever ran before (the dry run reuses one
// NodeInfo and one CycleState for all its candidates, the nominated-pods
// pass a per-thread pair).
TEST_F(DefaultPreemptionTest, EachDryRunStartsFromTheSnapshotAndTheCycleState) {
  AddNodes({"node1", "node2"});
  AddNodes({"node3"}, {800, 800});
  AddPods({{"a1", "node1", kLow, kMedium, Epoch(1)},
           {"a2", "node1", kLow, kMedium, Epoch(2)},
           {"b1", "node2", kMid, kSmall, Epoch(1)},
           {"b2", "node2", kLow, kLarge, Epoch(5)},
           {"c1", "node3", kLow, kLarge, Epoch(1)},
           {"c2", "node3", kLow, kLarge, Epoch(2)}});
  // node3 fits the pod only without both its pods, since a pod as
  // important as the preemptor is nominated there.
  MapNominator nominator;
  nominator.pods["node3"] = {MakePod({"n3", "", kHigh, kLarge})};
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    Profile p = MakeProfile({0, 100});  // every node is dry-run
    p.Add(std::make_unique<CountsPodChanges>());
    Scheduler s(std::move(p), seed);
    const ScheduleResult r = s.Schedule(*MakePod({"p", "", kHigh, kLarge}), *state_, &nominator);
    // node1 loses a2, node2 b2, node3 both: node2's victim started last.
    EXPECT_EQ(r.nominated_node, "node2");
    EXPECT_EQ(Names(r.victims), std::vector<std::string>{"b2"});
    EXPECT_EQ(r.message, "0/3 nodes are available: 3 Insufficient cpu, 3 Insufficient memory.");
  }
}

TEST(PickOneNodeForPreemptionTest, StartTimeTieBreakAndFirstWins) {
  Interner in;
  auto pod = [&](int32_t prio, std::optional<int64_t> start) {
    auto p = std::make_shared<Pod>(*PodBuilder(in, "x").Priority(prio).Build());
    p->start_time = start;
    return std::shared_ptr<const Pod>(p);
  };
  const PreemptionCandidate c[] = {
      {nullptr, {{pod(kMid, Epoch(1))}, 0}},
      {nullptr, {{pod(kMid, std::nullopt)}, 0}},  // no start time: "now", the latest
      {nullptr, {{pod(kMid, std::nullopt)}, 0}},
  };
  EXPECT_EQ(PickOneNodeForPreemption(c), 1u);
  EXPECT_EQ(PickOneNodeForPreemption(std::span(c, 1)), 0u);
}

// validation_pluginargs_test.go TestValidateDefaultPreemptionArgs: the
// fields of the errors, in order.
TEST(DefaultPreemptionArgsTest, Validation) {
  struct Case {
    std::string name;
    int32_t percentage;
    int32_t absolute;
    std::vector<std::string> want_fields;
  };
  const std::string kPct = "minCandidateNodesPercentage";
  const std::string kAbs = "minCandidateNodesAbsolute";
  const std::vector<Case> cases = {
      {"valid args (default)", 10, 100, {}},
      {"negative minCandidateNodesPercentage", -1, 100, {kPct}},
      {"minCandidateNodesPercentage over 100", 900, 100, {kPct}},
      {"negative minCandidateNodesAbsolute", 20, -1, {kAbs}},
      {"all zero", 0, 0, {kPct, kAbs}},
      {"both negative", -1, -1, {kPct, kAbs}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> fields;
    for (const FieldError& e : DefaultPreemption::ValidateArgs({c.percentage, c.absolute})) {
      fields.push_back(e.field);
    }
    EXPECT_EQ(fields, c.want_fields);
  }
}

}  // namespace
}  // namespace default_preemption_test
}  // namespace sched
