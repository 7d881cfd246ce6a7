// InterPodAffinity's queueing hints: interpodaffinity/plugin.go
// EventsToRegister, isSchedulableAfterPodChange and
// isSchedulableAfterNodeChange (kube-scheduler v1.36.3, queueing hints on).
#include <vector>

#include "libsched/plugins/inter_pod_affinity.h"
#include "libsched/plugins/internal/inter_pod_affinity_state.h"

namespace sched {
namespace {

// podMatchesAllAffinityTerms: a namespace selector is matched against no
// labels, as on the terms GetAffinityTerms builds.
using interpodaffinity::MatchesAllTerms;

bool Unscheduled(const Pod& p) { return p.node_name.empty() && p.nominated_node_name.empty(); }

QueueingHint PodChanged(const Pod& pod, const Pod* original, const Pod* modified,
                        const Interner& in) {
  if (original == nullptr && modified == nullptr) return QueueingHint::kQueue;
  // The only update registered is UpdatePodLabel: the pod's own labels
  // changed, so some pod's anti-affinity may no longer match it.
  if (original != nullptr && modified != nullptr && SamePod(pod, *modified)) {
    return QueueingHint::kQueue;
  }
  if ((modified != nullptr && Unscheduled(*modified)) ||
      (original != nullptr && Unscheduled(*original))) {
    return QueueingHint::kQueueSkip;
  }
  if (pod.pod_affinity.required_parse_failed) return QueueingHint::kQueue;  // a hint error
  const std::vector<AffinityTerm>& terms = pod.pod_affinity.required_affinity;
  const std::vector<AffinityTerm>& anti = pod.pod_affinity.required_anti_affinity;
  if (original != nullptr && modified != nullptr) {
    if (!MatchesAllTerms(terms, *original, in) && MatchesAllTerms(terms, *modified, in)) {
      return QueueingHint::kQueue;
    }
    if (MatchesAllTerms(anti, *original, in) && !MatchesAllTerms(anti, *modified, in)) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kQueueSkip;
  }
  if (modified != nullptr) {
    return MatchesAllTerms(terms, *modified, in) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  }
  // Deleted: it matched the pod's anti-affinity, or the pod matches its.
  if (MatchesAllTerms(anti, *original, in)) return QueueingHint::kQueue;
  const PodAffinityTerms& theirs = original->pod_affinity;
  if (theirs.has_required_anti_affinity && theirs.required_anti_affinity.empty()) {
    return QueueingHint::kQueue;  // their list failed to parse: a hint error
  }
  return MatchesAllTerms(theirs.required_anti_affinity, pod, in) ? QueueingHint::kQueue
                                                                 : QueueingHint::kQueueSkip;
}

QueueingHint NodeChanged(const Pod& pod, const Node* original, const Node* modified) {
  if (modified == nullptr) return QueueingHint::kQueue;  // not a Node event it registered
  if (pod.pod_affinity.required_parse_failed) return QueueingHint::kQueue;
  // Affinity: a node added with the key, the key added, or its value changed.
  for (const AffinityTerm& t : pod.pod_affinity.required_affinity) {
    const std::optional<Atom> now = modified->labels.Get(t.topology_key);
    if (original == nullptr) {
      if (now) return QueueingHint::kQueue;
      continue;
    }
    const std::optional<Atom> before = original->labels.Get(t.topology_key);
    if (now && (!before || *before != *now)) return QueueingHint::kQueue;
  }
  // Anti-affinity: any node added (one without the key always admits the
  // pod), the key removed, or its value changed.
  for (const AffinityTerm& t : pod.pod_affinity.required_anti_affinity) {
    if (original == nullptr) return QueueingHint::kQueue;
    const std::optional<Atom> before = original->labels.Get(t.topology_key);
    const std::optional<Atom> now = modified->labels.Get(t.topology_key);
    if (before && (!now || *before != *now)) return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> InterPodAffinity::EventsToRegister(
    const ClusterState& cluster) const {
  const Interner* in = &cluster.interner();
  auto pod_changed = [in](const Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
    return PodChanged(pod, AsPod(old_obj), AsPod(new_obj), *in);
  };
  auto node_changed = [](const Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
    return NodeChanged(pod, AsNode(old_obj), AsNode(new_obj));
  };
  return {
      {{EventResource::kPod, action::kAdd | action::kUpdatePodLabel | action::kDelete, {}},
       pod_changed},
      {{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel, {}}, node_changed},
  };
}

}  // namespace sched
