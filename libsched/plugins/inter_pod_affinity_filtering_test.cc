// InterPodAffinity PreFilter / Filter / AddPod / RemovePod, with the cases
// of upstream's interpodaffinity/filtering_test.go rewritten as tables.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/testing/inter_pod_affinity_test_util.h"
#include "libsched/plugins/internal/inter_pod_affinity_state.h"

namespace sched {
namespace inter_pod_affinity_filtering_test {
namespace {

using namespace ipa_testing;  // NOLINT: test vocabulary
using testing::PodTerm;
using testing::Selector;

constexpr Code kOk = Code::kSuccess;
constexpr Code kU = Code::kUnschedulable;
constexpr Code kUU = Code::kUnschedulableAndUnresolvable;

struct Want {
  Code code = kOk;
  std::string_view reason = {};
};
const Want kFits{};
const Want kAffinity{kUU, InterPodAffinity::kReasonAffinity};
const Want kAnti{kU, InterPodAffinity::kReasonAntiAffinity};
const Want kExisting{kU, InterPodAffinity::kReasonExistingAntiAffinity};

struct FilterCase {
  std::string name;
  std::function<PodPtr(Interner&)> pod;
  std::function<std::vector<PodPtr>(Interner&)> pods;
  std::vector<NodeSpec> nodes;
  std::vector<Want> want;  // per node; ignored when PreFilter does not succeed
  Code want_pre_filter = kOk;
  // Namespaces with labels, for namespaceSelector.
  std::vector<std::pair<std::string, Labels>> namespaces = {};
};

void RunFilterCase(const FilterCase& c) {
  SCOPED_TRACE(c.name);
  ClusterState cs;
  Interner& in = cs.interner();
  AddNodes(cs, c.nodes);
  for (const auto& [name, labels] : c.namespaces) AddNamespace(cs, name, labels);
  if (c.pods) {
    for (PodPtr p : c.pods(in)) cs.UpsertPod(std::move(p));
  }
  const PodPtr pod = c.pod(in);
  InterPodAffinity pl;
  CycleState state(1);
  PreFilterResult result;
  const Status pre = pl.PreFilter(state, *pod, cs, &result);
  ASSERT_EQ(pre.code(), c.want_pre_filter) << pre.Message();
  EXPECT_TRUE(result.all_nodes);
  if (!pre.IsSuccess()) return;
  ASSERT_EQ(c.want.size(), c.nodes.size());
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    const Status s = pl.Filter(state, *pod, *cs.FindNode(c.nodes[i].name));
    EXPECT_EQ(s.code(), c.want[i].code) << c.nodes[i].name << ": " << s.Message();
    if (c.want[i].code != kOk) {
      EXPECT_EQ(s.Message(), c.want[i].reason) << c.nodes[i].name;
    }
  }
}

const Labels kNode1 = {{"region", "r1"}, {"zone", "z11"}};
const Labels kSecurityScan = {{"service", "securityscan"}};
const Labels kS1 = {{"security", "S1"}};

AffinityTerm ServiceIn(Interner& in, const std::string& topology,
                       std::vector<std::string> values) {
  return PodTerm(in, topology, {In(in, "service", std::move(values))});
}
AffinityTerm ServiceNotIn(Interner& in, const std::string& topology,
                          std::vector<std::string> values) {
  return PodTerm(in, topology, {NotIn(in, "service", std::move(values))});
}

// The existing pod of the single-node cases.
std::vector<PodPtr> ScanPodOnNode1(Interner& in) {
  return {MakePod(in, "existing", kSecurityScan).NodeName("node1").Build()};
}

// TestRequiredAffinitySingleNode.
TEST(InterPodAffinityFilterTest, SingleNode) {
  const std::vector<NodeSpec> node1 = {{"node1", kNode1}};
  std::vector<FilterCase> cases = {
      {"no required affinity and no existing pods: Skip",
       [](Interner& in) { return MakePod(in, "p", {}).Build(); }, nullptr, node1, {}, Code::kSkip},
      {"affinity In matches the existing pod",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(ServiceIn(in, "region", {"securityscan", "value2"}))
             .Build();
       },
       ScanPodOnNode1, node1, {kFits}},
      {"affinity NotIn matches the existing pod",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(ServiceNotIn(in, "region", {"securityscan3", "value3"}))
             .Build();
       },
       ScanPodOnNode1, node1, {kFits}},
      {"affinity does not match a pod of another namespace",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(PodTerm(in, "", {In(in, "service", {"securityscan", "value2"})},
                                          {"DiffNameSpace"}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kSecurityScan, "ns").NodeName("node1").Build()};
       },
       node1, {kAffinity}},
      {"affinity selector does not match the existing pod",
       [](Interner& in) {
         return MakePod(in, "p", kSecurityScan)
             .RequiredPodAffinity(ServiceIn(in, "", {"antivirusscan", "value2"}))
             .Build();
       },
       ScanPodOnNode1, node1, {kAffinity}},
      {"several terms with different operators all match",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(
                 PodTerm(in, "region", {Exists(in, "service"), DoesNotExist(in, "wrongkey")}))
             .RequiredPodAffinity(PodTerm(in, "region", {In(in, "service", {"securityscan"}),
                                                         NotIn(in, "service", {"WrongValue"})}))
             .Build();
       },
       ScanPodOnNode1, node1, {kFits}},
      {"requirements are ANDed: one does not match",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(
                 PodTerm(in, "region", {Exists(in, "service"), DoesNotExist(in, "wrongkey")}))
             .RequiredPodAffinity(PodTerm(in, "region", {In(in, "service", {"securityscan2"}),
                                                         NotIn(in, "service", {"WrongValue"})}))
             .Build();
       },
       ScanPodOnNode1, node1, {kAffinity}},
      {"affinity and anti-affinity both satisfied",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(ServiceIn(in, "region", {"securityscan", "value2"}))
             .RequiredPodAntiAffinity(
                 ServiceIn(in, "node", {"antivirusscan", "value2"}))
             .Build();
       },
       ScanPodOnNode1, node1, {kFits}},
      {"affinity, anti-affinity and the existing pod's anti-affinity satisfied",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(ServiceIn(in, "region", {"securityscan", "value2"}))
             .RequiredPodAntiAffinity(
                 ServiceIn(in, "node", {"antivirusscan", "value2"}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kSecurityScan)
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(
                     ServiceIn(in, "node", {"antivirusscan", "value2"}))
                 .Build()};
       },
       node1, {kFits}},
      {"affinity satisfied, anti-affinity not",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAffinity(ServiceIn(in, "region", {"securityscan", "value2"}))
             .RequiredPodAntiAffinity(
                 ServiceIn(in, "zone", {"securityscan", "value2"}))
             .Build();
       },
       ScanPodOnNode1, node1, {kAnti}},
      {"the existing pod's anti-affinity rejects the pod (symmetry)",
       [](Interner& in) {
         return MakePod(in, "p", kSecurityScan)
             .RequiredPodAffinity(ServiceIn(in, "region", {"securityscan", "value2"}))
             .RequiredPodAntiAffinity(
                 ServiceIn(in, "node", {"antivirusscan", "value2"}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kSecurityScan)
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(
                     ServiceIn(in, "zone", {"securityscan", "value2"}))
                 .Build()};
       },
       node1, {kExisting}},
      {"the pod matches its own NotIn term, but another pod exists elsewhere",
       [](Interner& in) {
         return MakePod(in, "p", kSecurityScan)
             .RequiredPodAffinity(
                 ServiceNotIn(in, "region", {"securityscan", "value2"}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "e", kSecurityScan).NodeName("node2").Build()};
       },
       node1, {kAffinity}},
      {"existing anti-affinity is respected when the pod has none",
       [](Interner& in) { return MakePod(in, "p", kSecurityScan).Build(); },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kSecurityScan)
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(
                     ServiceIn(in, "zone", {"securityscan", "value2"}))
                 .Build()};
       },
       node1, {kExisting}},
      {"existing anti-affinity that does not match the pod: Skip",
       [](Interner& in) { return MakePod(in, "p", kSecurityScan).Build(); },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kSecurityScan)
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(
                     ServiceNotIn(in, "zone", {"securityscan", "value2"}))
                 .Build()};
       },
       node1, {}, Code::kSkip},
      {"the pod's anti-affinity fails before the symmetric check",
       [](Interner& in) {
         return MakePod(in, "p", kSecurityScan)
             .RequiredPodAntiAffinity(PodTerm(in, "region", {Exists(in, "service")}))
             .RequiredPodAntiAffinity(PodTerm(in, "region", {Exists(in, "security")}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kS1)
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "security")}))
                 .Build()};
       },
       node1, {kAnti}},
      {"symmetry a2: only the existing pod's term matches",
       [](Interner& in) {
         return MakePod(in, "p", kS1)
             .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "security")}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", kSecurityScan)
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "service")}))
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "security")}))
                 .Build()};
       },
       node1, {kExisting}},
      {"symmetry b1: the pods partially match each other",
       [](Interner& in) {
         return MakePod(in, "p", {{"abc", ""}, {"xyz", ""}})
             .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "abc")}))
             .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "def")}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", {{"def", ""}, {"xyz", ""}})
                 .NodeName("node1")
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "abc")}))
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "def")}))
                 .Build()};
       },
       node1, {kAnti}},
      {"a parse failure rejects the pod in PreFilter",
       [](Interner& in) {
         Pod p = *MakePod(in, "p", kSecurityScan).Build();
         p.pod_affinity.has_pod_affinity = true;
         p.pod_affinity.parse_error = "requiredAffinityTerms: term 0: invalid label selector";
         return std::make_shared<const Pod>(p);
       },
       nullptr, node1, {}, kUU},
  };
  for (const auto& c : cases) RunFilterCase(c);
}

