#include "libsched/testing/builders.h"

#include <algorithm>
#include <charconv>

namespace sched::testing {

Resource Res(Interner& in, int64_t milli_cpu, int64_t memory,
             std::vector<std::pair<std::string, int64_t>> scalar, int64_t pods,
             int64_t ephemeral) {
  Resource r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  r.allowed_pods = pods;
  r.ephemeral_storage = ephemeral;
  for (auto& [k, v] : scalar) r.SetScalar(in.Intern(k), v);
  return r;
}

NodeBuilder::NodeBuilder(Interner& in, std::string name) : in_(in) {
  node_.name = std::move(name);
  node_.name_atom = in_.Intern(node_.name);
  node_.allocatable.allowed_pods = 110;
}
NodeBuilder& NodeBuilder::Label(const std::string& k, const std::string& v) {
  labels_.push_back({in_.Intern(k), in_.Intern(v)});
  return *this;
}
NodeBuilder& NodeBuilder::Taint(const std::string& k, const std::string& v, TaintEffect e) {
  node_.taints.push_back({in_.Intern(k), in_.Intern(v), e});
  return *this;
}
NodeBuilder& NodeBuilder::Unschedulable(bool u) {
  node_.unschedulable = u;
  return *this;
}
NodeBuilder& NodeBuilder::Capacity(int64_t milli_cpu, int64_t memory, int64_t pods) {
  node_.allocatable.milli_cpu = milli_cpu;
  node_.allocatable.memory = memory;
  node_.allocatable.allowed_pods = pods;
  return *this;
}
NodeBuilder& NodeBuilder::Scalar(const std::string& name, int64_t v) {
  node_.allocatable.SetScalar(in_.Intern(name), v);
  return *this;
}
NodeBuilder& NodeBuilder::EphemeralStorage(int64_t bytes) {
  node_.allocatable.ephemeral_storage = bytes;
  return *this;
}
NodeBuilder& NodeBuilder::Image(std::vector<std::string> names, int64_t size_bytes) {
  ContainerImage img;
  for (auto& n : names) img.names.push_back(in_.Intern(n));
  img.size_bytes = size_bytes;
  node_.images.push_back(std::move(img));
  return *this;
}
std::shared_ptr<const Node> NodeBuilder::Build() {
  node_.labels = LabelSet(labels_);
  return std::make_shared<const Node>(node_);
}

PodBuilder::PodBuilder(Interner& in, std::string name, std::string ns) : in_(in) {
  pod_.name = std::move(name);
  pod_.ns = std::move(ns);
  pod_.ns_atom = in_.Intern(pod_.ns);
  pod_.uid = pod_.ns + "/" + pod_.name;
  pod_.scheduler_name = "default-scheduler";
}
PodBuilder& PodBuilder::Label(const std::string& k, const std::string& v) {
  labels_.push_back({in_.Intern(k), in_.Intern(v)});
  return *this;
}
PodBuilder& PodBuilder::NodeName(const std::string& n) {
  pod_.node_name = n;
  return *this;
}
PodBuilder& PodBuilder::Priority(int32_t p) {
  pod_.priority = p;
  return *this;
}
PodBuilder& PodBuilder::NodeSelector(const std::string& k, const std::string& v) {
  pod_.node_selector.push_back(Req(in_, k, SelectorOp::kIn, {v}));
  return *this;
}
PodBuilder& PodBuilder::RequiredTerm(NodeSelectorTerm term) {
  if (!pod_.required_node_affinity) pod_.required_node_affinity.emplace();
  pod_.required_node_affinity->terms.push_back(std::move(term));
  return *this;
}
PodBuilder& PodBuilder::PreferredTerm(int32_t weight, NodeSelectorTerm term) {
  pod_.preferred_node_affinity.push_back({weight, std::move(term)});
  return *this;
}
PodBuilder& PodBuilder::Toleration(const std::string& key, TolerationOp op,
                                   const std::string& value, TaintEffect effect) {
  sched::Toleration t;
  t.key = key.empty() ? kNoAtom : in_.Intern(key);
  t.op = op;
  t.value = in_.Intern(value);
  t.effect = effect;
  pod_.tolerations.push_back(t);
  return *this;
}
PodBuilder& PodBuilder::Container(int64_t milli_cpu, int64_t memory,
                                  std::vector<std::pair<std::string, int64_t>> scalar,
                                  const std::string& image) {
  ContainerResources c;
  c.has_cpu = milli_cpu >= 0;
  c.has_memory = memory >= 0;
  c.requests = Res(in_, std::max<int64_t>(milli_cpu, 0), std::max<int64_t>(memory, 0),
                   std::move(scalar));
  spec_.containers.push_back(std::move(c));
  if (!image.empty()) {
    std::string img = image;
    const auto colon = img.rfind(':');
    const auto slash = img.rfind('/');
    if (colon == std::string::npos || (slash != std::string::npos && colon < slash)) {
      img += ":latest";
    }
    pod_.images.push_back(in_.Intern(img));
  }
  return *this;
}
PodBuilder& PodBuilder::InitContainer(int64_t milli_cpu, int64_t memory, bool sidecar) {
  ContainerResources c;
  c.has_cpu = milli_cpu >= 0;
  c.has_memory = memory >= 0;
  c.requests = Res(in_, std::max<int64_t>(milli_cpu, 0), std::max<int64_t>(memory, 0));
  c.restartable = sidecar;
  spec_.init_containers.push_back(std::move(c));
  return *this;
}
PodBuilder& PodBuilder::Overhead(int64_t milli_cpu, int64_t memory) {
  spec_.overhead = Res(in_, milli_cpu, memory);
  return *this;
}
PodBuilder& PodBuilder::HostPort(int32_t port, Protocol proto, const std::string& ip) {
  pod_.host_ports.push_back({ip, proto, port});
  return *this;
}
namespace {

AffinityTerm WithDefaultNamespace(AffinityTerm t, Atom ns) {
  if (t.namespaces.empty() && !t.namespace_selector) t.namespaces.push_back(ns);
  return t;
}

}  // namespace

PodBuilder& PodBuilder::RequiredPodAffinity(AffinityTerm t) {
  pod_.pod_affinity.has_pod_affinity = true;
  pod_.pod_affinity.required_affinity.push_back(WithDefaultNamespace(std::move(t), pod_.ns_atom));
  return *this;
}
PodBuilder& PodBuilder::RequiredPodAntiAffinity(AffinityTerm t) {
  pod_.pod_affinity.has_pod_affinity = true;
  pod_.pod_affinity.has_required_anti_affinity = true;
  pod_.pod_affinity.required_anti_affinity.push_back(
      WithDefaultNamespace(std::move(t), pod_.ns_atom));
  return *this;
}
PodBuilder& PodBuilder::PreferredPodAffinity(int32_t weight, AffinityTerm t) {
  pod_.pod_affinity.has_pod_affinity = true;
  pod_.pod_affinity.preferred_affinity.push_back(
      {WithDefaultNamespace(std::move(t), pod_.ns_atom), weight});
  return *this;
}
PodBuilder& PodBuilder::PreferredPodAntiAffinity(int32_t weight, AffinityTerm t) {
  pod_.pod_affinity.has_pod_affinity = true;
  pod_.pod_affinity.preferred_anti_affinity.push_back(
      {WithDefaultNamespace(std::move(t), pod_.ns_atom), weight});
  return *this;
}

PodBuilder& PodBuilder::Spread(TopologySpreadConstraint c) {
  pod_.topology_spread_constraints.push_back(std::move(c));
  return *this;
}
PodBuilder& PodBuilder::Terminating() {
  pod_.terminating = true;
  return *this;
}
PodBuilder& PodBuilder::Uid(const std::string& uid) {
  pod_.uid = uid;
  return *this;
}
PodBuilder& PodBuilder::Volume(PodVolume v) {
  pod_.volumes.push_back(std::move(v));
  return *this;
}
PodBuilder& PodBuilder::Controller(ControllerKind kind, const std::string& name) {
  pod_.controller_kind = kind;
  pod_.controller_name = name;
  return *this;
}
std::shared_ptr<const Pod> PodBuilder::Build() {
  pod_.labels = LabelSet(labels_);
  pod_.requests = PodRequests(spec_);
  pod_.non_zero_requests = PodNonZeroRequests(spec_);
  pod_.non_zero_container_requests = PodNonZeroContainerRequests(spec_);
  pod_.num_containers =
      static_cast<int32_t>(spec_.containers.size() + spec_.init_containers.size());
  return std::make_shared<const Pod>(pod_);
}

Requirement Req(Interner& in, const std::string& key, SelectorOp op,
                std::vector<std::string> values) {
  Requirement r;
  r.key = in.Intern(key);
  r.op = op;
  if (op == SelectorOp::kGt || op == SelectorOp::kLt) {
    r.valid = values.size() == 1;
    if (r.valid) {
      const auto& v = values[0];
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), r.number);
      r.valid = ec == std::errc() && p == v.data() + v.size();
    }
    return r;
  }
  for (auto& v : values) r.values.push_back(in.Intern(v));
  std::sort(r.values.begin(), r.values.end());
  r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
  if (op == SelectorOp::kIn || op == SelectorOp::kNotIn) r.valid = !r.values.empty();
  if (op == SelectorOp::kExists || op == SelectorOp::kDoesNotExist) r.valid = r.values.empty();
  return r;
}

LabelSelector Selector(std::vector<Requirement> reqs) {
  LabelSelector s;
  for (const auto& r : reqs) s.valid = s.valid && r.valid;
  s.requirements = std::move(reqs);
  return s;
}

AffinityTerm PodTerm(Interner& in, const std::string& topology_key,
                     std::vector<Requirement> selector, std::vector<std::string> namespaces) {
  AffinityTerm t;
  t.topology_key = in.Intern(topology_key);
  t.selector = Selector(std::move(selector));
  for (const auto& ns : namespaces) t.namespaces.push_back(in.Intern(ns));
  std::sort(t.namespaces.begin(), t.namespaces.end());
  return t;
}

NodeSelectorTerm Term(std::vector<Requirement> exprs) {
  NodeSelectorTerm t;
  for (const auto& r : exprs) t.valid = t.valid && r.valid;
  t.match_expressions = std::move(exprs);
  return t;
}

NodeSelectorTerm FieldTerm(Interner& in, SelectorOp op, std::vector<std::string> names) {
  NodeSelectorTerm t;
  t.match_fields.push_back(Req(in, "metadata.name", op, std::move(names)));
  t.valid = t.match_fields.back().valid;
  return t;
}

}  // namespace sched::testing
