#include "libsched/state/pod_label_index.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace pod_label_index_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// The index as "ns app=<value>" -> node name -> count.
std::map<std::string, std::map<std::string, int64_t>> Dump(const ClusterState& s) {
  std::map<std::string, std::map<std::string, int64_t>> out;
  const Interner& in = s.interner();
  for (const auto& [key, group] : s.pod_label_index().groups()) {
    const PodLabelIndex::Group& g = *group;
    std::string name = g.sample.ns;
    for (const auto& [k, v] : g.sample.labels.entries()) name += " " + in.Str(k) + "=" + in.Str(v);
    auto& nodes = out[name];
    EXPECT_EQ(g.nodes.size(), g.position.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      EXPECT_EQ(g.position.at(g.nodes[i].first), i);
      nodes[s.NodeAt(g.nodes[i].first)->node()->name] = g.nodes[i].second;
    }
  }
  return out;
}

TEST(PodLabelIndexTest, GroupsFollowPodsAddedChangedAndRemoved) {
  ClusterState s;
  Interner& in = s.interner();
  for (const char* n : {"n1", "n2", "n3"}) s.UpsertNode(NodeBuilder(in, n).Build());
  auto pod = [&](const std::string& name, const std::string& app, const std::string& node,
                 const std::string& ns = "default") {
    s.UpsertPod(PodBuilder(in, name, ns).Label("app", app).NodeName(node).Build());
  };
  pod("a1", "a", "n1");
  pod("a2", "a", "n1");
  pod("a3", "a", "n2");
  pod("b1", "b", "n3");
  pod("c1", "a", "n3", "other");  // same labels, another namespace
  using Want = std::map<std::string, std::map<std::string, int64_t>>;
  EXPECT_EQ(Dump(s), (Want{{"default app=a", {{"n1", 2}, {"n2", 1}}},
                           {"default app=b", {{"n3", 1}}},
                           {"other app=a", {{"n3", 1}}}}));

  // A relabelled pod moves between groups; the last pod of a group or of a
  // node in it takes the entry with it.
  pod("b1", "a", "n3");
  s.RemovePod("default/a3");
  s.RemovePod("default/a1");
  EXPECT_EQ(Dump(s),
            (Want{{"default app=a", {{"n1", 1}, {"n3", 1}}}, {"other app=a", {{"n3", 1}}}}));
  s.RemovePod("default/a2");
  s.RemovePod("default/b1");
  s.RemovePod("other/c1");
  EXPECT_TRUE(s.pod_label_index().groups().empty());
}

// Terminating pods form groups of their own, so PodTopologySpread can skip
// them; a pod that starts terminating moves there.
TEST(PodLabelIndexTest, TerminatingPodsGroupApart) {
  ClusterState s;
  Interner& in = s.interner();
  s.UpsertNode(NodeBuilder(in, "n1").Build());
  s.UpsertPod(PodBuilder(in, "a1").Label("app", "a").NodeName("n1").Build());
  s.UpsertPod(PodBuilder(in, "a2").Label("app", "a").NodeName("n1").Build());
  s.UpsertPod(PodBuilder(in, "a2").Label("app", "a").NodeName("n1").Terminating().Build());
  std::map<bool, int64_t> by_terminating;
  for (const auto& [key, group] : s.pod_label_index().groups()) {
    const PodLabelIndex::Group& g = *group;
    EXPECT_EQ(key.terminating, g.sample.terminating);
    ASSERT_EQ(g.nodes.size(), 1u);
    by_terminating[key.terminating] += g.nodes[0].second;
  }
  EXPECT_EQ(by_terminating, (std::map<bool, int64_t>{{false, 1}, {true, 1}}));
}

}  // namespace
}  // namespace pod_label_index_test
}  // namespace sched
