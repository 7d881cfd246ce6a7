#include "libsched/engine/state_digest.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sched {
namespace {

// Appends fixed-width integers and length-prefixed strings, so that no two
// different states encode to the same bytes.
class Encoder {
 public:
  explicit Encoder(const Interner& in) : in_(in) {}

  const std::string& bytes() const { return out_; }

  void U64(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void Str(std::string_view s) {
    U64(s.size());
    out_.append(s);
  }
  std::string_view Name(Atom a) const { return a == kNoAtom ? std::string_view() : in_.Str(a); }
  void AtomStr(Atom a) {
    U64(a == kNoAtom ? 0 : 1);
    Str(Name(a));
  }
  template <class T, class Fn>
  void List(const std::vector<T>& v, Fn&& fn) {
    U64(v.size());
    for (const T& e : v) fn(e);
  }
  void Strings(const std::vector<std::string>& v) {
    List(v, [&](const std::string& s) { Str(s); });
  }
  // A set of strings: sorted, so that interning order does not show.
  void StrSet(std::vector<std::string_view> v) {
    std::sort(v.begin(), v.end());
    List(v, [&](std::string_view s) { Str(s); });
  }

  void Labels(const LabelSet& labels) {
    std::vector<std::pair<std::string_view, std::string_view>> kv;
    for (const auto& [k, v] : labels.entries()) kv.emplace_back(Name(k), Name(v));
    std::sort(kv.begin(), kv.end());
    List(kv, [&](const auto& e) {
      Str(e.first);
      Str(e.second);
    });
  }

  void Res(const Resource& r) {
    I64(r.milli_cpu);
    I64(r.memory);
    I64(r.ephemeral_storage);
    I64(r.allowed_pods);
    std::vector<std::pair<std::string_view, int64_t>> scalar;
    for (const auto& [name, v] : r.scalar) {
      if (v != 0) scalar.emplace_back(Name(name), v);
    }
    std::sort(scalar.begin(), scalar.end());
    List(scalar, [&](const auto& e) {
      Str(e.first);
      I64(e.second);
    });
  }

  void Req(const Requirement& r) {
    AtomStr(r.key);
    U64(static_cast<uint64_t>(r.op));
    std::vector<std::string_view> values;
    for (Atom v : r.values) values.push_back(Name(v));
    StrSet(std::move(values));
    I64(r.number);
    U64(r.valid);
  }

  void Selector(const std::optional<LabelSelector>& sel) {
    U64(sel.has_value());
    if (!sel) return;
    List(sel->requirements, [&](const Requirement& r) { Req(r); });
    U64(sel->valid);
  }

  void Affinity(const AffinityTerm& t) {
    std::vector<std::string_view> namespaces;
    for (Atom a : t.namespaces) namespaces.push_back(Name(a));
    StrSet(std::move(namespaces));
    Selector(t.selector);
    Selector(t.namespace_selector);
    AtomStr(t.topology_key);
  }

  void PodAffinity(const PodAffinityTerms& a) {
    const auto term = [&](const AffinityTerm& t) { Affinity(t); };
    const auto weighted = [&](const WeightedAffinityTerm& t) {
      I64(t.weight);
      Affinity(t.term);
    };
    List(a.required_affinity, term);
    List(a.required_anti_affinity, term);
    List(a.preferred_affinity, weighted);
    List(a.preferred_anti_affinity, weighted);
    U64(a.has_pod_affinity);
    U64(a.has_required_anti_affinity);
    Str(a.parse_error);
  }

  void Spread(const TopologySpreadConstraint& c) {
    I64(c.max_skew);
    AtomStr(c.topology_key);
    U64(c.do_not_schedule);
    Selector(c.selector);
    I64(c.min_domains);
    U64(static_cast<uint64_t>(c.node_affinity_policy));
    U64(static_cast<uint64_t>(c.node_taints_policy));
  }

  void Term(const NodeSelectorTerm& t) {
    List(t.match_expressions, [&](const Requirement& r) { Req(r); });
    List(t.match_fields, [&](const Requirement& r) { Req(r); });
    U64(t.valid);
  }

  void PodFields(const Pod& p) {
    Str(p.ns);
    Str(p.name);
    Str(p.uid);
    Str(p.node_name);
    Str(p.scheduler_name);
    Str(p.nominated_node_name);
    I64(p.priority);
    Str(p.creation_timestamp);
    Labels(p.labels);
    List(p.node_selector, [&](const Requirement& r) { Req(r); });
    U64(p.required_node_affinity.has_value());
    if (p.required_node_affinity) {
      List(p.required_node_affinity->terms, [&](const NodeSelectorTerm& t) { Term(t); });
    }
    List(p.preferred_node_affinity, [&](const PreferredSchedulingTerm& t) {
      I64(t.weight);
      Term(t.preference);
    });
    List(p.tolerations, [&](const Toleration& t) {
      AtomStr(t.key);
      U64(static_cast<uint64_t>(t.op));
      AtomStr(t.value);
      U64(static_cast<uint64_t>(t.effect));
    });
    Res(p.requests);
    I64(p.non_zero_requests.milli_cpu);
    I64(p.non_zero_requests.memory);
    List(p.host_ports, [&](const HostPort& hp) { Port(hp); });
    List(p.images, [&](Atom a) { AtomStr(a); });
    I64(p.num_containers);
    List(p.extended_requests, [&](const ContainerExtendedRequests& c) {
      I64(c.container);
      U64(c.short_lived);
      List(c.entries, [&](const ContainerExtendedRequests::Entry& e) {
        AtomStr(e.name);
        I64(e.count);
        I64(e.index);
      });
    });
    U64(p.terminating);
    AtomStr(p.ns_atom);
    PodAffinity(p.pod_affinity);
    List(p.topology_spread_constraints, [&](const TopologySpreadConstraint& c) { Spread(c); });
    U64(static_cast<uint64_t>(p.controller_kind));
    Str(p.controller_name);
    Str(p.controller_ref_kind);
    Str(p.controller_uid);
    U64(p.start_time.has_value());
    I64(p.start_time.value_or(0));
    U64(p.preempt_never);
    U64(p.disruption_target_by_scheduler);
    List(p.scheduling_gates, [&](const std::string& g) { Str(g); });
    List(p.volumes, [&](const PodVolume& v) {
      Str(v.name);
      U64(static_cast<uint64_t>(v.source));
      Str(v.claim_name);
      Str(v.disk);
      Str(v.rbd_pool);
      List(v.rbd_monitors, [&](const std::string& m) { Str(m); });
      U64(v.read_only);
    });
    List(p.resource_claims, [&](const PodResourceClaim& c) {
      Str(c.name);
      U64(c.claim_name.has_value());
      Str(c.claim_name.value_or(""));
      U64(c.template_name.has_value());
      Str(c.template_name.value_or(""));
      U64(c.has_status);
      U64(c.generated_name.has_value());
      Str(c.generated_name.value_or(""));
    });
  }

  void NodeSelectorFields(const std::optional<NodeSelector>& s) {
    U64(s.has_value());
    if (s) List(s->terms, [&](const NodeSelectorTerm& t) { Term(t); });
  }

  void PersistentVolumeFields(const PersistentVolume& pv) {
    Str(pv.name);
    Labels(pv.labels);
    I64(pv.capacity_bytes);
    U64(pv.access_modes);
    Str(pv.storage_class);
    U64(pv.block_mode);
    Str(pv.volume_attributes_class);
    NodeSelectorFields(pv.node_affinity);
    U64(pv.claim_ref.has_value());
    if (pv.claim_ref) {
      Str(pv.claim_ref->ns);
      Str(pv.claim_ref->name);
      Str(pv.claim_ref->uid);
    }
    Str(pv.csi_driver);
    Str(pv.csi_handle);
    Str(pv.in_tree_plugin);
    U64(pv.available);
    U64(pv.deleting);
  }

  void PersistentVolumeClaimFields(const PersistentVolumeClaim& c) {
    Str(c.ns);
    Str(c.name);
    Str(c.uid);
    Str(c.volume_name);
    Str(c.storage_class);
    U64(c.access_modes);
    I64(c.storage_request);
    U64(c.has_storage_request);
    U64(c.block_mode);
    Str(c.volume_attributes_class);
    Selector(c.selector);
    U64(c.bind_completed);
    U64(c.selected_node.has_value());
    Str(c.selected_node.value_or(""));
    U64(c.lost);
    U64(c.deleting);
    Str(c.controller_uid);
  }

  void StorageClassFields(const StorageClass& sc) {
    Str(sc.name);
    Str(sc.provisioner);
    U64(sc.binding_mode.has_value());
    U64(static_cast<uint64_t>(sc.binding_mode.value_or(VolumeBindingMode::kImmediate)));
    List(sc.allowed_topologies, [&](const NodeSelectorTerm& t) { Term(t); });
  }

  void CSINodeFields(const CSINode& n) {
    Str(n.name);
    List(n.drivers, [&](const CSINodeDriver& d) {
      Str(d.name);
      U64(d.allocatable_count.has_value());
      I64(d.allocatable_count.value_or(0));
    });
    List(n.migrated_plugins, [&](const std::string& p) { Str(p); });
  }

  void CSIDriverFields(const CSIDriver& d) {
    Str(d.name);
    U64(d.storage_capacity);
  }

  void OptionalI64(const std::optional<int64_t>& v) {
    U64(v.has_value());
    I64(v.value_or(0));
  }

  void CSIStorageCapacityFields(const CSIStorageCapacity& c) {
    Str(c.ns);
    Str(c.name);
    Str(c.storage_class_name);
    Selector(c.node_topology);
    OptionalI64(c.capacity);
    OptionalI64(c.maximum_volume_size);
  }

  void VolumeAttachmentFields(const VolumeAttachment& va) {
    Str(va.name);
    Str(va.attacher);
    Str(va.node_name);
    U64(va.persistent_volume_name.has_value());
    Str(va.persistent_volume_name.value_or(""));
  }

  void DraNode(const DraNodeSelection& n) {
    Str(n.node_name);
    U64(n.all_nodes);
    NodeSelectorFields(n.node_selector);
  }

  void DraRequestFields(const DraRequest& r) {
    Str(r.name);
    Str(r.device_class_name);
    List(r.selectors, [&](const std::string& s) { Str(s); });
    U64(static_cast<uint64_t>(r.mode));
    I64(r.count);
    U64(r.admin_access);
    List(r.tolerations, [&](const DraToleration& t) {
      Str(t.key);
      Str(t.op);
      Str(t.value);
      Str(t.effect);
    });
    DraQuantityList(r.capacity_requests);
  }

  // An exact 128-bit quantity, in two halves.
  void Nanos(DraCounterValue v) {
    U64(static_cast<uint64_t>(v >> 64));
    U64(static_cast<uint64_t>(v));
  }

  void DraQuantityList(const DraQuantities& q) {
    List(q, [&](const auto& c) {
      Str(c.first);
      Nanos(c.second);
    });
  }

  void DraCounterSets(const std::vector<DraCounterSet>& sets) {
    List(sets, [&](const DraCounterSet& set) {
      Str(set.name);
      DraQuantityList(set.counters);
    });
  }

  void DraClaimSpecFields(const DraClaimSpec& spec) {
    List(spec.requests, [&](const DraDeviceRequest& r) {
      Str(r.name);
      U64(r.exactly.has_value());
      if (r.exactly) DraRequestFields(*r.exactly);
      List(r.first_available, [&](const DraRequest& sub) { DraRequestFields(sub); });
    });
    List(spec.constraints, [&](const DraConstraint& c) {
      List(c.requests, [&](const std::string& s) { Str(s); });
      Str(c.match_attribute);
      Str(c.distinct_attribute);
    });
  }

  void ResourceClaimFields(const ResourceClaim& c) {
    Str(c.ns);
    Str(c.name);
    Str(c.uid);
    U64(c.deleting);
    Str(c.controller_uid);
    Str(c.controller_name);
    U64(c.extended_resource_claim);
    DraClaimSpecFields(c.spec);
    U64(c.allocation.has_value());
    if (c.allocation) {
      List(c.allocation->devices, [&](const DraAllocatedDevice& d) {
        Str(d.request);
        Str(d.driver);
        Str(d.pool);
        Str(d.device);
        U64(d.admin_access);
        U64(d.share_id.has_value());
        Str(d.share_id.value_or(""));
        U64(d.consumed_capacity.has_value());
        if (d.consumed_capacity) DraQuantityList(*d.consumed_capacity);
        Strings(d.binding_conditions);
        Strings(d.binding_failure_conditions);
      });
      NodeSelectorFields(c.allocation->node_selector);
      U64(c.allocation->allocation_timestamp.has_value());
      I64(c.allocation->allocation_timestamp.value_or(0));
    }
    List(c.reserved_for, [&](const std::string& uid) { Str(uid); });
    List(c.device_statuses, [&](const DraDeviceStatus& d) {
      Str(d.driver);
      Str(d.pool);
      Str(d.device);
      List(d.conditions, [&](const DraCondition& cond) {
        Str(cond.type);
        Str(cond.status);
      });
    });
  }

  void ResourceClaimTemplateFields(const ResourceClaimTemplate& t) {
    Str(t.ns);
    Str(t.name);
    DraClaimSpecFields(t.spec);
  }

  void DeviceClassFields(const DeviceClass& c) {
    Str(c.name);
    List(c.selectors, [&](const std::string& s) { Str(s); });
    Str(c.extended_resource_name);
    I64(c.created);
  }

  void ResourceSliceFields(const ResourceSlice& s) {
    Str(s.name);
    Str(s.driver);
    Str(s.pool);
    I64(s.generation);
    I64(s.resource_slice_count);
    DraNode(s.node);
    U64(s.per_device_node_selection);
    DraCounterSets(s.shared_counters);
    List(s.devices, [&](const DraDevice& d) {
      Str(d.name);
      List(d.attributes, [&](const auto& a) {
        Str(a.first);
        U64(static_cast<uint64_t>(a.second.kind));
        I64(a.second.int_value);
        U64(a.second.bool_value);
        Str(a.second.text);
      });
      List(d.capacity, [&](const DraCapacity& c) {
        Str(c.name);
        Str(c.text);
        Nanos(c.value);
        U64(c.policy.has_value());
        if (!c.policy) return;
        U64(c.policy->default_value.has_value());
        Nanos(c.policy->default_value.value_or(0));
        List(c.policy->valid_values, [&](DraCounterValue v) { Nanos(v); });
        U64(c.policy->has_range);
        Nanos(c.policy->min);
        U64(c.policy->max.has_value());
        Nanos(c.policy->max.value_or(0));
        U64(c.policy->step.has_value());
        Nanos(c.policy->step.value_or(0));
      });
      DraNode(d.node);
      DraCounterSets(d.consumes_counters);
      List(d.taints, [&](const DraTaint& t) {
        Str(t.key);
        Str(t.value);
        Str(t.effect);
      });
      U64(d.binds_to_node);
      Strings(d.binding_conditions);
      Strings(d.binding_failure_conditions);
      U64(d.allow_multiple_allocations);
    });
  }

  // The pods of a NodeInfo's derived list, by key: which of its pods are in
  // it, in its order.
  void PodKeys(const std::vector<const Pod*>& pods) {
    List(pods, [&](const Pod* p) { Str(PodKey(*p)); });
  }

  void Pdb(const PodDisruptionBudget& b) {
    Str(b.ns);
    Str(b.name);
    Selector(b.selector);
    I64(b.disruptions_allowed);
    List(b.disrupted_pods, [&](const std::string& s) { Str(s); });
  }

  void NamespaceFields(const Namespace& ns) {
    Str(ns.name);
    AtomStr(ns.name_atom);
    Labels(ns.labels);
  }

  void WorkloadFields(const Workload& w) {
    U64(static_cast<uint64_t>(w.kind));
    Str(w.ns);
    Str(w.name);
    U64(w.match_labels.has_value());
    if (w.match_labels) Labels(*w.match_labels);
    Selector(w.selector);
  }

  // A queue entry: the pod, where it is, its history, its nomination.
  void Queued(const QueuedPodView& v, const PriorityQueue& queue) {
    PodFields(*v.pod);
    Str(v.queue);
    I64(v.attempts);
    List(v.unschedulable_plugins, [&](const std::string& s) { Str(s); });
    Str(v.gating_plugin);
    I64(v.timestamp.count());
    U64(v.backoff_expiration.has_value());
    I64(v.backoff_expiration.value_or(Time::zero()).count());
    Str(queue.nominator().NominatedNodeFor(*v.pod));
  }

  void Port(const HostPort& hp) {
    Str(hp.ip);
    U64(static_cast<uint64_t>(hp.protocol));
    I64(hp.port);
  }

  void NodeFields(const Node& n, const ClusterState& state, const NodeInfo& info) {
    Str(n.name);
    Labels(n.labels);
    List(n.taints, [&](const Taint& t) {
      AtomStr(t.key);
      AtomStr(t.value);
      U64(static_cast<uint64_t>(t.effect));
    });
    U64(n.unschedulable);
    Res(n.allocatable);
    List(n.prefer_avoid_pods, [&](const AvoidPodsEntry& e) {
      Str(e.kind);
      Str(e.uid);
    });
    // With each image name, the aggregates derived from it.
    List(n.images, [&](const ContainerImage& img) {
      I64(img.size_bytes);
      List(img.names, [&](Atom a) {
        AtomStr(a);
        I64(info.ImageSize(a).value_or(-1));
        I64(state.ImageNumNodes(a));
      });
    });
  }

  void Info(const std::string& name, const NodeInfo& info, const ClusterState& state) {
    Str(name);
    U64(info.node() != nullptr);
    if (info.node() != nullptr) NodeFields(*info.node(), state, info);
    List(info.pods(), [&](const std::shared_ptr<const Pod>& p) { PodFields(*p); });
    Res(info.requested());
    I64(info.non_zero_requested().milli_cpu);
    I64(info.non_zero_requested().memory);
    List(info.used_ports(), [&](const HostPort& hp) { Port(hp); });
    PodKeys(info.pods_with_affinity());
    PodKeys(info.pods_with_required_anti_affinity());
  }

 private:
  const Interner& in_;
  std::string out_;
};

}  // namespace

uint64_t StateDigest(const ClusterState& state, std::span<const Scheduler* const> schedulers,
                     const PriorityQueue* queue, Time now, DigestScope scope) {
  Encoder e(state.interner());
  e.U64(state.NumNodes());
  e.U64(state.NumPods());
  e.U64(state.generation());
  // A shared interner's size counts a fork family's strings, not this
  // state's.
  e.U64(state.interner().shared() ? 0 : state.interner().size());
  std::vector<const std::string*> names;
  state.ForEachNodeInfo([&](const std::string& name, const NodeInfo&) { names.push_back(&name); });
  std::sort(names.begin(), names.end(), [](auto* a, auto* b) { return *a < *b; });
  e.List(names, [&](const std::string* name) { e.Info(*name, *state.FindNodeInfo(*name), state); });
  // PDBs and workloads are in ordered maps already; namespaces are not.
  e.U64(state.pdbs().size());
  for (const auto& [key, pdb] : state.pdbs()) e.Pdb(*pdb);
  std::vector<const Namespace*> namespaces;
  for (const auto& [atom, ns] : state.namespaces()) namespaces.push_back(ns.get());
  std::sort(namespaces.begin(), namespaces.end(),
            [](const Namespace* a, const Namespace* b) { return a->name < b->name; });
  e.List(namespaces, [&](const Namespace* ns) { e.NamespaceFields(*ns); });
  for (int k = 0; k < kNumWorkloadKinds; ++k) {
    const auto& workloads = state.workloads(static_cast<WorkloadKind>(k));
    e.U64(workloads.size());
    for (const auto& [key, w] : workloads) e.WorkloadFields(*w);
  }
  // Volume objects, in key order.
  e.U64(state.persistent_volumes().size());
  for (const auto& [key, pv] : state.persistent_volumes()) e.PersistentVolumeFields(*pv);
  e.U64(state.persistent_volume_claims().size());
  for (const auto& [key, pvc] : state.persistent_volume_claims()) {
    e.PersistentVolumeClaimFields(*pvc);
  }
  e.U64(state.storage_classes().size());
  for (const auto& [key, sc] : state.storage_classes()) e.StorageClassFields(*sc);
  e.U64(state.csi_nodes().size());
  for (const auto& [key, n] : state.csi_nodes()) e.CSINodeFields(*n);
  e.U64(state.csi_drivers().size());
  for (const auto& [key, d] : state.csi_drivers()) e.CSIDriverFields(*d);
  e.U64(state.csi_storage_capacities().size());
  for (const auto& [key, c] : state.csi_storage_capacities()) e.CSIStorageCapacityFields(*c);
  e.U64(state.volume_attachments().size());
  for (const auto& [key, va] : state.volume_attachments()) e.VolumeAttachmentFields(*va);
  // DRA objects, in key order.
  e.U64(state.resource_claims().size());
  for (const auto& [key, c] : state.resource_claims()) e.ResourceClaimFields(*c);
  e.U64(state.resource_claim_templates().size());
  for (const auto& [key, t] : state.resource_claim_templates()) e.ResourceClaimTemplateFields(*t);
  e.U64(state.device_classes().size());
  for (const auto& [key, c] : state.device_classes()) e.DeviceClassFields(*c);
  e.U64(state.resource_slices().size());
  for (const auto& [key, s] : state.resource_slices()) e.ResourceSliceFields(*s);
  if (scope == DigestScope::kAll) {
    e.List(state.NodeList(), [&](const NodeInfo* n) { e.Str(n->node()->name); });
    e.U64(schedulers.size());
    for (const Scheduler* s : schedulers) {
      e.Str(s->profile().scheduler_name());
      e.I64(s->profile().percentage_of_nodes_to_score());
      std::ostringstream rng;  // the engine's full state, as the standard defines its text form
      rng << s->rng();
      e.Str(rng.str());
      e.U64(s->next_start_node_index());
    }
    e.I64(now.count());
    e.U64(queue != nullptr);
    if (queue != nullptr) {
      e.I64(queue->SchedulingCycle());
      e.List(queue->Snapshot(), [&](const QueuedPodView& v) { e.Queued(v, *queue); });
      // Nominations by node (their order is what NominatedPodsForNode
      // returns), for every node name the state knows.
      for (const std::string* name : names) {
        e.List(queue->NominatedPodsForNode(*name),
               [&](const std::shared_ptr<const Pod>& p) { e.Str(PodKey(*p)); });
      }
    }
  }
  return XXH3_64bits(e.bytes().data(), e.bytes().size());
}

}  // namespace sched
