// PodTopologySpread PreFilter / Filter and the PreFilter extensions,
// mirroring podtopologyspread/filtering.go.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libsched/plugins/internal/pod_topology_spread_common.h"
#include "libsched/plugins/pod_topology_spread.h"

namespace sched {
namespace {

using pts_internal::Constraint;

// criticalPaths: the two domains with the fewest matching pods, smallest
// first; update() is upstream's, so AddPod / RemovePod keep the same
// (approximate) second entry it does.
struct CriticalPaths {
  struct Path {
    Atom value;
    int64_t match_num = std::numeric_limits<int32_t>::max();
  };
  Path p[2];

  explicit CriticalPaths(Atom empty) : p{{empty}, {empty}} {}

  void Update(Atom value, int64_t num) {
    int i = value == p[0].value ? 0 : value == p[1].value ? 1 : -1;
    if (i >= 0) {
      p[i].match_num = num;
      if (p[0].match_num > p[1].match_num) std::swap(p[0], p[1]);
    } else if (num < p[0].match_num) {
      p[1] = p[0];
      p[0] = {value, num};
    } else if (num < p[1].match_num) {
      p[1] = {value, num};
    }
  }
};

struct PreFilterState : StateData {
  std::shared_ptr<const std::vector<Constraint>> constraints;
  std::vector<CriticalPaths> critical_paths;
  // Per constraint: topology value -> matching pods.
  std::vector<std::unordered_map<Atom, int64_t>> tp_value_to_match_num;
  const Interner* interner = nullptr;

  // minMatchNum: 0 while fewer than minDomains domains exist.
  int64_t MinMatchNum(size_t i, int32_t min_domains) const {
    if (tp_value_to_match_num[i].size() < static_cast<size_t>(std::max(min_domains, 0))) {
      return 0;
    }
    return critical_paths[i].p[0].match_num;
  }
};

constexpr const char* kNotFound =
    "reading \"PreFilterPodTopologySpread\" from cycleState: not found";

// updateWithPod.
void UpdateWithPod(PreFilterState& s, const Pod& updated, const Pod& preemptor,
                   const NodeInfo& node_info, int64_t delta) {
  const Node* node = node_info.node();
  if (updated.ns != preemptor.ns || node == nullptr) return;
  const std::vector<Constraint>& constraints = *s.constraints;
  if (!pts_internal::NodeHasAllKeys(node->labels, constraints)) return;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    if (!c.selector || !c.selector->Matches(updated.labels, *s.interner)) continue;
    if (!c.MatchesNodeInclusionPolicies(preemptor, *node, *s.interner)) continue;
    const Atom v = *node->labels.Get(c.topology_key);
    int64_t& n = s.tp_value_to_match_num[i][v];
    n += delta;
    s.critical_paths[i].Update(v, n);
  }
}

}  // namespace

Status PodTopologySpread::PreFilter(CycleState& state, const Pod& pod,
                                    const ClusterState& snapshot,
                                    PreFilterResult* /*result*/) const {
  std::vector<Constraint> constraints =
      pts_internal::GetConstraints(pod, /*do_not_schedule=*/true, args_, snapshot);
  if (constraints.empty()) return Status(Code::kSkip);
  const Interner& in = snapshot.interner();
  auto s = std::make_unique<PreFilterState>();
  s->interner = &in;
  s->tp_value_to_match_num.resize(constraints.size());
  for (const NodeInfo* ni : snapshot.NodeList()) {
    const Node& node = *ni->node();
    if (!pts_internal::NodeHasAllKeys(node.labels, constraints)) continue;
    for (size_t i = 0; i < constraints.size(); ++i) {
      const Constraint& c = constraints[i];
      if (!c.MatchesNodeInclusionPolicies(pod, node, in)) continue;
      // Every eligible node registers its domain, even with no match.
      s->tp_value_to_match_num[i][*node.labels.Get(c.topology_key)] +=
          pts_internal::CountPodsMatchSelector(*ni, c.selector, pod.ns, in);
    }
  }
  const Atom empty = in.Find("");
  for (size_t i = 0; i < constraints.size(); ++i) {
    CriticalPaths& paths = s->critical_paths.emplace_back(empty);
    for (const auto& [value, num] : s->tp_value_to_match_num[i]) paths.Update(value, num);
  }
  s->constraints = std::make_shared<const std::vector<Constraint>>(std::move(constraints));
  state.Write(slot(), std::move(s));
  return Status();
}

Status PodTopologySpread::AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                                 const NodeInfo& node) const {
  PreFilterState* s = state.CopyOnWrite<PreFilterState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  UpdateWithPod(*s, pod_to_add, pod, node, 1);
  return Status();
}

Status PodTopologySpread::RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                                    const NodeInfo& node) const {
  PreFilterState* s = state.CopyOnWrite<PreFilterState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  UpdateWithPod(*s, pod_to_remove, pod, node, -1);
  return Status();
}

Status PodTopologySpread::Filter(const CycleState& state, const Pod& pod,
                                 const NodeInfo& node) const {
  const PreFilterState* s = state.Read<PreFilterState>(slot());
  if (s == nullptr) return Status::Error(kNotFound);
  const std::vector<Constraint>& constraints = *s->constraints;
  const LabelSet& labels = node.node()->labels;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const Constraint& c = constraints[i];
    const std::optional<Atom> value = labels.Get(c.topology_key);
    if (!value) return Status(Code::kUnschedulableAndUnresolvable, kReasonNodeLabelNotMatch);
    const int64_t self_match = c.selector && c.selector->Matches(pod.labels, *s->interner);
    const auto& counts = s->tp_value_to_match_num[i];
    const auto it = counts.find(*value);
    const int64_t match_num = it == counts.end() ? 0 : it->second;
    if (match_num + self_match - s->MinMatchNum(i, c.min_domains) > c.max_skew) {
      return Status(Code::kUnschedulable, kReasonConstraintsNotMatch);
    }
  }
  return Status();
}

}  // namespace sched
