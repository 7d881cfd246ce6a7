#include "libsched/plugins/volume_binding.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "libsched/plugins/helper/csi_translation.h"

namespace sched {
namespace {

constexpr std::string_view kNotSupportedProvisioner = "kubernetes.io/no-provisioner";

// PodVolumeClaims plus the snapshot Filter reads PVs and classes from.
struct PreFilterState : StateData {
  const ClusterState* snapshot = nullptr;
  std::vector<const PersistentVolumeClaim*> bound;
  // Per bound claim: the node affinity of its PV translated to CSI, used on
  // nodes that migrated the PV's in-tree plugin (TranslatesToCSI).
  std::vector<std::optional<NodeSelector>> bound_csi_affinity;
  std::vector<const PersistentVolumeClaim*> unbound_delay_binding;
};

// What FindPodVolumes found for one node.
struct PodVolumes {
  std::vector<std::string_view> reasons;
  // The claim and the PV chosen for it; the claims left to provisioning.
  std::vector<std::pair<const PersistentVolumeClaim*, const PersistentVolume*>> static_bindings;
  std::vector<const PersistentVolumeClaim*> dynamic_provisions;
};

Status NotFoundClaim(const std::string& name) {
  return Status::Owned(Code::kUnschedulableAndUnresolvable,
                       "persistentvolumeclaim \"" + name + "\" not found");
}

// volume.CheckNodeAffinity: a node of these labels only (no name).
bool MatchesNodeAffinity(const std::optional<NodeSelector>& affinity, const LabelSet& node_labels,
                         const Interner& in) {
  return !affinity || affinity->Matches(node_labels, kNoAtom, in);
}

// tryTranslatePVToCSI translates the PV (an in-tree source whose migration
// is on: GCE PD, AWS EBS) on nodes whose CSINode lists its plugin.
bool TranslatesToCSI(const PersistentVolume& pv) {
  return !CSITopologyKey(pv.in_tree_plugin).empty();
}

bool IsVolumeBoundToClaim(const PersistentVolume& pv, const PersistentVolumeClaim& claim) {
  if (!pv.claim_ref) return false;
  if (pv.claim_ref->name != claim.name || pv.claim_ref->ns != claim.ns) return false;
  return pv.claim_ref->uid.empty() || pv.claim_ref->uid == claim.uid;
}

// volume.FindMatchingVolume with delayBinding and VolumeAttributesClass on,
// for a node: a PV already bound to the claim, else the smallest available
// one that fits. Null when none; Error for an invalid claim selector.
Status FindMatchingVolume(const ClusterState& s, const PersistentVolumeClaim& claim,
                          const LabelSet& node_labels,
                          const std::vector<const PersistentVolume*>& excluded,
                          const PersistentVolume** out) {
  *out = nullptr;
  if (claim.selector && !claim.selector->valid) {
    return Status::Error("error creating internal label selector for claim: " + claim.ns + "/" +
                         claim.name);
  }
  const Interner& in = s.interner();
  const PersistentVolume* smallest = nullptr;
  for (const auto& [name, pv_ptr] : s.persistent_volumes()) {
    const PersistentVolume& pv = *pv_ptr;
    if (pv.storage_class != claim.storage_class) continue;  // pvCache.ListPVs(class)
    if (std::find(excluded.begin(), excluded.end(), &pv) != excluded.end()) continue;
    if (pv.claim_ref && !IsVolumeBoundToClaim(pv, claim)) continue;
    if (pv.capacity_bytes < claim.storage_request) continue;
    if (pv.block_mode != claim.block_mode) continue;
    if (pv.volume_attributes_class != claim.volume_attributes_class) continue;
    if (pv.deleting) continue;
    const bool affinity_ok = MatchesNodeAffinity(pv.node_affinity, node_labels, in);
    if (IsVolumeBoundToClaim(pv, claim)) {
      *out = affinity_ok ? &pv : nullptr;
      return Status();
    }
    if (!pv.available) continue;
    if (claim.selector && !claim.selector->Matches(pv.labels, in)) continue;
    if (!affinity_ok) continue;
    if (!HasAccessModes(pv.access_modes, claim.access_modes)) continue;
    if (smallest == nullptr || smallest->capacity_bytes > pv.capacity_bytes) smallest = &pv;
  }
  *out = smallest;
  return Status();
}

// hasEnoughCapacity: the claim's driver does not track capacity, or some
// CSIStorageCapacity of the class accessible from the node has room for it.
bool HasEnoughCapacity(const ClusterState& s, const StorageClass& sc,
                       const PersistentVolumeClaim& claim, const LabelSet& node_labels) {
  if (!claim.has_storage_request) return true;
  const CSIDriver* driver = s.FindCSIDriver(sc.provisioner);
  if (driver == nullptr || !driver->storage_capacity) return true;
  for (const auto& [key, c] : s.csi_storage_capacities()) {
    const std::optional<int64_t> limit = c->VolumeLimit();
    if (c->storage_class_name == sc.name && limit && *limit >= claim.storage_request &&
        c->node_topology && c->node_topology->valid &&
        c->node_topology->Matches(node_labels, s.interner())) {
      return true;
    }
  }
  return false;
}

// checkVolumeProvisions: whether every claim can be provisioned for the
// node (*satisfied) and has the storage for it (*sufficient_storage).
Status CheckVolumeProvisions(const ClusterState& s,
                             const std::vector<const PersistentVolumeClaim*>& claims,
                             const LabelSet& node_labels, bool* satisfied,
                             bool* sufficient_storage) {
  *satisfied = true;
  for (const PersistentVolumeClaim* claim : claims) {
    if (claim->storage_class.empty()) {
      return Status::Error("no class for claim \"" + claim->ns + "/" + claim->name + "\"");
    }
    const StorageClass* sc = s.FindStorageClass(claim->storage_class);
    if (sc == nullptr) {
      return Status::Error("failed to find storage class \"" + claim->storage_class + "\"");
    }
    if (sc->provisioner.empty() || sc->provisioner == kNotSupportedProvisioner) {
      *satisfied = false;
      return Status();
    }
    if (!sc->allowed_topologies.empty() &&
        std::none_of(sc->allowed_topologies.begin(), sc->allowed_topologies.end(),
                     [&](const NodeSelectorTerm& t) {
                       return t.Matches(node_labels, kNoAtom, s.interner());
                     })) {
      *satisfied = false;
      return Status();
    }
    if (!HasEnoughCapacity(s, *sc, *claim, node_labels)) {
      *sufficient_storage = false;
      return Status();
    }
  }
  return Status();
}

// FindPodVolumes for one node.
Status FindPodVolumes(const PreFilterState& st, const Node& node, PodVolumes* out) {
  const ClusterState& s = *st.snapshot;
  bool bound_satisfied = true, unbound_satisfied = true, sufficient_storage = true,
       bound_pvs_found = true;
  for (size_t i = 0; i < st.bound.size(); ++i) {
    const PersistentVolume* pv = s.FindPersistentVolume(st.bound[i]->volume_name);
    if (pv == nullptr) {
      bound_pvs_found = false;
      break;
    }
    const bool translated =
        TranslatesToCSI(*pv) &&
        IsPluginMigratedToCSIOnNode(s.FindCSINode(node.name), pv->in_tree_plugin);
    if (!MatchesNodeAffinity(translated ? st.bound_csi_affinity[i] : pv->node_affinity, node.labels,
                             s.interner())) {
      bound_satisfied = false;
      break;
    }
  }
  std::vector<const PersistentVolumeClaim*> to_match, to_provision;
  for (const PersistentVolumeClaim* claim : st.unbound_delay_binding) {
    if (!claim->selected_node) {
      to_match.push_back(claim);
    } else if (*claim->selected_node != node.name) {
      unbound_satisfied = false;  // the fast path: another node was picked
      break;
    } else {
      to_provision.push_back(claim);
    }
  }
  if (unbound_satisfied && !st.unbound_delay_binding.empty()) {
    // Smallest requests first, to get the smallest fits.
    std::stable_sort(to_match.begin(), to_match.end(),
                     [](auto* a, auto* b) { return a->storage_request < b->storage_request; });
    std::vector<const PersistentVolume*> chosen;
    for (const PersistentVolumeClaim* claim : to_match) {
      const PersistentVolume* pv;
      if (Status r = FindMatchingVolume(s, *claim, node.labels, chosen, &pv); !r.IsSuccess()) {
        return r;
      }
      if (pv == nullptr) {
        unbound_satisfied = false;
        to_provision.push_back(claim);
        continue;
      }
      chosen.push_back(pv);
      out->static_bindings.emplace_back(claim, pv);
    }
    if (!to_provision.empty()) {
      if (Status r = CheckVolumeProvisions(s, to_provision, node.labels, &unbound_satisfied,
                                           &sufficient_storage);
          !r.IsSuccess()) {
        return r;
      }
      if (unbound_satisfied && sufficient_storage) {
        out->dynamic_provisions = std::move(to_provision);
      }
    }
  }
  if (!bound_satisfied) out->reasons.push_back(VolumeBinding::kReasonNodeConflict);
  if (!unbound_satisfied) out->reasons.push_back(VolumeBinding::kReasonBindConflict);
  if (!sufficient_storage) out->reasons.push_back(VolumeBinding::kReasonNotEnoughSpace);
  if (!bound_pvs_found) out->reasons.push_back(VolumeBinding::kReasonPVNotExist);
  return Status();
}

// The claim of a claim-backed volume, checked as podHasPVCs does; *pvc is
// null with a success status for other volumes.
Status ClaimFor(const ClusterState& s, const Pod& pod, const PodVolume& v,
                const PersistentVolumeClaim** pvc) {
  *pvc = nullptr;
  if (!v.HasClaim()) return Status();
  const bool ephemeral = v.source == PodVolume::Source::kEphemeral;
  const PersistentVolumeClaim* c = s.FindPersistentVolumeClaim(pod.ns, v.claim_name);
  if (c == nullptr) {
    if (!ephemeral) return NotFoundClaim(v.claim_name);
    return Status::Owned(Code::kUnschedulableAndUnresolvable,
                         "waiting for ephemeral volume controller to create the "
                         "persistentvolumeclaim \"" +
                             v.claim_name + "\"");
  }
  if (c->lost) {
    return Status::Owned(Code::kUnschedulableAndUnresolvable,
                         "persistentvolumeclaim \"" + c->name +
                             "\" bound to non-existent persistentvolume \"" + c->volume_name +
                             "\"");
  }
  if (c->deleting) {
    return Status::Owned(Code::kUnschedulableAndUnresolvable,
                         "persistentvolumeclaim \"" + c->name + "\" is being deleted");
  }
  if (ephemeral && (c->controller_uid.empty() || c->controller_uid != pod.uid)) {
    return Status::Owned(Code::kUnschedulableAndUnresolvable,
                         "PVC " + c->ns + "/" + c->name + " was not created for pod " + pod.ns +
                             "/" + pod.name + " (pod is not owner)");
  }
  *pvc = c;
  return Status();
}

// podHasPVCs' first test: a volume backed by a claim.
bool HasClaimVolume(const Pod& pod) {
  return std::any_of(pod.volumes.begin(), pod.volumes.end(),
                     [](const PodVolume& v) { return v.HasClaim(); });
}

// PreFilter's work, shared with AssumePodVolumes.
Status ComputePreFilterState(const ClusterState& s, const Pod& pod, PreFilterState* st,
                             bool* has_claims, bool* unbound_immediate) {
  st->snapshot = &s;
  *has_claims = false;
  *unbound_immediate = false;
  std::vector<const PersistentVolumeClaim*> claims;
  for (const PodVolume& v : pod.volumes) {
    const PersistentVolumeClaim* c;
    if (Status r = ClaimFor(s, pod, v, &c); !r.IsSuccess()) return r;
    if (c != nullptr) claims.push_back(c);
  }
  *has_claims = !claims.empty();
  for (const PersistentVolumeClaim* c : claims) {
    if (!c->volume_name.empty() && c->bind_completed) {
      st->bound.push_back(c);
      const PersistentVolume* pv = s.FindPersistentVolume(c->volume_name);
      st->bound_csi_affinity.push_back(
          pv != nullptr && TranslatesToCSI(*pv)
              ? TranslatePVTopology(*pv, CSITopologyKey(pv->in_tree_plugin), s.interner())
              : std::nullopt);
      continue;
    }
    // volume.IsDelayBindingMode: no class or an unknown class is immediate.
    bool delay = false;
    if (!c->storage_class.empty()) {
      if (const StorageClass* sc = s.FindStorageClass(c->storage_class)) {
        if (!sc->binding_mode) {
          return Status::Error("VolumeBindingMode not set for StorageClass \"" + sc->name + "\"");
        }
        delay = *sc->binding_mode == VolumeBindingMode::kWaitForFirstConsumer;
      }
    }
    if (delay && c->volume_name.empty()) {
      st->unbound_delay_binding.push_back(c);
    } else {
      *unbound_immediate = true;  // prebound claims count as immediate
    }
  }
  return Status();
}

}  // namespace

Status VolumeBinding::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                                PreFilterResult* /*result*/) const {
  if (!HasClaimVolume(pod)) return Status(Code::kSkip);
  auto st = std::make_shared<PreFilterState>();
  bool has_claims, unbound_immediate;
  if (Status r = ComputePreFilterState(snapshot, pod, st.get(), &has_claims, &unbound_immediate);
      !r.IsSuccess()) {
    return r;
  }
  if (!has_claims) return Status(Code::kSkip);
  if (unbound_immediate)
    return Status(Code::kUnschedulableAndUnresolvable, kReasonUnboundImmediate);
  state.Write(slot(), std::move(st));
  return Status();
}

