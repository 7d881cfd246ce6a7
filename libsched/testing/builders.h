// Test builders for Pods and Nodes (in the spirit of upstream's
// pkg/scheduler/testing wrappers): tests state what matters and nothing else.
// Test-only: never linked into the library.
#ifndef LIBSCHED_TESTING_BUILDERS_H_
#define LIBSCHED_TESTING_BUILDERS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/model/pod_requests.h"

namespace sched::testing {

// Builds a Resource from a cpu in milli-CPU, memory in bytes, and optional
// scalar resources by name.
Resource Res(Interner& in, int64_t milli_cpu, int64_t memory,
             std::vector<std::pair<std::string, int64_t>> scalar = {},
             int64_t pods = 0, int64_t ephemeral = 0);

class NodeBuilder {
 public:
  NodeBuilder(Interner& in, std::string name);
  NodeBuilder& Label(const std::string& k, const std::string& v);
  NodeBuilder& Taint(const std::string& k, const std::string& v, TaintEffect e);
  NodeBuilder& Unschedulable(bool u = true);
  // cpu milli, memory bytes, pods count.
  NodeBuilder& Capacity(int64_t milli_cpu, int64_t memory, int64_t pods = 110);
  NodeBuilder& Scalar(const std::string& name, int64_t v);
  NodeBuilder& EphemeralStorage(int64_t bytes);
  NodeBuilder& Image(std::vector<std::string> names, int64_t size_bytes);
  std::shared_ptr<const Node> Build();

 private:
  Interner& in_;
  Node node_;
  std::vector<LabelSet::Entry> labels_;
};

class PodBuilder {
 public:
  PodBuilder(Interner& in, std::string name, std::string ns = "default");
  PodBuilder& Label(const std::string& k, const std::string& v);
  PodBuilder& NodeName(const std::string& n);
  PodBuilder& Priority(int32_t p);
  PodBuilder& NodeSelector(const std::string& k, const std::string& v);
  // Adds a required node affinity term (terms are ORed).
  PodBuilder& RequiredTerm(NodeSelectorTerm term);
  PodBuilder& PreferredTerm(int32_t weight, NodeSelectorTerm term);
  PodBuilder& Toleration(const std::string& key, TolerationOp op,
                         const std::string& value, TaintEffect effect);
  // Adds a container with these requests; has_cpu/has_memory follow whether
  // the value is >= 0 (pass -1 for "no entry").
  PodBuilder& Container(int64_t milli_cpu, int64_t memory,
                        std::vector<std::pair<std::string, int64_t>> scalar = {},
                        const std::string& image = "");
  PodBuilder& InitContainer(int64_t milli_cpu, int64_t memory, bool sidecar = false);
  PodBuilder& Overhead(int64_t milli_cpu, int64_t memory);
  PodBuilder& HostPort(int32_t port, Protocol proto = Protocol::kTCP,
                       const std::string& ip = "0.0.0.0");
  // Pod (anti-)affinity terms. A term with no namespaces and no
  // namespace_selector gets the pod's namespace, as the decoder does.
  PodBuilder& RequiredPodAffinity(AffinityTerm t);
  PodBuilder& RequiredPodAntiAffinity(AffinityTerm t);
  PodBuilder& PreferredPodAffinity(int32_t weight, AffinityTerm t);
  PodBuilder& PreferredPodAntiAffinity(int32_t weight, AffinityTerm t);
  PodBuilder& Spread(TopologySpreadConstraint c);
  PodBuilder& Terminating();
  PodBuilder& Controller(ControllerKind kind, const std::string& name);
  PodBuilder& Uid(const std::string& uid);
  // Appends a volume (see libsched/testing/volumes.h for sources).
  PodBuilder& Volume(PodVolume v);
  std::shared_ptr<const Pod> Build();

 private:
  Interner& in_;
  Pod pod_;
  PodResourceSpec spec_;
  std::vector<LabelSet::Entry> labels_;
};

// A node selector requirement; values are interned. For Gt/Lt pass one value.
Requirement Req(Interner& in, const std::string& key, SelectorOp op,
                std::vector<std::string> values = {});
// A pod affinity term on `topology_key` whose label selector holds
// `selector` (empty: selects every pod); namespaces as given.
AffinityTerm PodTerm(Interner& in, const std::string& topology_key,
                     std::vector<Requirement> selector,
                     std::vector<std::string> namespaces = {});
// A label selector of these requirements.
LabelSelector Selector(std::vector<Requirement> reqs);
// A term of match_expressions only.
NodeSelectorTerm Term(std::vector<Requirement> exprs);
// A term on metadata.name (match_fields).
NodeSelectorTerm FieldTerm(Interner& in, SelectorOp op, std::vector<std::string> names);

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_BUILDERS_H_
