#include "libsched/plugins/volume_zone.h"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sched {
namespace {

constexpr std::string_view kBetaZone = "failure-domain.beta.kubernetes.io/zone";
constexpr std::string_view kBetaRegion = "failure-domain.beta.kubernetes.io/region";
constexpr std::string_view kZone = "topology.kubernetes.io/zone";
constexpr std::string_view kRegion = "topology.kubernetes.io/region";
constexpr std::array<std::string_view, 4> kTopologyLabels = {kBetaZone, kBetaRegion, kZone,
                                                             kRegion};

// One topology label of a PV, interned: its key, the GA form of the key,
// and its set of values (a value never interned is on no node: dropped).
struct PVTopology {
  Atom key = kNoAtom;
  Atom ga_key = kNoAtom;
  std::vector<Atom> values;
};

struct PreFilterState : StateData {
  std::vector<PVTopology> topologies;
  std::array<Atom, 4> topology_keys{};  // kTopologyLabels, interned (or kNoAtom)
};

// translateToGALabel.
std::string_view ToGALabel(std::string_view key) {
  if (key == kBetaRegion) return kRegion;
  if (key == kBetaZone) return kZone;
  return key;
}

// volumehelpers.LabelZonesToSet: "__"-separated, trimmed; nullopt when an
// element is empty (upstream then ignores the label).
std::optional<std::vector<std::string>> LabelZonesToSet(std::string_view value) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t sep = value.find("__", start);
    std::string_view zone = value.substr(start, sep == std::string_view::npos ? sep : sep - start);
    const size_t b = zone.find_first_not_of(" \t\n\v\f\r");
    if (b == std::string_view::npos) return std::nullopt;
    zone = zone.substr(b, zone.find_last_not_of(" \t\n\v\f\r") - b + 1);
    out.emplace_back(zone);
    if (sep == std::string_view::npos) return out;
    start = sep + 2;
  }
}

std::optional<std::string_view> LabelValue(const LabelSet& labels, std::string_view key,
                                           const Interner& in) {
  const Atom k = in.Find(key);
  if (k == kNoAtom) return std::nullopt;
  const std::optional<Atom> v = labels.Get(k);
  if (!v) return std::nullopt;
  return in.Str(*v);
}

Status NotFound(std::string_view resource, std::string_view name) {
  return Status::Owned(Code::kUnschedulableAndUnresolvable,
                       std::string(resource) + " \"" + std::string(name) + "\" not found");
}

// getPVTopologies: the PV's topology labels in kTopologyLabels' order, each
// with its set of zones; a label that does not parse is left out.
using Topologies = std::vector<std::pair<std::string_view, std::set<std::string>>>;
Topologies PVTopologies(const PersistentVolume& pv, const Interner& in) {
  Topologies out;
  for (std::string_view key : kTopologyLabels) {
    const std::optional<std::string_view> value = LabelValue(pv.labels, key, in);
    if (!value) continue;
    const std::optional<std::vector<std::string>> zones = LabelZonesToSet(*value);
    if (!zones) continue;
    out.emplace_back(key, std::set<std::string>(zones->begin(), zones->end()));
  }
  return out;
}

// isSchedulableAfterStorageClassAdded: only a WaitForFirstConsumer class.
QueueingHint ClassAdded(const Pod&, const EventObject&, const EventObject& new_obj) {
  const StorageClass* sc = As<StorageClass>(new_obj);
  if (sc == nullptr) return QueueingHint::kQueue;
  return sc->binding_mode == VolumeBindingMode::kWaitForFirstConsumer ? QueueingHint::kQueue
                                                                      : QueueingHint::kQueueSkip;
}

// isSchedulableAfterPersistentVolumeClaimChange: a claim the pod names
// (isPVCRequestedFromPod: persistentVolumeClaim volumes only).
QueueingHint ClaimChanged(const Pod& pod, const EventObject&, const EventObject& new_obj) {
  const PersistentVolumeClaim* pvc = As<PersistentVolumeClaim>(new_obj);
  if (pvc == nullptr) return QueueingHint::kQueue;
  if (pvc->ns != pod.ns) return QueueingHint::kQueueSkip;
  for (const PodVolume& v : pod.volumes) {
    if (v.source == PodVolume::Source::kPersistentVolumeClaim && v.claim_name == pvc->name) {
      return QueueingHint::kQueue;
    }
  }
  return QueueingHint::kQueueSkip;
}

}  // namespace