// TestRequiredAffinitySingleNode's namespaceSelector cases.
TEST(InterPodAffinityFilterTest, NamespaceSelector) {
  const std::vector<NodeSpec> node1 = {{"node1", kNode1}};
  const std::vector<std::pair<std::string, Labels>> namespaces = {
      {"subteam1.team1", {{"team", "team1"}}},
      {"subteam2.team1", {{"team", "team1"}}},
      {"subteam1.team2", {{"team", "team2"}}},
  };
  auto term = [](Interner& in, const std::string& topology, bool all_namespaces) {
    AffinityTerm t = PodTerm(in, topology, {In(in, "service", {"securityscan", "value2"})});
    t.namespace_selector =
        all_namespaces ? Selector({}) : Selector({In(in, "team", {"team1"})});
    return t;
  };
  auto existing_in = [](std::string ns) {
    return [ns](Interner& in) {
      return std::vector<PodPtr>{MakePod(in, "e", kSecurityScan, ns).NodeName("node1").Build()};
    };
  };
  std::vector<FilterCase> cases = {
      {"affinity with a matching namespaceSelector",
       [&](Interner& in) {
         return MakePod(in, "p", kS1).RequiredPodAffinity(term(in, "region", false)).Build();
       },
       existing_in("subteam1.team1"), node1, {kFits}, kOk, namespaces},
      {"affinity with a non-matching namespaceSelector",
       [&](Interner& in) {
         return MakePod(in, "p", kS1).RequiredPodAffinity(term(in, "region", false)).Build();
       },
       existing_in("subteam1.team2"), node1, {kAffinity}, kOk, namespaces},
      {"anti-affinity with a matching namespaceSelector",
       [&](Interner& in) {
         return MakePod(in, "p", kS1, "subteam1.team1")
             .RequiredPodAntiAffinity(term(in, "zone", false))
             .Build();
       },
       existing_in("subteam2.team1"), node1, {kAnti}, kOk, namespaces},
      {"anti-affinity with the all-namespaces selector {}",
       [&](Interner& in) {
         return MakePod(in, "p", kS1, "subteam1.team1")
             .RequiredPodAntiAffinity(term(in, "zone", true))
             .Build();
       },
       existing_in("subteam2.team1"), node1, {kAnti}, kOk, namespaces},
      {"the all-namespaces selector matches a namespace with no Namespace object",
       [&](Interner& in) {
         return MakePod(in, "p", kS1).RequiredPodAntiAffinity(term(in, "zone", true)).Build();
       },
       existing_in("unknown"), node1, {kAnti}, kOk, namespaces},
      {"anti-affinity with a non-matching namespaceSelector",
       [&](Interner& in) {
         return MakePod(in, "p", kS1, "subteam1.team1")
             .RequiredPodAntiAffinity(term(in, "zone", false))
             .Build();
       },
       existing_in("subteam1.team2"), node1, {kFits}, kOk, namespaces},
      {"an existing pod's namespaceSelector reads the incoming pod's Namespace labels",
       [&](Interner& in) { return MakePod(in, "p", kSecurityScan, "subteam1.team1").Build(); },
       [&](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "e", {}, "subteam1.team2")
                                        .NodeName("node1")
                                        .RequiredPodAntiAffinity(term(in, "zone", false))
                                        .Build()};
       },
       node1, {kExisting}, kOk, namespaces},
  };
  for (const auto& c : cases) RunFilterCase(c);
}

