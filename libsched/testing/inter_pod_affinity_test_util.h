// Test fixture for InterPodAffinity: a ClusterState built from node specs,
// pods and namespaces, and short term builders. Test-only.
#ifndef LIBSCHED_TESTING_INTER_POD_AFFINITY_TEST_UTIL_H_
#define LIBSCHED_TESTING_INTER_POD_AFFINITY_TEST_UTIL_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/state/cluster_state.h"
#include "libsched/testing/builders.h"

namespace sched::ipa_testing {

using Labels = std::vector<std::pair<std::string, std::string>>;
using PodPtr = std::shared_ptr<const Pod>;

struct NodeSpec {
  std::string name;
  Labels labels;
};

inline void AddNodes(ClusterState& cs, const std::vector<NodeSpec>& nodes) {
  ClusterState::Batch batch(cs);
  for (const NodeSpec& n : nodes) {
    testing::NodeBuilder b(cs.interner(), n.name);
    for (const auto& [k, v] : n.labels) b.Label(k, v);
    cs.UpsertNode(b.Build());
  }
  batch.Commit();
}

inline void AddNamespace(ClusterState& cs, const std::string& name, const Labels& labels) {
  auto ns = std::make_shared<Namespace>();
  ns->name = name;
  ns->name_atom = cs.interner().Intern(name);
  std::vector<LabelSet::Entry> entries;
  for (const auto& [k, v] : labels) {
    entries.push_back({cs.interner().Intern(k), cs.interner().Intern(v)});
  }
  ns->labels = LabelSet(std::move(entries));
  cs.UpsertNamespace(std::move(ns));
}

// A pod builder with labels.
inline testing::PodBuilder MakePod(Interner& in, const std::string& name, const Labels& labels,
                                   const std::string& ns = "default") {
  testing::PodBuilder b(in, name, ns);
  for (const auto& [k, v] : labels) b.Label(k, v);
  return b;
}

inline Requirement In(Interner& in, const std::string& k, std::vector<std::string> v) {
  return testing::Req(in, k, SelectorOp::kIn, std::move(v));
}
inline Requirement NotIn(Interner& in, const std::string& k, std::vector<std::string> v) {
  return testing::Req(in, k, SelectorOp::kNotIn, std::move(v));
}
inline Requirement Exists(Interner& in, const std::string& k) {
  return testing::Req(in, k, SelectorOp::kExists);
}
inline Requirement DoesNotExist(Interner& in, const std::string& k) {
  return testing::Req(in, k, SelectorOp::kDoesNotExist);
}

}  // namespace sched::ipa_testing

#endif  // LIBSCHED_TESTING_INTER_POD_AFFINITY_TEST_UTIL_H_
