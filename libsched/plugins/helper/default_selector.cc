#include "libsched/plugins/helper/default_selector.h"

#include <map>

namespace sched {
namespace {

// labels.Set(selector).Matches(podLabels): every entry is a pod label.
bool SetMatches(const LabelSet& selector, const LabelSet& labels) {
  for (const auto& [key, value] : selector.entries()) {
    if (labels.Get(key) != value) return false;
  }
  return true;
}

WorkloadKind ToWorkloadKind(ControllerKind k) {
  switch (k) {
    case ControllerKind::kReplicaSet:
      return WorkloadKind::kReplicaSet;
    case ControllerKind::kStatefulSet:
      return WorkloadKind::kStatefulSet;
    default:
      return WorkloadKind::kReplicationController;
  }
}

// What DefaultSelector built for a pod, and from what.
struct DefaultSelectorMemo : StateData {
  uint64_t workload_generation = 0;
  std::string ns;
  LabelSet labels;
  ControllerKind controller_kind = ControllerKind::kOther;
  std::string controller_name;
  LabelSelector selector;

  bool BuiltFor(const Pod& pod, const ClusterState& snapshot) const {
    return workload_generation == snapshot.workload_generation() && ns == pod.ns &&
           controller_kind == pod.controller_kind && controller_name == pod.controller_name &&
           labels == pod.labels;
  }
};

}  // namespace

std::vector<const Workload*> GetPodServices(const Pod& pod, const ClusterState& snapshot) {
  std::vector<const Workload*> out;
  snapshot.ForEachWorkloadIn(WorkloadKind::kService, pod.ns, [&](const Workload& svc) {
    if (svc.match_labels && SetMatches(*svc.match_labels, pod.labels)) out.push_back(&svc);
  });
  return out;
}

int64_t CountMatchingPods(const NodeInfo& node, const LabelSelector& selector,
                          const std::string& ns, const Interner& interner) {
  if (selector.requirements.empty()) return 0;
  int64_t count = 0;
  for (const auto& p : node.pods()) {
    if (p->terminating || p->ns != ns) continue;
    if (selector.Matches(p->labels, interner)) ++count;
  }
  return count;
}

LabelSelector DefaultSelector(const Pod& pod, const ClusterState& snapshot) {
  std::map<Atom, Atom> set;  // labels.Merge: a later value for a key wins
  for (const Workload* svc : GetPodServices(pod, snapshot)) {
    for (const auto& [key, value] : svc->match_labels->entries()) set[key] = value;
  }
  const Workload* owner =
      pod.controller_kind == ControllerKind::kOther
          ? nullptr
          : snapshot.FindWorkload(ToWorkloadKind(pod.controller_kind), pod.ns,
                                  pod.controller_name);
  if (owner != nullptr && owner->match_labels) {  // ReplicationController
    for (const auto& [key, value] : owner->match_labels->entries()) set[key] = value;
  }
  LabelSelector out;
  for (const auto& [key, value] : set) {
    Requirement& r = out.requirements.emplace_back();
    r.key = key;
    r.values = {value};
  }
  if (owner != nullptr && owner->selector && owner->selector->valid) {  // ReplicaSet, StatefulSet
    out.requirements.insert(out.requirements.end(), owner->selector->requirements.begin(),
                            owner->selector->requirements.end());
  }
  return out;
}

LabelSelector DefaultSelector(const Pod& pod, const ClusterState& snapshot,
                              std::unique_ptr<StateData>* memo) {
  if (memo == nullptr) return DefaultSelector(pod, snapshot);
  return KeptDefaultSelector(pod, snapshot, *memo);
}

const LabelSelector& KeptDefaultSelector(const Pod& pod, const ClusterState& snapshot,
                                         std::unique_ptr<StateData>& memo) {
  auto* kept = dynamic_cast<DefaultSelectorMemo*>(memo.get());
  if (kept == nullptr || !kept->BuiltFor(pod, snapshot)) {
    auto fresh = std::make_unique<DefaultSelectorMemo>();
    fresh->workload_generation = snapshot.workload_generation();
    fresh->ns = pod.ns;
    fresh->labels = pod.labels;
    fresh->controller_kind = pod.controller_kind;
    fresh->controller_name = pod.controller_name;
    fresh->selector = DefaultSelector(pod, snapshot);
    kept = fresh.get();
    memo = std::move(fresh);
  }
  return kept->selector;
}

}  // namespace sched