// TestRequiredAffinityMultipleNodes.
TEST(InterPodAffinityFilterTest, MultipleNodes) {
  const Labels kFooBar = {{"foo", "bar"}};
  std::vector<FilterCase> cases = {
      {"every node in the matching pod's region fits",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAffinity(PodTerm(in, "region", {In(in, "foo", {"bar"})}))
             .Build();
       },
       [&](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "p1", kFooBar).NodeName("node1").Build()};
       },
       {{"node1", {{"region", "China"}}},
        {"node2", {{"region", "China"}, {"az", "az1"}}},
        {"node3", {{"region", "India"}}}},
       {kFits, kFits, kAffinity}},
      {"the first pod of a self-affine group fits anywhere",
       [](Interner& in) {
         return MakePod(in, "p", {{"foo", "bar"}, {"service", "securityscan"}})
             .RequiredPodAffinity(PodTerm(in, "zone", {In(in, "foo", {"bar"})}))
             .RequiredPodAffinity(ServiceIn(in, "zone", {"securityscan"}))
             .Build();
       },
       [&](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "p1", kFooBar).NodeName("nodeA").Build()};
       },
       {{"nodeA", {{"zone", "az1"}, {"hostname", "h1"}}},
        {"nodeB", {{"zone", "az2"}, {"hostname", "h2"}}}},
       {kFits, kFits}},
      {"the first pod still needs nodes with the topology keys",
       [](Interner& in) {
         return MakePod(in, "p", {{"foo", "bar"}, {"service", "securityscan"}})
             .RequiredPodAffinity(PodTerm(in, "zone", {In(in, "foo", {"bar"})}))
             .RequiredPodAffinity(ServiceIn(in, "zone", {"securityscan"}))
             .Build();
       },
       [&](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "p1", kFooBar).NodeName("nodeA").Build()};
       },
       {{"nodeA", {{"zoneLabel", "az1"}, {"hostname", "h1"}}},
        {"nodeB", {{"zoneLabel", "az2"}, {"hostname", "h2"}}}},
       {kAffinity, kAffinity}},
      {"anti-affinity covers every node of the region",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAntiAffinity(PodTerm(in, "region", {In(in, "foo", {"abc"})}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "e", {{"foo", "abc"}}).NodeName("nodeA").Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"hostname", "nodeB"}}}},
       {kAnti, kAnti}},
      {"anti-affinity matches when any term matches",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAntiAffinity(PodTerm(in, "region", {In(in, "foo", {"abc"})}))
             .RequiredPodAntiAffinity(ServiceIn(in, "zone", {"securityscan"}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "e", {{"foo", "abc"}, {"service", "securityscan"}})
                                        .NodeName("nodeA")
                                        .Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}}},
       {kAnti, kAnti}},
      {"a matching pod in another namespace does not count",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAntiAffinity(PodTerm(in, "region", {In(in, "foo", {"abc"})}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e1", {{"foo", "abc"}}).NodeName("nodeA").Build(),
             MakePod(in, "e2", {{"foo", "abc"}}, "NS1").NodeName("nodeC").Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"hostname", "nodeB"}}},
        {"nodeC", {{"region", "r2"}, {"hostname", "nodeC"}}}},
       {kAnti, kAnti, kFits}},
      {"an existing pod's term with a topology key the nodes lack counts nowhere",
       [](Interner& in) { return MakePod(in, "p", {{"foo", ""}}).Build(); },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e", {})
                 .NodeName("nodeA")
                 .RequiredPodAntiAffinity(PodTerm(in, "invalid-node-label", {Exists(in, "foo")}))
                 .Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}}},
       {}, Code::kSkip},
      {"the incoming pod's term with a topology key the nodes lack",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAntiAffinity(PodTerm(in, "invalid-node-label", {Exists(in, "foo")}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{MakePod(in, "e", {{"foo", ""}}).NodeName("nodeA").Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}}},
       {kFits, kFits}},
      {"existing pods' anti-affinity leaves only nodeC",
       [](Interner& in) { return MakePod(in, "p", {{"foo", ""}, {"bar", ""}}).Build(); },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e1", {})
                 .NodeName("nodeA")
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "foo")}))
                 .Build(),
             MakePod(in, "e2", {})
                 .NodeName("nodeB")
                 .RequiredPodAntiAffinity(PodTerm(in, "zone", {Exists(in, "bar")}))
                 .Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}},
        {"nodeC", {{"region", "r1"}, {"zone", "z3"}, {"hostname", "nodeC"}}}},
       {kExisting, kExisting, kFits}},
      {"affinity terms must all match one pod, and every topology key must exist",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAffinity(PodTerm(in, "region", {Exists(in, "foo")}))
             .RequiredPodAffinity(PodTerm(in, "zone", {Exists(in, "bar")}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e1", {{"foo", ""}}).NodeName("nodeA").Build(),
             MakePod(in, "e2", {{"bar", ""}}).NodeName("nodeB").Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}}},
       {kAffinity, kAffinity}},
      {"one pod matching both terms satisfies the zone it runs in",
       [](Interner& in) {
         return MakePod(in, "p", {})
             .RequiredPodAffinity(PodTerm(in, "region", {Exists(in, "foo")}))
             .RequiredPodAffinity(PodTerm(in, "zone", {Exists(in, "bar")}))
             .Build();
       },
       [](Interner& in) {
         return std::vector<PodPtr>{
             MakePod(in, "e1", {{"foo", ""}, {"bar", ""}}).NodeName("nodeA").Build()};
       },
       {{"nodeA", {{"region", "r1"}, {"zone", "z1"}, {"hostname", "nodeA"}}},
        {"nodeB", {{"region", "r1"}, {"zone", "z2"}, {"hostname", "nodeB"}}}},
       {kFits, kAffinity}},
  };
  for (const auto& c : cases) RunFilterCase(c);
}

