#include "libsched/plugins/volume_restrictions.h"

#include <algorithm>
#include <memory>
#include <string>

namespace sched {
namespace {

using Source = PodVolume::Source;

// The pod's ReadWriteOncePod claims and how often scheduled pods use them.
struct PreFilterState : StateData {
  std::vector<std::string> rwop_claims;  // claim names, in the pod's namespace
  int conflicting_ref_count = 0;

  int RefCountFor(const Pod& other) const {
    int n = 0;
    for (const PodVolume& v : other.volumes) {
      if (v.source != Source::kPersistentVolumeClaim) continue;
      if (std::find(rwop_claims.begin(), rwop_claims.end(), v.claim_name) != rwop_claims.end()) {
        ++n;
      }
    }
    return n;
  }
};

bool NeedsRestrictionsCheck(const PodVolume& v) {
  return v.source == Source::kGCEPersistentDisk || v.source == Source::kAWSElasticBlockStore ||
         v.source == Source::kRBD || v.source == Source::kISCSI;
}

bool HaveOverlap(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  for (const std::string& s : a) {
    if (std::find(b.begin(), b.end(), s) != b.end()) return true;
  }
  return false;
}

// isVolumeConflict: `v` against every volume of `other`.
bool IsVolumeConflict(const PodVolume& v, const Pod& other) {
  for (const PodVolume& e : other.volumes) {
    if (e.source != v.source) continue;
    switch (v.source) {
      case Source::kGCEPersistentDisk:
      case Source::kISCSI:
        // The same disk (IQN) conflicts unless both mount it read-only.
        if (v.disk == e.disk && !(v.read_only && e.read_only)) return true;
        break;
      case Source::kAWSElasticBlockStore:
        if (v.disk == e.disk) return true;
        break;
      case Source::kRBD:
        if (HaveOverlap(v.rbd_monitors, e.rbd_monitors) && v.rbd_pool == e.rbd_pool &&
            v.disk == e.disk && !(v.read_only && e.read_only)) {
          return true;
        }
        break;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

bool VolumeRestrictions::SatisfiesVolumeConflicts(
    const Pod& pod, const std::vector<std::shared_ptr<const Pod>>& others) {
  for (const PodVolume& v : pod.volumes) {
    if (!NeedsRestrictionsCheck(v)) continue;
    for (const auto& other : others) {
      if (IsVolumeConflict(v, *other)) return false;
    }
  }
  return true;
}

std::vector<ClusterEventWithHint> VolumeRestrictions::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  auto pod_deleted = [](const Pod& pod, const EventObject& old_obj, const EventObject&) {
    const Pod* deleted = AsPod(old_obj);
    if (deleted == nullptr) return QueueingHint::kQueue;
    if (deleted->ns != pod.ns) return QueueingHint::kQueueSkip;
    auto as_shared = std::shared_ptr<const Pod>(std::shared_ptr<const Pod>(), deleted);
    if (!SatisfiesVolumeConflicts(pod, {as_shared})) return QueueingHint::kQueue;
    // A deleted pod sharing one of the pod's claims may have held it
    // ReadWriteOncePod (upstream does not look the claim up either).
    for (const PodVolume& v : pod.volumes) {
      if (v.source != Source::kPersistentVolumeClaim) continue;
      for (const PodVolume& d : deleted->volumes) {
        if (d.source == Source::kPersistentVolumeClaim && d.claim_name == v.claim_name) {
          return QueueingHint::kQueue;
        }
      }
    }
    return QueueingHint::kQueueSkip;
  };
  // isSchedulableAfterPersistentVolumeClaimAdded: a claim the pod names
  // (ephemeral volumes' claims are not looked at).
  auto claim_added = [](const Pod& pod, const EventObject&, const EventObject& new_obj) {
    const PersistentVolumeClaim* pvc = As<PersistentVolumeClaim>(new_obj);
    if (pvc == nullptr) return QueueingHint::kQueue;
    if (pvc->ns != pod.ns) return QueueingHint::kQueueSkip;
    for (const PodVolume& v : pod.volumes) {
      if (v.source == Source::kPersistentVolumeClaim && v.claim_name == pvc->name) {
        return QueueingHint::kQueue;
      }
    }
    return QueueingHint::kQueueSkip;
  };
  return {
      {{EventResource::kPod, action::kDelete, {}}, pod_deleted},
      {{EventResource::kNode, action::kAdd, {}}, nullptr},
      {{EventResource::kPersistentVolumeClaim, action::kAdd, {}}, claim_added},
  };
}

Status VolumeRestrictions::PreFilter(CycleState& state, const Pod& pod,
                                     const ClusterState& snapshot,
                                     PreFilterResult* /*result*/) const {
  if (pod.volumes.empty()) return Status(Code::kSkip);  // most pods: no state built
  const bool needs_check =
      std::any_of(pod.volumes.begin(), pod.volumes.end(),
                  [](const PodVolume& v) { return NeedsRestrictionsCheck(v); });
  auto s = std::make_shared<PreFilterState>();
  for (const PodVolume& v : pod.volumes) {
    if (v.source != Source::kPersistentVolumeClaim) continue;
    const PersistentVolumeClaim* pvc = snapshot.FindPersistentVolumeClaim(pod.ns, v.claim_name);
    if (pvc == nullptr) {
      return Status::Owned(Code::kUnschedulableAndUnresolvable,
                           "persistentvolumeclaim \"" + v.claim_name + "\" not found");
    }
    if ((pvc->access_modes & access_mode::kReadWriteOncePod) == 0) continue;
    if (std::find(s->rwop_claims.begin(), s->rwop_claims.end(), pvc->name) !=
        s->rwop_claims.end()) {
      continue;  // a set: each claim once
    }
    s->rwop_claims.push_back(pvc->name);
    // At most one pod can use a ReadWriteOncePod claim.
    if (snapshot.IsPVCUsedByPods(pod.ns + "/" + pvc->name)) ++s->conflicting_ref_count;
  }
  if (!needs_check && s->conflicting_ref_count == 0) return Status(Code::kSkip);
  state.Write(slot(), std::move(s));
  return Status();
}

Status VolumeRestrictions::AddPod(CycleState& state, const Pod& /*pod*/, const Pod& pod_to_add,
                                  const NodeInfo& /*node*/) const {
  if (state.Read<PreFilterState>(slot()) == nullptr) {
    return Status::Error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  }
  auto* s = state.CopyOnWrite<PreFilterState>(slot());
  s->conflicting_ref_count += s->RefCountFor(pod_to_add);
  return Status();
}

Status VolumeRestrictions::RemovePod(CycleState& state, const Pod& /*pod*/,
                                     const Pod& pod_to_remove, const NodeInfo& /*node*/) const {
  if (state.Read<PreFilterState>(slot()) == nullptr) {
    return Status::Error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  }
  auto* s = state.CopyOnWrite<PreFilterState>(slot());
  s->conflicting_ref_count -= s->RefCountFor(pod_to_remove);
  return Status();
}

Status VolumeRestrictions::Filter(const CycleState& state, const Pod& pod,
                                  const NodeInfo& node) const {
  if (!SatisfiesVolumeConflicts(pod, node.pods())) {
    return Status(Code::kUnschedulable, kReasonDiskConflict);
  }
  const auto* s = state.Read<PreFilterState>(slot());
  if (s == nullptr) {
    return Status::Error("cannot read \"PreFilterVolumeRestrictions\" from cycleState");
  }
  if (s->conflicting_ref_count > 0) {
    return Status(Code::kUnschedulable, kReasonReadWriteOncePodConflict);
  }
  return Status();
}

}  // namespace sched
