#include "libsched/plugins/dynamic_resources.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libsched/state/cluster_state.h"

namespace sched {
namespace {

// Upstream's PreFilter skips a pod without claims; the engine refuses one
// with claims on every node, naming the reason (docs/dra.md).
TEST(DynamicResourcesTest, PreFilter) {
  struct Case {
    std::string name;
    bool has_claims;
    Code want;
  };
  const std::vector<Case> cases = {
      {"no claims", false, Code::kSkip},
      {"claims", true, Code::kUnschedulableAndUnresolvable},
  };
  for (const Case& c : cases) {
    Pod pod;
    pod.name = "p";
    pod.has_resource_claims = c.has_claims;
    ClusterState state;
    CycleState cs(1);
    PreFilterResult result;
    const Status got = DynamicResources().PreFilter(cs, pod, state, &result);
    EXPECT_EQ(got.code(), c.want) << c.name;
    if (c.has_claims) {
      EXPECT_EQ(got.Message(), DynamicResources::kUnsupported) << c.name;
    }
    EXPECT_TRUE(result.all_nodes) << c.name;
  }
}

// Nothing the engine receives makes such a pod schedulable.
TEST(DynamicResourcesTest, RegistersNoEvents) {
  ClusterState cluster;
  EXPECT_TRUE(DynamicResources().EventsToRegister(cluster).empty());
}

}  // namespace
}  // namespace sched
