// NodeInfo::index() and ClusterState::NodeIndexBound(): the lowest free
// index goes first, and the bound falls when the highest indexes are freed
// (a cluster that scales down) and rises again as nodes come; every change
// is undone with its Batch, and a Clone's changes leave the original as it
// was.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace node_index_test {
namespace {

struct Step {
  // "+n": node n added; "-n": removed; "+n/p": pod p bound to n; "-n/p":
  // that pod removed.
  std::string change;
  size_t bound;    // NodeIndexBound() after it
  int index = -1;  // for "+n" and "+n/p": n's NodeInfo::index() after it
};

void Apply(ClusterState& s, const Step& step) {
  const bool add = step.change[0] == '+';
  const std::string what = step.change.substr(1);
  const size_t slash = what.find('/');
  if (slash == std::string::npos) {
    if (add) {
      s.UpsertNode(testing::NodeBuilder(s.interner(), what).Build());
    } else {
      ASSERT_TRUE(s.RemoveNode(what)) << step.change;
    }
    return;
  }
  const std::string node = what.substr(0, slash);
  const std::shared_ptr<const Pod> pod =
      testing::PodBuilder(s.interner(), what.substr(slash + 1)).NodeName(node).Build();
  if (add) {
    s.UpsertPod(pod);
  } else {
    ASSERT_TRUE(s.RemovePod(PodKey(*pod))) << step.change;
  }
}

void ApplyAndCheck(ClusterState& s, const Step& step) {
  SCOPED_TRACE(step.change);
  Apply(s, step);
  EXPECT_EQ(s.NodeIndexBound(), step.bound);
  if (step.index >= 0) {
    const std::string what = step.change.substr(1);
    const NodeInfo* info = s.FindNodeInfo(what.substr(0, what.find('/')));
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->index(), static_cast<uint32_t>(step.index));
  }
}

// What the indexes look like: the bound, each NodeInfo's index (and that
// NodeAt names it), and the index the next new node would get.
struct Indexes {
  size_t bound = 0;
  std::map<std::string, uint32_t> of;
  uint32_t next = 0;
  bool operator==(const Indexes&) const = default;
};

Indexes Observe(ClusterState& s) {
  Indexes out;
  out.bound = s.NodeIndexBound();
  s.ForEachNodeInfo([&](const std::string& name, const NodeInfo& info) {
    out.of[name] = info.index();
    EXPECT_EQ(s.NodeAtOrNull(info.index()), &info) << name;
  });
  ClusterState::Batch probe(s);  // rolled back
  s.UpsertNode(testing::NodeBuilder(s.interner(), "probe").Build());
  out.next = s.FindNodeInfo("probe")->index();
  return out;
}

struct Case {
  std::string name;
  std::vector<Step> steps;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"the highest go: the bound falls; nodes come: it rises",
       {{"+a", 1, 0}, {"+b", 2, 1}, {"+c", 3, 2}, {"+d", 4, 3}, {"-d", 3}, {"-c", 2},
        {"+e", 3, 2}, {"+f", 4, 3}}},
      {"a free index below the bound goes first, the lowest first",
       {{"+a", 1, 0}, {"+b", 2, 1}, {"+c", 3, 2}, {"+d", 4, 3}, {"-b", 4}, {"-a", 4},
        {"+e", 4, 0}, {"+f", 4, 1}, {"+g", 5, 4}}},
      {"the bound falls past the free indexes right below the top",
       {{"+a", 1, 0}, {"+b", 2, 1}, {"+c", 3, 2}, {"+d", 4, 3}, {"-b", 4}, {"-c", 4},
        {"-d", 1}, {"+e", 2, 1}, {"+f", 3, 2}}},
      {"a free index below a live one stays free as the bound falls",
       {{"+a", 1, 0}, {"+b", 2, 1}, {"+c", 3, 2}, {"+d", 4, 3}, {"+e", 5, 4}, {"-a", 5},
        {"-c", 5}, {"-d", 5}, {"-e", 2}, {"+f", 2, 0}, {"+g", 3, 2}}},
      {"a NodeInfo held by pods keeps its index until they go",
       {{"+a", 1, 0}, {"+b", 2, 1}, {"+b/p", 2, 1}, {"-b", 2}, {"-b/p", 1}, {"+c", 2, 1}}},
      {"pods of an unknown node hold an index too",
       {{"+a", 1, 0}, {"+x/p", 2, 1}, {"-a", 2}, {"-x/p", 0}, {"+b", 1, 0}}},
      {"every node goes, then nodes come back",
       {{"+a", 1, 0}, {"+b", 2, 1}, {"+c", 3, 2}, {"-a", 3}, {"-b", 3}, {"-c", 0},
        {"+d", 1, 0}, {"+e", 2, 1}}},
  };
  return cases;
}

TEST(NodeIndexTest, BoundFallsWhenTheHighestGoAndRisesAgain) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    for (const bool in_batches : {false, true}) {
      SCOPED_TRACE(in_batches ? "each step a committed Batch" : "no Batch");
      ClusterState s;
      for (const Step& step : c.steps) {
        std::optional<ClusterState::Batch> batch;
        if (in_batches) batch.emplace(s);
        ApplyAndCheck(s, step);
        if (batch) batch->Commit();
      }
    }
  }
}

// From every point of each case: the rest of the steps in a Batch that is
// rolled back leave the indexes exactly as they were (the next new node
// included), and so do the same steps in a Clone, which sees the same
// indexes as the original would.
TEST(NodeIndexTest, RollbackAndClonesRestoreTheIndexes) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    for (size_t k = 0; k <= c.steps.size(); ++k) {
      SCOPED_TRACE("after " + std::to_string(k) + " steps");
      ClusterState s;
      for (size_t i = 0; i < k; ++i) Apply(s, c.steps[i]);
      const Indexes before = Observe(s);
      {
        ClusterState::Batch batch(s);
        for (size_t i = k; i < c.steps.size(); ++i) ApplyAndCheck(s, c.steps[i]);
      }  // not committed
      EXPECT_EQ(Observe(s), before);
      std::unique_ptr<ClusterState> clone = s.Clone();
      for (size_t i = k; i < c.steps.size(); ++i) ApplyAndCheck(*clone, c.steps[i]);
      EXPECT_EQ(Observe(s), before);
    }
  }
}

}  // namespace
}  // namespace node_index_test
}  // namespace sched
