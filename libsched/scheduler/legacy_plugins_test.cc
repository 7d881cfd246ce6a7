// The legacy plugins (ServiceAffinity, SelectorSpread, NodePreferAvoidPods)
// in one profile, run by the Scheduler as a Policy-file profile would run
// them: the framework skips, orders and weighs them as upstream did.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "libsched/plugins/node_prefer_avoid_pods.h"
#include "libsched/testing/pod_topology_spread_test_util.h"
#include "libsched/plugins/selector_spread.h"
#include "libsched/plugins/service_affinity.h"
#include "libsched/scheduler/scheduler.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace legacy_plugins_test {
namespace {

Profile LegacyProfile() {
  Profile p("legacy");
  p.Add(std::make_unique<ServiceAffinity>(ServiceAffinityArgs{{"region"}, {}}));
  p.Add(std::make_unique<SelectorSpread>(), 1);
  p.Add(std::make_unique<NodePreferAvoidPods>(), 10000);
  return p;
}

// n1, n2 in region r1 (zones z1, z2), n3 in r2; a pod of Service foo=bar
// on n1. n2 asks ReplicaSet "rs-uid"'s pods to stay away when `avoid`.
void MakeCluster(ClusterState& cs, bool avoid) {
  pts_test::AddNodes(cs, {{"n1", "region=r1,topology.kubernetes.io/zone=z1"},
                          {"n3", "region=r2,topology.kubernetes.io/zone=z3"}});
  auto n2 = std::make_shared<Node>(*testing::NodeBuilder(cs.interner(), "n2")
                                        .Label("region", "r1")
                                        .Label("topology.kubernetes.io/zone", "z2")
                                        .Build());
  if (avoid) n2->prefer_avoid_pods.push_back({"ReplicaSet", "rs-uid"});
  cs.UpsertNode(std::move(n2));
  pts_test::AddPods(cs, {{"placed", "n1", "foo=bar"}});
  pts_test::AddService(cs, "svc", "foo=bar");
}

std::shared_ptr<const Pod> PendingPod(ClusterState& cs) {
  auto pod =
      std::make_shared<Pod>(*testing::PodBuilder(cs.interner(), "web").Label("foo", "bar").Build());
  pod->controller_ref_kind = "ReplicaSet";
  pod->controller_uid = "rs-uid";
  return pod;
}

TEST(LegacyPluginsTest, ServiceAffinityFiltersSelectorSpreadAndAvoidPodsScore) {
  {
    ClusterState cs;
    MakeCluster(cs, /*avoid=*/false);
    Scheduler s(LegacyProfile(), 1);
    const ScheduleResult r = s.Schedule(*PendingPod(cs), cs);
    ASSERT_FALSE(r.error) << r.message;
    EXPECT_EQ(r.node, "n2");  // SelectorSpread: n1 already runs a pod of the Service
    ASSERT_EQ(r.failures.size(), 1u);
    EXPECT_EQ(r.failures[0].node->node()->name, "n3");
    EXPECT_EQ(r.failures[0].status.plugin(), "ServiceAffinity");
    EXPECT_EQ(r.failures[0].status.Message(), "node(s) didn't match service affinity");
  }
  {
    ClusterState cs;
    MakeCluster(cs, /*avoid=*/true);
    Scheduler s(LegacyProfile(), 1);
    const ScheduleResult r = s.Schedule(*PendingPod(cs), cs);
    ASSERT_FALSE(r.error) << r.message;
    EXPECT_EQ(r.node, "n1");  // NodePreferAvoidPods' weight outweighs the spreading
  }
}

TEST(LegacyPluginsTest, NoFeasibleNodeNamesServiceAffinity) {
  ClusterState cs;
  pts_test::AddNodes(cs, {{"n1", "region=r1"}, {"n2", "region=r2"}});
  pts_test::AddPods(cs, {{"placed", "n1", "foo=bar"}});
  pts_test::AddService(cs, "svc", "foo=bar");
  testing::PodBuilder b(cs.interner(), "web");
  b.Label("foo", "bar").NodeSelector("region", "r2");
  Profile p("legacy");
  p.Add(std::make_unique<ServiceAffinity>(ServiceAffinityArgs{{"region"}, {}}));
  Scheduler s(std::move(p), 1);
  // The pod's own nodeSelector fixes region=r2, so n1 (and the Service's
  // placement there) do not matter; n2 fits.
  EXPECT_EQ(s.Schedule(*b.Build(), cs).node, "n2");
  testing::PodBuilder c(cs.interner(), "web2");
  c.Label("foo", "bar").NodeSelector("region", "r3");
  Profile q("legacy");
  q.Add(std::make_unique<ServiceAffinity>(ServiceAffinityArgs{{"region"}, {}}));
  Scheduler t(std::move(q), 1);
  EXPECT_EQ(t.Schedule(*c.Build(), cs).message,
            "0/2 nodes are available: 2 node(s) didn't match service affinity.");
}

}  // namespace
}  // namespace legacy_plugins_test
}  // namespace sched
