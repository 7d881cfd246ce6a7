// Test fixture for PodTopologySpread: clusters written as short specs,
// after upstream's st.MakeNode / st.MakePod wrappers. Test-only.
#ifndef LIBSCHED_TESTING_POD_TOPOLOGY_SPREAD_TEST_UTIL_H_
#define LIBSCHED_TESTING_POD_TOPOLOGY_SPREAD_TEST_UTIL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libsched/plugins/pod_topology_spread.h"
#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched::pts_test {

// "zone=zone1,node=node-a"; a key without '=' has the empty value.
std::vector<std::pair<std::string, std::string>> ParseLabels(const std::string& spec);

// A constraint; `selector_key` "" is a nil selector, "{}" an empty one,
// anything else Exists(selector_key), as upstream's fooSelector.
struct C {
  int32_t max_skew;
  std::string key;
  std::string selector_key;
  bool hard = true;  // DoNotSchedule
  int32_t min_domains = 1;
  NodeInclusionPolicy affinity = NodeInclusionPolicy::kHonor;
  NodeInclusionPolicy taints = NodeInclusionPolicy::kIgnore;
};
TopologySpreadConstraint Make(Interner& in, const C& c);

struct N {
  std::string name;
  std::string labels;
  bool tainted = false;  // node.kubernetes.io/unschedulable:NoSchedule
};
struct P {
  std::string name;
  std::string node;
  std::string labels;
  std::string ns = "default";
  bool terminating = false;
};

// The incoming pod: labels, constraints, and anything else through `extra`.
struct PodSpec {
  std::string labels;
  std::vector<C> constraints;
  std::function<void(Interner&, testing::PodBuilder&)> extra = nullptr;
};

void AddNodes(ClusterState& cs, const std::vector<N>& nodes);
void AddPods(ClusterState& cs, const std::vector<P>& pods);
std::shared_ptr<const Pod> MakePod(ClusterState& cs, const PodSpec& spec);
std::shared_ptr<const Pod> MakePod(ClusterState& cs, const P& p);

// A Service in `ns` selecting `labels`.
void AddService(ClusterState& cs, const std::string& name, const std::string& labels,
                const std::string& ns = "default");

}  // namespace sched::pts_test

#endif  // LIBSCHED_TESTING_POD_TOPOLOGY_SPREAD_TEST_UTIL_H_
