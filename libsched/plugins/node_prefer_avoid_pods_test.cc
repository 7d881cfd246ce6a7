// NodePreferAvoidPods Score, with the cases of upstream's
// nodepreferavoidpods/node_prefer_avoid_pods_test.go.
#include "libsched/plugins/node_prefer_avoid_pods.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_prefer_avoid_pods_test {
namespace {

NodeInfo MakeNode(Interner& in, const std::string& name, std::vector<AvoidPodsEntry> avoid) {
  auto node = std::make_shared<Node>(*testing::NodeBuilder(in, name).Build());
  node->prefer_avoid_pods = std::move(avoid);
  NodeInfo info;
  info.SetNode(std::move(node), 1);
  return info;
}

TEST(NodePreferAvoidPodsTest, Score) {
  Interner in;
  std::vector<NodeInfo> nodes;
  nodes.push_back(MakeNode(in, "machine1", {{"ReplicationController", "abcdef123456"}}));
  nodes.push_back(MakeNode(in, "machine2", {{"ReplicaSet", "qwert12345"}}));
  nodes.push_back(MakeNode(in, "machine3", {}));
  struct Case {
    std::string name;
    std::string kind;  // of the controlling ownerReference; "" for none
    std::string uid;
    std::vector<int64_t> want;
  };
  const std::vector<Case> cases = {
      {"pod managed by ReplicationController should avoid a node",
       "ReplicationController",
       "abcdef123456",
       {0, 100, 100}},
      {"ownership by random controller should be ignored",
       "RandomController",
       "abcdef123456",
       {100, 100, 100}},
      // The decoder records only a controller: true ownerReference.
      {"owner without Controller field set should be ignored", "", "", {100, 100, 100}},
      {"pod managed by ReplicaSet should avoid a node", "ReplicaSet", "qwert12345", {100, 0, 100}},
      // Ours: the kind must match too, not only the uid.
      {"same uid, other kind", "ReplicaSet", "abcdef123456", {100, 100, 100}},
  };
  const NodePreferAvoidPods pl;
  const CycleState state(1);
  for (const Case& c : cases) {
    Pod pod;
    pod.controller_ref_kind = c.kind;
    pod.controller_uid = c.uid;
    std::vector<int64_t> got;
    for (const NodeInfo& n : nodes) {
      int64_t score = -1;
      EXPECT_TRUE(pl.Score(state, pod, n, &score).IsSuccess());
      got.push_back(score);
    }
    EXPECT_EQ(got, c.want) << c.name;
  }
}

}  // namespace
}  // namespace node_prefer_avoid_pods_test
}  // namespace sched
