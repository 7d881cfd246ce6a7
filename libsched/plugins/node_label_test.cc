#include "libsched/plugins/node_label.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_label_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;
using Keys = std::vector<std::string>;

// One node labelled foo and bar, as upstream's tests (v1.20).
struct Fixture {
  ClusterState cs;
  std::shared_ptr<const Pod> pod;
  Fixture() {
    cs.UpsertNode(NodeBuilder(cs.interner(), "machine1")
                      .Label("foo", "any value")
                      .Label("bar", "any value")
                      .Build());
    pod = PodBuilder(cs.interner(), "p").Build();
  }
  const NodeInfo& node() const { return *cs.FindNode("machine1"); }
};

// Upstream's TestNodeLabelFilter.
TEST(NodeLabelTest, Filter) {
  struct Case {
    std::string name;
    Keys present, absent;
    Code want;
  };
  const Code kFail = Code::kUnschedulableAndUnresolvable;
  const std::vector<Case> cases = {
      {"present label does not match", {"baz"}, {}, kFail},
      {"absent label does not match", {}, {"baz"}, Code::kSuccess},
      {"one of two present labels matches", {"foo", "baz"}, {}, kFail},
      {"one of two absent labels matches", {}, {"foo", "baz"}, kFail},
      {"all present labels match", {"foo", "bar"}, {}, Code::kSuccess},
      {"all absent labels match", {}, {"foo", "bar"}, kFail},
      {"both present and absent label matches", {"foo"}, {"bar"}, kFail},
      {"neither present nor absent label matches", {"foz"}, {"baz"}, kFail},
      {"present label matches and absent label doesn't match", {"foo"}, {"baz"}, Code::kSuccess},
      {"present label doesn't match and absent label matches", {"foz"}, {"bar"}, kFail},
  };
  for (const Case& c : cases) {
    Fixture f;
    NodeLabelArgs args;
    args.present_labels = c.present;
    args.absent_labels = c.absent;
    NodeLabel pl(args);
    CycleState state(1);
    PreFilterResult r;
    ASSERT_TRUE(pl.PreFilter(state, *f.pod, f.cs, &r).IsSuccess()) << c.name;
    const Status got = pl.Filter(state, *f.pod, f.node());
    EXPECT_EQ(got.code(), c.want) << c.name;
    if (c.want != Code::kSuccess) {
      EXPECT_EQ(got.Message(), "node(s) didn't have the requested labels") << c.name;
    }
  }
}

// "no label": nothing to check, so PreFilter skips the Filter.
TEST(NodeLabelTest, NoLabelsSkipsFilter) {
  Fixture f;
  NodeLabel pl({});
  CycleState state(1);
  PreFilterResult r;
  EXPECT_TRUE(pl.PreFilter(state, *f.pod, f.cs, &r).IsSkip());
}

// Upstream's TestNodeLabelFilterWithoutNode, in our terms: Filter without
// its PreFilter state is an Error.
TEST(NodeLabelTest, FilterWithoutPreFilterIsAnError) {
  Fixture f;
  NodeLabelArgs args;
  args.present_labels = {"foo"};
  NodeLabel pl(args);
  CycleState state(1);
  EXPECT_EQ(pl.Filter(state, *f.pod, f.node()).code(), Code::kError);
  int64_t score;
  EXPECT_EQ(pl.Score(state, *f.pod, f.node(), &score).code(), Code::kError);
}

// Upstream's TestNodeLabelScore (node labels foo and bar).
TEST(NodeLabelTest, Score) {
  struct Case {
    std::string name;
    Keys present, absent;
    int64_t want;
  };
  const std::vector<Case> cases = {
      {"one present label match", {"foo"}, {}, 100},
      {"one present label mismatch", {"somelabel"}, {}, 0},
      {"two present labels match", {"foo", "bar"}, {}, 100},
      {"two present labels mismatch", {"somelabel1", "somelabel2"}, {}, 0},
      {"two present labels only one matches", {"foo", "somelabel"}, {}, 50},
      {"one absent label match", {}, {"foo"}, 0},
      {"one absent label mismatch", {}, {"somelabel"}, 100},
      {"two absent labels match", {}, {"foo", "bar"}, 0},
      {"two absent labels mismatch", {}, {"somelabel1", "somelabel2"}, 100},
      {"two absent labels only one matches", {}, {"foo", "somelabel"}, 50},
      {"two present labels match, two absent labels mismatch",
       {"foo", "bar"},
       {"somelabel1", "somelabel2"},
       100},
      {"two present labels both mismatch, two absent labels both match",
       {"somelabel1", "somelabel2"},
       {"foo", "bar"},
       0},
      {"two present labels one matches, two absent labels mismatch",
       {"foo", "somelabel"},
       {"somelabel1", "somelabel2"},
       75},
  };
  for (const Case& c : cases) {
    Fixture f;
    NodeLabelArgs args;
    args.present_labels_preference = c.present;
    args.absent_labels_preference = c.absent;
    NodeLabel pl(args);
    CycleState state(1);
    ASSERT_TRUE(pl.PreScore(state, *f.pod, f.cs.NodeList(), f.cs).IsSuccess()) << c.name;
    int64_t score = -1;
    ASSERT_TRUE(pl.Score(state, *f.pod, f.node(), &score).IsSuccess()) << c.name;
    EXPECT_EQ(score, c.want) << c.name;
  }
}

// "no label preference": score 0 upstream; here PreScore skips the Score.
TEST(NodeLabelTest, NoPreferenceSkipsScore) {
  Fixture f;
  NodeLabel pl({});
  CycleState state(1);
  EXPECT_TRUE(pl.PreScore(state, *f.pod, f.cs.NodeList(), f.cs).IsSkip());
}

}  // namespace
}  // namespace node_label_test
}  // namespace sched
