// PodTopologySpread's queueing hints: podtopologyspread/plugin.go
// EventsToRegister, isSchedulableAfterPodChange and
// isSchedulableAfterNodeChange (kube-scheduler v1.36.3, queueing hints on).
#include <optional>
#include <vector>

#include "libsched/plugins/internal/pod_topology_spread_common.h"
#include "libsched/plugins/pod_topology_spread.h"

namespace sched {
namespace {

using pts_internal::Constraint;

// involvedInTopologySpreading: `incoming` is the pod itself, or a scheduled
// or nominated pod in its namespace.
bool Involved(const Pod& incoming, const Pod& pod) {
  if (SamePod(incoming, pod)) return true;
  if (incoming.node_name.empty() && incoming.nominated_node_name.empty()) return false;
  return incoming.ns == pod.ns;
}

bool SelectorMatches(const Constraint& c, const LabelSet& labels, const Interner& in) {
  return c.selector && c.selector->Matches(labels, in);
}

// podLabelsMatchSpreadConstraints.
bool AnyMatches(const std::vector<Constraint>& cs, const LabelSet& labels, const Interner& in) {
  for (const Constraint& c : cs) {
    if (SelectorMatches(c, labels, in)) return true;
  }
  return false;
}

// nodeLabelsMatchSpreadConstraints.
bool HasAllKeys(const LabelSet& labels, const std::vector<Constraint>& cs) {
  for (const Constraint& c : cs) {
    if (!labels.Has(c.topology_key)) return false;
  }
  return true;
}

// checkTopologyKeyLabelsChanged: a missing label reads as "" (Go's map).
bool KeyValuesChanged(const LabelSet& a, const LabelSet& b, const std::vector<Constraint>& cs,
                      const Interner& in) {
  const Atom empty = in.Find("");
  for (const Constraint& c : cs) {
    if (a.Get(c.topology_key).value_or(empty) != b.Get(c.topology_key).value_or(empty)) {
      return true;
    }
  }
  return false;
}

bool HonorsTaints(const std::vector<Constraint>& cs) {
  for (const Constraint& c : cs) {
    if (c.node_taints_policy == NodeInclusionPolicy::kHonor) return true;
  }
  return false;
}

QueueingHint PodChanged(const Pod& pod, const Pod* original, const Pod* modified,
                        const std::vector<Constraint>& cs, const Interner& in) {
  if (modified != nullptr && original != nullptr) {
    if (SamePod(pod, *modified) && modified->tolerations != original->tolerations &&
        HonorsTaints(cs)) {
      return QueueingHint::kQueue;  // a new toleration may let it count more nodes
    }
    if (modified->labels == original->labels) return QueueingHint::kQueueSkip;
    for (const Constraint& c : cs) {
      if (SelectorMatches(c, original->labels, in) != SelectorMatches(c, modified->labels, in)) {
        return QueueingHint::kQueue;
      }
    }
    return QueueingHint::kQueueSkip;
  }
  const Pod& changed = modified != nullptr ? *modified : *original;  // added / deleted
  return AnyMatches(cs, changed.labels, in) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

QueueingHint NodeChanged(const Node* original, const Node* modified,
                         const std::vector<Constraint>& cs, const Interner& in) {
  const bool was = original != nullptr && HasAllKeys(original->labels, cs);
  const bool is = modified != nullptr && HasAllKeys(modified->labels, cs);
  if (original != nullptr && modified != nullptr) {
    if (was != is) return QueueingHint::kQueue;
    if (is && (KeyValuesChanged(original->labels, modified->labels, cs, in) ||
               original->taints != modified->taints)) {
      return QueueingHint::kQueue;
    }
    return QueueingHint::kQueueSkip;
  }
  // Added (is) or deleted (was).
  return was || is ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> PodTopologySpread::EventsToRegister(
    const ClusterState& cluster) const {
  const ClusterState* live = &cluster;
  const PodTopologySpreadArgs* args = &args_;
  auto pod_changed = [live, args](const Pod& pod, const EventObject& old_obj,
                                  const EventObject& new_obj) {
    const Pod* original = AsPod(old_obj);
    const Pod* modified = AsPod(new_obj);
    if (original == nullptr && modified == nullptr) return QueueingHint::kQueue;
    if ((modified != nullptr && !Involved(*modified, pod)) ||
        (original != nullptr && !Involved(*original, pod))) {
      return QueueingHint::kQueueSkip;
    }
    return PodChanged(pod, original, modified,
                      pts_internal::GetConstraints(pod, true, *args, *live), live->interner());
  };
  auto node_changed = [live, args](const Pod& pod, const EventObject& old_obj,
                                   const EventObject& new_obj) {
    const Node* original = AsNode(old_obj);
    const Node* modified = AsNode(new_obj);
    if (original == nullptr && modified == nullptr) return QueueingHint::kQueue;
    return NodeChanged(original, modified, pts_internal::GetConstraints(pod, true, *args, *live),
                       live->interner());
  };
  return {
      {{EventResource::kPod,
        action::kAdd | action::kUpdatePodLabel | action::kUpdatePodToleration | action::kDelete,
        {}},
       pod_changed},
      {{EventResource::kNode,
        action::kAdd | action::kDelete | action::kUpdateNodeLabel | action::kUpdateNodeTaint,
        {}},
       node_changed},
  };
}

}  // namespace sched