// TestPreFilterStateAddRemovePod: PreFilter over the existing pods and then
// AddPod equals PreFilter with the added pod present; RemovePod undoes it.
// The state PreFilter wrote is shared with a clone and must not change.
// existingAntiAffinityCounts as upstream keeps it: the matched index
// entries' counts plus AddPod / RemovePod's changes.
interpodaffinity::TopologyCounts ExistingCounts(const interpodaffinity::PreFilterData& s) {
  interpodaffinity::TopologyCounts m = s.existing_anti_affinity_delta;
  for (const auto* e : s.existing_anti_affinity) {
    for (const auto& [value, count] : e->counts) {
      m.Add(interpodaffinity::TopologyPair(e->term.topology_key, value), count);
    }
  }
  return m;
}

TEST(InterPodAffinityFilterTest, AddAndRemovePod) {
  struct Case {
    std::string name;
    std::function<PodPtr(Interner&)> pending;
    std::function<PodPtr(Interner&)> added;
  };
  const Labels kSelector1 = {{"foo", "bar"}};
  auto anti_foo_bar = [](Interner& in) {
    return PodTerm(in, "region", {In(in, "foo", {"bar"})});
  };
  auto complex = [](Interner& in) {
    return std::vector<AffinityTerm>{
        PodTerm(in, "region", {In(in, "foo", {"bar", "buzz"})}),
        PodTerm(in, "zone", {NotIn(in, "foo", {"bar", "security", "test"})}),
    };
  };
  auto host_foo_bar = [](Interner& in) {
    return PodTerm(in, "hostname", {In(in, "foo", {"bar"})});
  };
  auto added_on_b = [&](Interner& in) {
    return MakePod(in, "added", kSelector1).NodeName("nodeB").Build();
  };
  std::vector<Case> cases = {
      {"anti-affinity counts",
       [&](Interner& in) {
         return MakePod(in, "pending", kSelector1)
             .RequiredPodAntiAffinity(anti_foo_bar(in))
             .Build();
       },
       [&](Interner& in) {
         return MakePod(in, "added", kSelector1)
             .NodeName("nodeB")
             .RequiredPodAntiAffinity(anti_foo_bar(in))
             .Build();
       }},
      {"complex anti-affinity counts",
       [&](Interner& in) {
         auto b = MakePod(in, "pending", kSelector1);
         for (auto& t : complex(in)) b.RequiredPodAntiAffinity(t);
         return b.Build();
       },
       [&](Interner& in) {
         auto b = MakePod(in, "added", kSelector1).NodeName("nodeA");
         for (auto& t : complex(in)) b.RequiredPodAntiAffinity(t);
         return b.Build();
       }},
      {"affinity counts",
       [&](Interner& in) {
         auto b = MakePod(in, "pending", kSelector1);
         for (auto& t : complex(in)) b.RequiredPodAffinity(t);
         return b.Build();
       },
       [&](Interner& in) {
         auto b = MakePod(in, "added", kSelector1).NodeName("nodeA");
         for (auto& t : complex(in)) b.RequiredPodAntiAffinity(t);
         return b.Build();
       }},
      // A hostname key's counts are read from the pod groups until
      // AddPod / RemovePod moves one (DomainCounts::AddGroup).
      {"hostname anti-affinity counts",
       [&](Interner& in) {
         return MakePod(in, "pending", kSelector1).RequiredPodAntiAffinity(host_foo_bar(in)).Build();
       },
       added_on_b},
      {"hostname affinity counts",
       [&](Interner& in) {
         return MakePod(in, "pending", kSelector1).RequiredPodAffinity(host_foo_bar(in)).Build();
       },
       added_on_b},
  };
  const std::vector<NodeSpec> nodes = {
      {"nodeA", {{"region", "r1"}, {"zone", "z11"}, {"hostname", "nodeA"}}},
      {"nodeB", {{"region", "r1"}, {"zone", "z12"}, {"hostname", "nodeB"}}},
      {"nodeC", {{"region", "r2"}, {"zone", "z21"}, {"hostname", "nodeC"}}},
  };
  // Filter's verdicts on every node agree between two states.
  auto same_verdicts = [&](const CycleState& got, const ClusterState& got_cs,
                           const CycleState& want, const ClusterState& want_cs, const Pod& pod) {
    InterPodAffinity pl;
    for (const NodeSpec& n : nodes) {
      EXPECT_EQ(pl.Filter(got, pod, *got_cs.FindNode(n.name)).code(),
                pl.Filter(want, pod, *want_cs.FindNode(n.name)).code())
          << n.name;
    }
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    auto existing = [&](ClusterState& cs) {
      Interner& in = cs.interner();
      cs.UpsertPod(MakePod(in, "p1", kSelector1).NodeName("nodeA").Build());
      cs.UpsertPod(MakePod(in, "p2", {})
                       .NodeName("nodeC")
                       .RequiredPodAntiAffinity(anti_foo_bar(in))
                       .Build());
    };
    InterPodAffinity pl;
    // With the added pod present from the start.
    ClusterState all;
    AddNodes(all, nodes);
    existing(all);
    const PodPtr added_all = c.added(all.interner());
    all.UpsertPod(added_all);
    CycleState want_state(1);
    PreFilterResult r;
    ASSERT_TRUE(pl.PreFilter(want_state, *c.pending(all.interner()), all, &r).IsSuccess());
    const auto& want = *want_state.Read<interpodaffinity::State>(0)->filter;

    ClusterState cs;
    AddNodes(cs, nodes);
    existing(cs);
    const PodPtr pending = c.pending(cs.interner());
    const PodPtr added = c.added(cs.interner());
    CycleState state(1);
    ASSERT_TRUE(pl.PreFilter(state, *pending, cs, &r).IsSuccess());
    const auto before = *state.Read<interpodaffinity::State>(0)->filter;
    CycleState clone = state.Clone();
    const NodeInfo& node = *cs.FindNode(added->node_name);
    ASSERT_TRUE(pl.AddPod(clone, *pending, *added, node).IsSuccess());
    // Atoms differ between the two states' interners only if interning
    // order differs; both interned the same strings in the same order.
    const auto& got = *clone.Read<interpodaffinity::State>(0)->filter;
    EXPECT_EQ(ExistingCounts(got), ExistingCounts(want));
    EXPECT_EQ(got.affinity_counts, want.affinity_counts);
    EXPECT_EQ(got.anti_affinity_counts, want.anti_affinity_counts);
    same_verdicts(clone, cs, want_state, all, *pending);
    const auto& original = *state.Read<interpodaffinity::State>(0)->filter;
    EXPECT_EQ(ExistingCounts(original), ExistingCounts(before))
        << "AddPod changed the state it shares with the original";
    EXPECT_EQ(original.affinity_counts, before.affinity_counts);

    ASSERT_TRUE(pl.RemovePod(clone, *pending, *added, node).IsSuccess());
    const auto& back = *clone.Read<interpodaffinity::State>(0)->filter;
    EXPECT_EQ(ExistingCounts(back), ExistingCounts(before));
    EXPECT_EQ(back.affinity_counts, before.affinity_counts);
    EXPECT_EQ(back.anti_affinity_counts, before.anti_affinity_counts);
    same_verdicts(clone, cs, state, cs, *pending);
  }
}

TEST(InterPodAffinityFilterTest, MissingStateIsAnError) {
  ClusterState cs;
  AddNodes(cs, {{"n", {}}});
  const PodPtr pod = MakePod(cs.interner(), "p", {}).Build();
  InterPodAffinity pl;
  CycleState state(1);
  EXPECT_EQ(pl.Filter(state, *pod, *cs.FindNode("n")).code(), Code::kError);
  EXPECT_EQ(pl.AddPod(state, *pod, *pod, *cs.FindNode("n")).code(), Code::kError);
}

}  // namespace
}  // namespace inter_pod_affinity_filtering_test
}  // namespace sched