std::vector<ClusterEventWithHint> VolumeZone::EventsToRegister(const ClusterState& cluster) const {
  // isSchedulableAfterPersistentVolumeChange: a new PV, or changed topology
  // labels (the node affinity is immutable).
  const Interner* in = &cluster.interner();
  auto pv_changed = [in](const Pod&, const EventObject& old_obj, const EventObject& new_obj) {
    const PersistentVolume* original = As<PersistentVolume>(old_obj);
    const PersistentVolume* modified = As<PersistentVolume>(new_obj);
    if (original == nullptr || modified == nullptr) return QueueingHint::kQueue;
    return PVTopologies(*original, *in) != PVTopologies(*modified, *in) ? QueueingHint::kQueue
                                                                        : QueueingHint::kQueueSkip;
  };
  return {
      {{EventResource::kStorageClass, action::kAdd, {}}, ClassAdded},
      {{EventResource::kNode, action::kAdd | action::kUpdateNodeLabel, {}}, nullptr},
      {{EventResource::kPersistentVolumeClaim, action::kAdd | action::kUpdate, {}}, ClaimChanged},
      {{EventResource::kPersistentVolume, action::kAdd | action::kUpdate, {}}, pv_changed},
  };
}

Status VolumeZone::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                             PreFilterResult* /*result*/) const {
  if (pod.volumes.empty()) return Status(Code::kSkip);  // most pods: no state built
  const Interner& in = snapshot.interner();
  auto s = std::make_shared<PreFilterState>();
  for (const PodVolume& v : pod.volumes) {
    if (v.source != PodVolume::Source::kPersistentVolumeClaim) continue;
    if (v.claim_name.empty()) {
      return Status(Code::kUnschedulableAndUnresolvable, "PersistentVolumeClaim had no name");
    }
    const PersistentVolumeClaim* pvc = snapshot.FindPersistentVolumeClaim(pod.ns, v.claim_name);
    if (pvc == nullptr) return NotFound("persistentvolumeclaim", v.claim_name);
    if (pvc->volume_name.empty()) {
      if (pvc->storage_class.empty()) {
        return Status(Code::kUnschedulableAndUnresolvable,
                      "PersistentVolumeClaim had no pv name and storageClass name");
      }
      const StorageClass* sc = snapshot.FindStorageClass(pvc->storage_class);
      if (sc == nullptr) return NotFound("storageclass.storage.k8s.io", pvc->storage_class);
      if (!sc->binding_mode) {
        return Status::Owned(Code::kUnschedulableAndUnresolvable,
                             "VolumeBindingMode not set for StorageClass \"" + sc->name + "\"");
      }
      if (*sc->binding_mode == VolumeBindingMode::kWaitForFirstConsumer) continue;
      return Status(Code::kUnschedulableAndUnresolvable, "PersistentVolume had no name");
    }
    const PersistentVolume* pv = snapshot.FindPersistentVolume(pvc->volume_name);
    if (pv == nullptr) return NotFound("persistentvolume", pvc->volume_name);
    for (std::string_view key : kTopologyLabels) {
      const std::optional<std::string_view> value = LabelValue(pv->labels, key, in);
      if (!value) continue;
      const std::optional<std::vector<std::string>> zones = LabelZonesToSet(*value);
      if (!zones) continue;
      PVTopology& t = s->topologies.emplace_back();
      t.key = in.Find(key);
      t.ga_key = in.Find(ToGALabel(key));
      for (const std::string& z : *zones) {
        if (const Atom a = in.Find(z); a != kNoAtom) t.values.push_back(a);
      }
    }
  }
  if (s->topologies.empty()) return Status(Code::kSkip);
  for (size_t i = 0; i < kTopologyLabels.size(); ++i) {
    s->topology_keys[i] = in.Find(kTopologyLabels[i]);
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status VolumeZone::Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const {
  if (pod.volumes.empty()) return Status();
  const auto* s = state.Read<PreFilterState>(slot());
  if (s == nullptr) {
    return Status::Error("reading \"PreFilterVolumeZone\" from cycleState: not found");
  }
  const LabelSet& labels = node.node()->labels;
  const bool has_any = std::any_of(s->topology_keys.begin(), s->topology_keys.end(),
                                   [&](Atom k) { return k != kNoAtom && labels.Has(k); });
  if (!has_any) return Status();
  for (const PVTopology& t : s->topologies) {
    std::optional<Atom> v = labels.Get(t.key);
    if (!v && t.ga_key != kNoAtom) v = labels.Get(t.ga_key);
    if (!v || std::find(t.values.begin(), t.values.end(), *v) == t.values.end()) {
      return Status(Code::kUnschedulableAndUnresolvable, kReasonConflict);
    }
  }
  return Status();
}

}  // namespace sched
