#include "libsched/ecache/equivalence_cache.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/node_index_bound_cases.h"

namespace sched {
namespace equivalence_cache_test {
namespace {

std::shared_ptr<const Node> NamedNode(const std::string& name) {
  auto n = std::make_shared<Node>();
  n->name = name;
  return n;
}

TEST(EcacheEntryTest, VerdictValidUntilNodeOrKeyChanges) {
  NodeInfo a, b;
  a.SetNode(NamedNode("a"), 1);
  b.SetNode(NamedNode("b"), 2);
  struct Case {
    std::string name;
    // Applied after a verdict for `a` at index 0 was stored with key 7.
    std::function<void(EcacheEntry&, NodeInfo&)> change;
    bool still_cached;
  };
  const std::vector<Case> cases = {
      {"nothing changed", [](EcacheEntry& e, NodeInfo&) { e.BeginFilter(7, 7, 2); }, true},
      {"node generation bumped",
       [](EcacheEntry& e, NodeInfo& n) {
         n.SetNode(NamedNode("a"), 10);
         e.BeginFilter(7, 7, 2);
       },
       false},
      {"other filter key (skipped plugins)",
       [](EcacheEntry& e, NodeInfo&) { e.BeginFilter(8, 8, 2); }, false},
      // Only a live Filter's key moved (FilterPlugin::FilterRunsLive).
      {"other memo key", [](EcacheEntry& e, NodeInfo&) { e.BeginFilter(7, 9, 2); }, true},
      {"node list grew", [](EcacheEntry& e, NodeInfo&) { e.BeginFilter(7, 7, 3); }, true},
      // Slots are NodeInfo::index(): a bound at half the slots or more
      // drops none (EcacheEntryTest.RowsFollowTheBoundDown).
      {"slot bound shrank", [](EcacheEntry& e, NodeInfo&) { e.BeginFilter(7, 7, 1); }, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    NodeInfo node;
    node.SetNode(NamedNode("a"), 5);
    EcacheEntry e;
    size_t failed_at = 0;
    e.BeginFilter(7, 7, 2);
    EXPECT_EQ(e.Verdict(0, node, &failed_at), nullptr);
    e.StoreVerdict(0, node, Status(Code::kUnschedulable, "Insufficient cpu"), 3);
    c.change(e, node);
    const Status* v = e.Verdict(0, node, &failed_at);
    EXPECT_EQ(v != nullptr, c.still_cached);
    if (v != nullptr) {
      EXPECT_EQ(failed_at, 3u);  // the rejecting plugin's index
    }
    // Another NodeInfo at the same index is never served a's verdict.
    EXPECT_EQ(e.Verdict(0, b, &failed_at), nullptr);
  }
}

// Plain successes live in the slot, other verdicts beside it (Slot,
// verdicts_): each index gives back its own verdict, after a slot turned
// from rejected to passed and back, and after the slot bound grew past
// where the first rejection was stored.
TEST(EcacheEntryTest, EachSlotGivesItsOwnVerdict) {
  std::vector<NodeInfo> nodes(6);
  for (size_t i = 0; i < nodes.size(); ++i) {
    nodes[i].SetNode(NamedNode("n" + std::to_string(i)), 1);
  }
  Status fit(Code::kUnschedulable, "Insufficient cpu");
  fit.set_plugin("NodeResourcesFit");
  Status taint(Code::kUnschedulableAndUnresolvable, "untolerated taint");
  taint.set_plugin("TaintToleration");
  EcacheEntry e;
  e.BeginFilter(1, 1, 2);
  e.StoreVerdict(0, nodes[0], Status(), 9);
  e.StoreVerdict(1, nodes[1], fit, 2);
  e.BeginFilter(1, 1, 6);  // the bound grows after a rejection was kept
  e.StoreVerdict(5, nodes[5], taint, 1);
  e.StoreVerdict(3, nodes[3], Status(), 9);
  e.StoreVerdict(4, nodes[4], fit, 2);
  e.StoreVerdict(4, nodes[4], Status(), 9);  // rejected, then passed
  e.StoreVerdict(3, nodes[3], taint, 1);     // passed, then rejected
  struct Want {
    size_t index;
    Code code;
    std::string_view plugin;
    std::string message;
    size_t failed_at;
  };
  const std::vector<Want> wants = {
      {0, Code::kSuccess, "", "", 9},
      {1, Code::kUnschedulable, "NodeResourcesFit", "Insufficient cpu", 2},
      {3, Code::kUnschedulableAndUnresolvable, "TaintToleration", "untolerated taint", 1},
      {4, Code::kSuccess, "", "", 9},
      {5, Code::kUnschedulableAndUnresolvable, "TaintToleration", "untolerated taint", 1},
  };
  for (const Want& w : wants) {
    SCOPED_TRACE(w.index);
    size_t failed_at = 0;
    const Status* v = e.Verdict(w.index, nodes[w.index], &failed_at);
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->code(), w.code);
    EXPECT_EQ(v->plugin(), w.plugin);
    EXPECT_EQ(v->Message(), w.message);
    EXPECT_EQ(failed_at, w.failed_at);
  }
  size_t failed_at = 0;
  EXPECT_EQ(e.Verdict(2, nodes[2], &failed_at), nullptr);  // never stored
}

// TakePassing, the cached walk's run: it takes nodes while each has a
// cached plain success at its index(), and stops before the first that
// has not (rejected, never stored, a bumped generation, an old filter
// key), before `skip`, or after `count`.
// A cluster that scales down: when the node index bound falls under half
// the rows, BeginFilter cuts every row (slots, scores, verdicts, nominated
// verdicts) to it and gives back their room; the verdicts and scores below
// it stay cached, and a row grown again past it starts empty.
TEST(EcacheEntryTest, RowsFollowTheBoundDown) {
  constexpr size_t kRows = 1000;
  constexpr size_t kPlugins = 3;
  std::vector<NodeInfo> nodes(kRows);
  for (size_t i = 0; i < kRows; ++i) nodes[i].SetNode(NamedNode("n" + std::to_string(i)), 1);
  const Status fit(Code::kUnschedulable, "Insufficient cpu");
  const std::vector<uint32_t> positions = {0};
  const YieldedNominations nominated{7, positions};
  for (const testing::BoundFall& c : testing::NodeIndexBoundFalls(kRows)) {
    SCOPED_TRACE(c.name);
    EcacheEntry e;
    e.BeginFilter(1, 1, kRows);
    e.BeginScore(1, kPlugins);
    for (size_t i = 0; i < kRows; ++i) {
      e.StoreVerdict(i, nodes[i], fit, 0);
      e.StoreNominatedVerdict(i, nodes[i], nominated, fit);
      e.MutableRawScores(i)[0] = static_cast<int64_t>(i);
      e.MarkScored(i, nodes[i], {});
    }
    const size_t full = e.RowBytes();
    e.BeginFilter(1, 1, c.bound);
    e.BeginScore(1, kPlugins);
    if (c.cut) {
      EXPECT_LE(e.RowBytes(), c.bound * (full / kRows));
    } else {
      EXPECT_EQ(e.RowBytes(), full);
    }
    size_t failed_at = 0;
    for (const size_t i : {size_t{0}, c.bound / 2, c.bound - 1}) {
      if (i >= c.bound) continue;
      EXPECT_NE(e.Verdict(i, nodes[i], &failed_at), nullptr) << i;
      EXPECT_NE(e.NominatedVerdict(i, nodes[i], nominated), nullptr) << i;
      ASSERT_NE(e.RawScores(i, nodes[i]), nullptr) << i;
      EXPECT_EQ(e.RawScores(i, nodes[i])[0], static_cast<int64_t>(i));
    }
    // Grown again: what was above the bound is gone when trimmed.
    e.BeginFilter(1, 1, kRows);
    e.BeginScore(1, kPlugins);
    const size_t top = kRows - 1;
    EXPECT_EQ(e.Verdict(top, nodes[top], &failed_at) != nullptr, !c.cut);
    EXPECT_EQ(e.NominatedVerdict(top, nodes[top], nominated) != nullptr, !c.cut);
    EXPECT_EQ(e.RawScores(top, nodes[top]) != nullptr, !c.cut);
  }
}

TEST(EcacheEntryTest, TakePassingStopsAtTheFirstNodeThatNeedsMore) {
  std::vector<std::unique_ptr<NodeInfo>> infos;
  for (uint32_t i = 0; i < 6; ++i) {
    infos.push_back(std::make_unique<NodeInfo>(i));
    infos.back()->SetNode(NamedNode("n" + std::to_string(i)), 1);
  }
  struct Case {
    std::string name;
    // Applied after nodes 0-5 were cached as plain successes under key 7.
    std::function<void(EcacheEntry&)> change;
    size_t count;
    int skip;  // index of the node to skip, or -1
    size_t want;
  };
  const std::vector<Case> cases = {
      {"all pass", [](EcacheEntry&) {}, 6, -1, 6},
      {"count first", [](EcacheEntry&) {}, 4, -1, 4},
      {"none asked", [](EcacheEntry&) {}, 0, -1, 0},
      {"rejected", [&](EcacheEntry& e) {
         e.StoreVerdict(3, *infos[3], Status(Code::kUnschedulable, "Insufficient cpu"), 1);
       }, 6, -1, 3},
      {"success with a plugin is not plain", [&](EcacheEntry& e) {
         Status s;
         s.set_plugin("NodeResourcesFit");
         e.StoreVerdict(2, *infos[2], s, 9);
       }, 6, -1, 2},
      {"generation bumped", [&](EcacheEntry&) {
         infos[4]->SetNode(NamedNode("n4"), 2);
       }, 6, -1, 4},
      {"other NodeInfo at the slot", [&](EcacheEntry& e) {
         NodeInfo other(1);
         other.SetNode(NamedNode("x"), 1);
         e.StoreVerdict(1, other, Status(), 9);
       }, 6, -1, 1},
      {"filter key changed", [](EcacheEntry& e) { e.BeginFilter(8, 8, 6); }, 6, -1, 0},
      {"skip", [](EcacheEntry&) {}, 6, 2, 2},
      {"skip the first", [](EcacheEntry&) {}, 6, 0, 0},
      {"skip past count", [](EcacheEntry&) {}, 3, 4, 3},
      {"skip past a rejection", [&](EcacheEntry& e) {
         e.StoreVerdict(1, *infos[1], Status(Code::kUnschedulable, "Insufficient cpu"), 1);
       }, 6, 3, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EcacheEntry e;
    e.BeginFilter(7, 7, 6);
    for (uint32_t i = 0; i < 6; ++i) {
      infos[i]->SetNode(NamedNode("n" + std::to_string(i)), 1);
      e.StoreVerdict(i, *infos[i], Status(), 9);
    }
    c.change(e);
    std::vector<const NodeInfo*> nodes;
    for (const auto& ni : infos) nodes.push_back(ni.get());
    std::vector<const NodeInfo*> out(6, nullptr);
    const NodeInfo* skip = c.skip < 0 ? nullptr : nodes[static_cast<size_t>(c.skip)];
    const size_t took = e.TakePassing(nodes.data(), c.count, skip, out.data());
    EXPECT_EQ(took, c.want);
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(out[i], i < took ? nodes[i] : nullptr) << i;
  }
}

TEST(EcacheEntryTest, CachedReasonsOutliveTheirSource) {
  NodeInfo n;
  n.SetNode(NamedNode("a"), 1);
  EcacheEntry e;
  size_t failed_at = 0;
  e.BeginFilter(0, 0, 1);
  {
    std::string reason = "Insufficient example.com/foo";  // as a plugin's CycleState holds
    Status s(Code::kUnschedulable, std::string_view(reason));
    s.set_plugin("NodeResourcesFit");
    e.StoreVerdict(0, n, s, 5);
    reason.assign(reason.size(), 'x');
  }
  const Status* v = e.Verdict(0, n, &failed_at);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->Message(), "Insufficient example.com/foo");
  EXPECT_EQ(v->plugin(), "NodeResourcesFit");
  EXPECT_EQ(v->code(), Code::kUnschedulable);
}

TEST(EcacheEntryTest, ScoreRowsCountOnlyOnceMarked) {
  NodeInfo n(1);
  n.SetNode(NamedNode("a"), 1);
  const NodeInfo* nodes[] = {&n};
  int64_t total = 0;
  uint8_t flags = 0;
  EcacheEntry e;
  e.BeginFilter(0, 0, 2);
  e.BeginScore(3, 2);
  e.MutableRawScores(1)[0] = 40;
  e.MutableRawScores(1)[1] = 60;
  EXPECT_EQ(e.RawScores(1, n), nullptr);  // a cycle that failed half way
  EXPECT_EQ(e.TakeCachedTotals(nodes, 1, 0, &total, &flags), 0u);
  e.MarkScored(1, n, {.direct_total = 140, .flags = EcacheEntry::kNormalizedNonZero});
  ASSERT_NE(e.RawScores(1, n), nullptr);
  EXPECT_EQ(e.RawScores(1, n)[1], 60);
  // The summary is kept with the row: its total plus what is added.
  ASSERT_EQ(e.TakeCachedTotals(nodes, 1, 5, &total, &flags), 1u);
  EXPECT_EQ(total, 145);
  EXPECT_EQ(flags, EcacheEntry::kNormalizedNonZero);
  e.BeginScore(4, 2);  // e.g. ImageLocality's node counts changed
  EXPECT_EQ(e.RawScores(1, n), nullptr);
  EXPECT_EQ(e.TakeCachedTotals(nodes, 1, 0, &total, &flags), 0u);
}

// TakeCachedTotals stops before the first node without a cached row, or
// after `count`, and ORs the flags of the rows it took only.
TEST(EcacheEntryTest, TakeCachedTotalsStopsAtTheFirstFreshRow) {
  std::vector<std::unique_ptr<NodeInfo>> infos;
  for (uint32_t i = 0; i < 4; ++i) {
    infos.push_back(std::make_unique<NodeInfo>(i));
    infos.back()->SetNode(NamedNode("n" + std::to_string(i)), 1);
  }
  const std::vector<const NodeInfo*> nodes = {infos[0].get(), infos[1].get(), infos[2].get(),
                                              infos[3].get()};
  struct Case {
    std::string name;
    std::vector<bool> marked;  // by node: its row cached
    size_t count;
    size_t want;
    uint8_t want_flags;
  };
  // Row i's total is 10 * (i + 1); row 3 has kDirectOutOfRange, row 1
  // kNormalizedNonZero.
  const std::vector<Case> cases = {
      {"all cached", {true, true, true, true}, 4, 4, 3},
      {"count first", {true, true, true, true}, 1, 1, 0},
      {"fresh row in the middle", {true, true, false, true}, 4, 2,
       EcacheEntry::kNormalizedNonZero},
      {"fresh first", {false, true, true, true}, 4, 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EcacheEntry e;
    e.BeginFilter(0, 0, 4);
    e.BeginScore(1, 1);
    for (size_t i = 0; i < 4; ++i) {
      if (!c.marked[i]) continue;
      const uint8_t f = i == 3 ? EcacheEntry::kDirectOutOfRange
                               : (i == 1 ? EcacheEntry::kNormalizedNonZero : 0);
      e.MarkScored(i, *nodes[i], {.direct_total = 10 * (i + 1), .flags = f});
    }
    std::vector<int64_t> totals(4, -1);
    uint8_t flags = 0;
    EXPECT_EQ(e.TakeCachedTotals(nodes.data(), c.count, 2, totals.data(), &flags), c.want);
    EXPECT_EQ(flags, c.want_flags);
    for (size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(totals[i], i < c.want ? static_cast<int64_t>(10 * (i + 1) + 2) : -1) << i;
    }
  }
}

TEST(EcacheEntryTest, MemoServedOnlyUnderItsKey) {
  NodeInfo n;
  n.SetNode(NamedNode("a"), 1);
  int state = 0;  // stands for the ClusterState
  const FailureMemoKey key{&state, 9, 100, false};
  struct Case {
    std::string name;
    std::function<void(EcacheEntry&, FailureMemoKey&)> change;  // after the memo was stored
    bool served;
  };
  const std::vector<Case> cases = {
      {"nothing changed", [](EcacheEntry&, FailureMemoKey&) {}, true},
      {"same filter key again", [](EcacheEntry& e, FailureMemoKey&) { e.BeginFilter(7, 7, 1); },
       true},
      {"state changed", [](EcacheEntry&, FailureMemoKey& k) { ++k.state_generation; }, false},
      {"other state", [](EcacheEntry&, FailureMemoKey& k) { k.state = &k; }, false},
      {"other priority", [](EcacheEntry&, FailureMemoKey& k) { k.priority = 0; }, false},
      {"preemptionPolicy Never", [](EcacheEntry&, FailureMemoKey& k) { k.preempt_never = true; },
       false},
      {"other filter key", [](EcacheEntry& e, FailureMemoKey&) { e.BeginFilter(8, 8, 1); }, false},
      // The memo holds the live Filters' verdicts too: their key counts.
      {"same rows, other memo key", [](EcacheEntry& e, FailureMemoKey&) { e.BeginFilter(7, 9, 1); },
       false},
      {"other rows, same memo key", [](EcacheEntry& e, FailureMemoKey&) { e.BeginFilter(8, 7, 1); },
       true},
      {"filter key changed and back",
       [](EcacheEntry& e, FailureMemoKey&) {
         e.BeginFilter(8, 8, 1);
         e.BeginFilter(7, 7, 1);
       },
       false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EcacheEntry e;
    e.BeginFilter(7, 7, 1);
    EXPECT_EQ(e.Memo(key), nullptr);
    std::string reason = "Insufficient cpu";  // as a plugin's CycleState holds
    std::vector<NodeFailure> f = {{&n, Status(Code::kUnschedulable, std::string_view(reason))}};
    e.StoreMemo(key, 0, std::move(f), "preemption: not eligible", "0/1 nodes are available",
                {5, 3});
    reason.assign(reason.size(), 'x');
    FailureMemoKey k = key;
    c.change(e, k);
    const FailureMemo* m = e.Memo(k);
    ASSERT_EQ(m != nullptr, c.served);
    if (m == nullptr) continue;
    ASSERT_EQ(m->failures->size(), 1u);
    EXPECT_EQ((*m->failures)[0].node, &n);
    EXPECT_EQ((*m->failures)[0].status.Message(), "Insufficient cpu");  // copied
    EXPECT_EQ(m->post_filter_msg, "preemption: not eligible");
    EXPECT_EQ(m->message, "0/1 nodes are available");
    EXPECT_EQ(m->draws, (std::vector<int64_t>{5, 3}));
  }
}

// StoreMemo keeps each failure's status (the result that shares them
// reads them so), reusing the kept copy of the one before when both view
// the same strings; a status that differs from its neighbour in code,
// plugin, a reason's text or only in where the text lives (equal text,
// another string) is kept on its own, whatever the runs before it.
TEST(EcacheEntryTest, MemoCopiesEachFailuresStatus) {
  std::string cpu = "Insufficient cpu", cpu_again = "Insufficient cpu", mem = "Insufficient memory";
  std::string taint = "node(s) had untolerated taint";
  auto st = [](Code code, std::string_view plugin, std::vector<std::string_view> reasons) {
    Status s(code, reasons);
    s.set_plugin(plugin);
    return s;
  };
  const std::string fit = "NodeResourcesFit", taints = "TaintToleration";
  const Status a = st(Code::kUnschedulable, fit, {cpu});
  struct Case {
    std::string name;
    std::vector<Status> statuses;
  };
  const std::vector<Case> cases = {
      {"one run", {a, a, a}},
      {"another reason", {a, a, st(Code::kUnschedulable, fit, {mem}), a}},
      {"equal text elsewhere", {a, st(Code::kUnschedulable, fit, {cpu_again}), a}},
      {"more reasons", {a, st(Code::kUnschedulable, fit, {cpu, mem}), st(Code::kUnschedulable, fit, {cpu, mem})}},
      {"another code", {a, st(Code::kUnschedulableAndUnresolvable, fit, {cpu})}},
      {"another plugin", {a, st(Code::kUnschedulable, taints, {cpu}), st(Code::kUnschedulable, taints, {taint})}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::unique_ptr<NodeInfo>> infos;
    std::vector<NodeFailure> failures;
    for (size_t i = 0; i < c.statuses.size(); ++i) {
      infos.push_back(std::make_unique<NodeInfo>(static_cast<uint32_t>(i)));
      failures.push_back({infos.back().get(), c.statuses[i]});
    }
    EcacheEntry e;
    e.BeginFilter(7, 7, failures.size());
    int state = 0;
    const FailureMemoKey key{&state, 9, 100, false};
    const auto shared = e.StoreMemo(key, 0, failures, "", "", {});
    const FailureMemo* m = e.Memo(key);
    ASSERT_NE(m, nullptr);
    EXPECT_EQ(shared, m->failures);  // what the cycle's result holds
    ASSERT_EQ(m->failures->size(), failures.size());
    for (size_t i = 0; i < failures.size(); ++i) {
      const Status& got = (*m->failures)[i].status;
      const Status& want = failures[i].status;
      EXPECT_EQ((*m->failures)[i].node, failures[i].node) << i;
      EXPECT_EQ(got.code(), want.code()) << i;
      EXPECT_EQ(got.plugin(), want.plugin()) << i;
      EXPECT_EQ(got.Message(), want.Message()) << i;
      // Copied: no view into the caller's strings.
      for (std::string_view r : got.reasons()) {
        for (const std::string* mine : {&cpu, &cpu_again, &mem, &taint}) {
          EXPECT_NE(r.data(), mine->data()) << i;
        }
      }
    }
  }
}

TEST(EquivalenceCacheTest, CountsAndEvictsLeastRecentlyUsed) {
  EquivalenceCache c(2);
  bool created = false;
  c.Get(1, &created);
  EXPECT_TRUE(created);
  c.Get(2, &created);
  c.Get(1, &created);
  EXPECT_FALSE(created);
  c.Get(3, &created);  // evicts 2, the least recently used
  EXPECT_EQ(c.size(), 2u);
  c.Get(1, &created);
  EXPECT_FALSE(created);
  c.Get(2, &created);
  EXPECT_TRUE(created);
  EXPECT_EQ(c.stats().hits, 2u);
  EXPECT_EQ(c.stats().misses, 4u);
}

}  // namespace
}  // namespace equivalence_cache_test
}  // namespace sched
