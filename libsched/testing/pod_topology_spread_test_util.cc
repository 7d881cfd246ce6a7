#include "libsched/testing/pod_topology_spread_test_util.h"

#include <sstream>

namespace sched::pts_test {

std::vector<std::pair<std::string, std::string>> ParseLabels(const std::string& spec) {
  std::vector<std::pair<std::string, std::string>> out;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string::npos) {
      out.emplace_back(item, "");
    } else {
      out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
  }
  return out;
}

TopologySpreadConstraint Make(Interner& in, const C& c) {
  TopologySpreadConstraint t;
  t.max_skew = c.max_skew;
  t.topology_key = in.Intern(c.key);
  t.do_not_schedule = c.hard;
  t.min_domains = c.min_domains;
  t.node_affinity_policy = c.affinity;
  t.node_taints_policy = c.taints;
  if (c.selector_key == "{}") {
    t.selector.emplace();
  } else if (!c.selector_key.empty()) {
    t.selector.emplace().requirements.push_back(
        testing::Req(in, c.selector_key, SelectorOp::kExists));
  }
  return t;
}

void AddNodes(ClusterState& cs, const std::vector<N>& nodes) {
  for (const N& n : nodes) {
    testing::NodeBuilder b(cs.interner(), n.name);
    for (const auto& [k, v] : ParseLabels(n.labels)) b.Label(k, v);
    if (n.tainted) b.Taint("node.kubernetes.io/unschedulable", "", TaintEffect::kNoSchedule);
    cs.UpsertNode(b.Build());
  }
}

std::shared_ptr<const Pod> MakePod(ClusterState& cs, const P& p) {
  testing::PodBuilder b(cs.interner(), p.name, p.ns);
  for (const auto& [k, v] : ParseLabels(p.labels)) b.Label(k, v);
  if (!p.node.empty()) b.NodeName(p.node);
  if (p.terminating) b.Terminating();
  return b.Build();
}

void AddPods(ClusterState& cs, const std::vector<P>& pods) {
  for (const P& p : pods) cs.UpsertPod(MakePod(cs, p));
}

std::shared_ptr<const Pod> MakePod(ClusterState& cs, const PodSpec& spec) {
  testing::PodBuilder b(cs.interner(), "p");
  for (const auto& [k, v] : ParseLabels(spec.labels)) b.Label(k, v);
  for (const C& c : spec.constraints) b.Spread(Make(cs.interner(), c));
  if (spec.extra) spec.extra(cs.interner(), b);
  return b.Build();
}

void AddService(ClusterState& cs, const std::string& name, const std::string& labels,
                const std::string& ns) {
  auto w = std::make_shared<Workload>();
  w->kind = WorkloadKind::kService;
  w->ns = ns;
  w->name = name;
  std::vector<LabelSet::Entry> entries;
  for (const auto& [k, v] : ParseLabels(labels)) {
    entries.emplace_back(cs.interner().Intern(k), cs.interner().Intern(v));
  }
  w->match_labels = LabelSet(std::move(entries));
  cs.UpsertWorkload(std::move(w));
}

}  // namespace sched::pts_test