Status VolumeBinding::Filter(const CycleState& state, const Pod& /*pod*/,
                             const NodeInfo& node) const {
  const auto* st = state.Read<PreFilterState>(slot());
  if (st == nullptr) return Status::Error("reading \"VolumeBinding\" from cycleState: not found");
  PodVolumes found;
  if (Status r = FindPodVolumes(*st, *node.node(), &found); !r.IsSuccess()) return r;
  if (!found.reasons.empty()) {
    return Status(Code::kUnschedulableAndUnresolvable, std::move(found.reasons));
  }
  return Status();
}

void AssumePodVolumes(const Pod& pod, const std::string& node_name, ClusterState* state) {
  if (!HasClaimVolume(pod)) return;  // most pods: no node lookup, no claim walk
  const NodeInfo* node = state->FindNode(node_name);
  if (node == nullptr) return;
  PreFilterState st;
  bool has_claims, unbound_immediate;
  if (!ComputePreFilterState(*state, pod, &st, &has_claims, &unbound_immediate).IsSuccess() ||
      st.unbound_delay_binding.empty()) {
    return;
  }
  PodVolumes found;
  if (!FindPodVolumes(st, *node->node(), &found).IsSuccess() || !found.reasons.empty()) return;
  // Copy what changes first: the state's objects are replaced below.
  std::vector<std::pair<PersistentVolumeClaim, PersistentVolume>> bindings;
  for (const auto& [claim, pv] : found.static_bindings) bindings.emplace_back(*claim, *pv);
  std::vector<PersistentVolumeClaim> provisions;
  for (const PersistentVolumeClaim* claim : found.dynamic_provisions) provisions.push_back(*claim);
  for (auto& [claim, pv] : bindings) {
    pv.claim_ref = ClaimRef{claim.ns, claim.name, claim.uid};
    pv.available = false;
    claim.volume_name = pv.name;
    claim.bind_completed = true;
    state->UpsertPersistentVolume(std::make_shared<const PersistentVolume>(std::move(pv)));
    state->UpsertPersistentVolumeClaim(
        std::make_shared<const PersistentVolumeClaim>(std::move(claim)));
  }
  for (PersistentVolumeClaim& claim : provisions) {
    claim.selected_node = node_name;
    state->UpsertPersistentVolumeClaim(
        std::make_shared<const PersistentVolumeClaim>(std::move(claim)));
  }
}

}  // namespace sched
