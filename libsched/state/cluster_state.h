// ClusterState: the resident cluster the engine schedules against: nodes,
// bound and assumed pods, and per-node aggregates (NodeInfo), mirroring the
// scheduler cache (pkg/scheduler/backend/cache/cache.go) and its snapshot.
//
// Thread-safety: not synchronized. The engine serializes mutation; const
// methods may be called concurrently when nothing mutates.
#ifndef LIBSCHED_STATE_CLUSTER_STATE_H_
#define LIBSCHED_STATE_CLUSTER_STATE_H_

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "libsched/model/csi_driver.h"
#include "libsched/model/csi_node.h"
#include "libsched/model/csi_storage_capacity.h"
#include "libsched/model/dra.h"
#include "libsched/model/interner.h"
#include "libsched/model/namespace.h"
#include "libsched/model/node.h"
#include "libsched/model/pdb.h"
#include "libsched/model/persistent_volume.h"
#include "libsched/model/persistent_volume_claim.h"
#include "libsched/model/pod.h"
#include "libsched/model/storage_class.h"
#include "libsched/model/string_hash.h"
#include "libsched/model/volume_attachment.h"
#include "libsched/model/workload.h"
#include "libsched/state/affinity_term_index.h"
#include "libsched/state/cow.h"
#include "libsched/state/lowest_free_ids.h"
#include "libsched/state/node_info.h"
#include "libsched/state/node_tree.h"
#include "libsched/state/pod_label_index.h"
#include "libsched/state/topology_domains.h"
#include "libsched/state/undo_log.h"

namespace sched {

// "namespace/name": how pods are keyed.
std::string PodKey(const Pod& pod);

class ClusterState {
 public:
  ClusterState() = default;
  ClusterState(const ClusterState&) = delete;
  ClusterState& operator=(const ClusterState&) = delete;

  // One unit of change, which is also all-or-nothing under out of memory:
  // while it is open, every change records how to undo it (UndoLog), and
  // node-list rebuilds are deferred, so applying N node changes costs one
  // rebuild instead of N. Commit() rebuilds the node list (it may throw,
  // changing nothing) and keeps the changes; destroyed without a Commit
  // (a change threw bad_alloc), it puts the state back exactly as it was,
  // down to the generation, without allocating. NodeList() is stale
  // inside a Batch once a node was added or removed. Batches nest (an
  // engine transaction): a nested Batch's Commit() rebuilds the node list
  // undoably and hands its changes to the Batch around it, which may still
  // undo them.
  class Batch {
   public:
    explicit Batch(ClusterState& s);
    ~Batch();
    Batch(const Batch&) = delete;
    Batch& operator=(const Batch&) = delete;
    void Commit();

   private:
    ClusterState& s_;
    const bool nested_;  // opened inside another Batch
    bool open_ = true;
  };

  Interner& interner() { return *interner_; }
  const Interner& interner() const { return *interner_; }

  // A copy that shares the interner, the model objects (immutable) and,
  // copy-on-write (state/cow.h), every container and NodeInfo: O(1) time
  // and memory. A later change clones what it touches, once per side: the
  // NodeInfo (and that side's node list entry), one shard of the pod and
  // NodeInfo maps, one PodLabelIndex group, and whole the small
  // containers (indexes, object maps) it writes. Changes to either never
  // show in the other; the shared pieces and interner need the callers'
  // common lock (Engine's family). The copy has no Batch open and records
  // nothing of this state's open ones; a Clone inside a Batch unshares
  // the copy at once (O(nodes + pods)), so this state's rollback writes
  // only into its own pieces. REQUIRES: NodeList() current (not between
  // changes and the Commit of a Batch).
  std::unique_ptr<ClusterState> Clone() const;

  // Adds or replaces a node (watch ADDED / MODIFIED).
  void UpsertNode(std::shared_ptr<const Node> node);
  // Removes a node; its pods stay until they are deleted. Returns false if
  // the node was unknown.
  bool RemoveNode(std::string_view name);
  // Inside a Batch: UpsertNode of a new node that also joins NodeList() at
  // once, at its end (undoably), where UpsertNode leaves the list stale
  // until the Batch commits — O(1) instead of a rebuild, for what-if
  // callers that add nodes one by one and filter in between (scale-up).
  // The list's order is not the walk's until the commit rebuilds it.
  // REQUIRES: a Batch open; no node named node->name.
  void AddNodeListed(std::shared_ptr<const Node> node);

  // Adds or replaces a pod by key. A pod with an empty node_name is not
  // tracked (pending pods live in the queue); replacing a bound pod with an
  // unbound one removes it.
  void UpsertPod(std::shared_ptr<const Pod> pod);
  // Removes a pod by key; false if unknown.
  bool RemovePod(std::string_view key);
  // Assume: the pod is placed on `node_name` before it is bound, so the next
  // cycle sees it (cache.AssumePod). REQUIRES: pod->node_name == node_name.
  void AssumePod(std::shared_ptr<const Pod> pod);
  bool HasPod(std::string_view key) const { return pods_.Contains(key); }
  // The bound or assumed pod with `key`, or null.
  std::shared_ptr<const Pod> GetPod(std::string_view key) const;

  // PodDisruptionBudgets, keyed "namespace/name" (what preemption reads).
  void UpsertPdb(std::shared_ptr<const PodDisruptionBudget> pdb);
  // False if unknown.
  bool RemovePdb(std::string_view key);
  const std::map<std::string, std::shared_ptr<const PodDisruptionBudget>, std::less<>>& pdbs()
      const {
    return *pdbs_;
  }

  // Adds or replaces a Namespace by name (watch ADDED / MODIFIED).
  void UpsertNamespace(std::shared_ptr<const Namespace> ns);
  // Removes a Namespace; false if unknown. Its pods stay.
  bool RemoveNamespace(std::string_view name);
  // The labels of the namespace `name` (an interned namespace name), or an
  // empty set when no such Namespace is known — as upstream's
  // GetNamespaceLabelsSnapshot falls back to no labels.
  const LabelSet& NamespaceLabels(Atom name) const;
  // Every known Namespace, by interned name (the namespace lister).
  const std::unordered_map<Atom, std::shared_ptr<const Namespace>>& namespaces() const {
    return *namespaces_;
  }

  // Services, ReplicationControllers, ReplicaSets and StatefulSets, keyed
  // by kind and "namespace/name" (what the default spread selector reads).
  void UpsertWorkload(std::shared_ptr<const Workload> w);
  // False if unknown.
  bool RemoveWorkload(WorkloadKind kind, std::string_view key);
  // Null if unknown.
  const Workload* FindWorkload(WorkloadKind kind, std::string_view ns, std::string_view name) const;
  // Calls fn(const Workload&) for each workload of `kind` in namespace
  // `ns`, in name order.
  template <class Fn>
  void ForEachWorkloadIn(WorkloadKind kind, std::string_view ns, Fn&& fn) const {
    const auto& m = *workloads_[static_cast<int>(kind)];
    const std::string prefix = std::string(ns) + "/";
    for (auto it = m.lower_bound(prefix); it != m.end() && it->first.starts_with(prefix); ++it) {
      fn(*it->second);
    }
  }

  // The workloads of `kind` by "namespace/name"; for state digests.
  const std::map<std::string, std::shared_ptr<const Workload>, std::less<>>& workloads(
      WorkloadKind kind) const {
    return *workloads_[static_cast<int>(kind)];
  }

  // Volume objects (the PV, PVC, StorageClass, CSINode, CSIDriver,
  // CSIStorageCapacity and VolumeAttachment listers the volume plugins
  // read). PVs, StorageClasses, CSINodes and CSIDrivers are keyed by name,
  // PVCs and CSIStorageCapacities by "namespace/name", VolumeAttachments by
  // "nodeName/name" (VolumeAttachmentsOn reads one node's, as upstream's
  // index by spec.nodeName). Remove* return false when unknown.
  void UpsertPersistentVolume(std::shared_ptr<const PersistentVolume> pv);
  bool RemovePersistentVolume(std::string_view name);
  void UpsertPersistentVolumeClaim(std::shared_ptr<const PersistentVolumeClaim> pvc);
  bool RemovePersistentVolumeClaim(std::string_view key);
  void UpsertStorageClass(std::shared_ptr<const StorageClass> sc);
  bool RemoveStorageClass(std::string_view name);
  void UpsertCSINode(std::shared_ptr<const CSINode> csi_node);
  bool RemoveCSINode(std::string_view name);
  void UpsertCSIDriver(std::shared_ptr<const CSIDriver> driver);
  bool RemoveCSIDriver(std::string_view name);
  void UpsertCSIStorageCapacity(std::shared_ptr<const CSIStorageCapacity> capacity);
  bool RemoveCSIStorageCapacity(std::string_view key);
  void UpsertVolumeAttachment(std::shared_ptr<const VolumeAttachment> va);
  bool RemoveVolumeAttachment(std::string_view key);
  // Lookups; null when unknown.
  const PersistentVolume* FindPersistentVolume(std::string_view name) const;
  const PersistentVolumeClaim* FindPersistentVolumeClaim(std::string_view ns,
                                                         std::string_view name) const;
  const StorageClass* FindStorageClass(std::string_view name) const;
  const CSINode* FindCSINode(std::string_view name) const;
  const CSIDriver* FindCSIDriver(std::string_view name) const;
  // Every object of a kind, in key order (also what state digests read).
  template <class T>
  using ByName = std::map<std::string, std::shared_ptr<const T>, std::less<>>;
  const ByName<PersistentVolume>& persistent_volumes() const { return *pvs_; }
  const ByName<PersistentVolumeClaim>& persistent_volume_claims() const { return *pvcs_; }
  const ByName<StorageClass>& storage_classes() const { return *storage_classes_; }
  const ByName<CSINode>& csi_nodes() const { return *csi_nodes_; }
  const ByName<CSIDriver>& csi_drivers() const { return *csi_drivers_; }
  const ByName<VolumeAttachment>& volume_attachments() const { return *volume_attachments_; }
  // Calls fn(const VolumeAttachment&) for each VolumeAttachment whose
  // spec.nodeName is `node`, in name order.
  template <class Fn>
  void VolumeAttachmentsOn(std::string_view node, Fn&& fn) const {
    const std::string prefix = std::string(node) + "/";
    for (auto it = volume_attachments_->lower_bound(prefix);
         it != volume_attachments_->end() && it->first.starts_with(prefix); ++it) {
      fn(*it->second);
    }
  }
  const ByName<CSIStorageCapacity>& csi_storage_capacities() const {
    return *csi_storage_capacities_;
  }
  // resource.k8s.io objects (the listers DynamicResources reads):
  // ResourceClaims and ResourceClaimTemplates keyed "namespace/name",
  // DeviceClasses and ResourceSlices by name. Remove* return false when
  // unknown.
  void UpsertResourceClaim(std::shared_ptr<const ResourceClaim> claim);
  bool RemoveResourceClaim(std::string_view key);
  void UpsertResourceClaimTemplate(std::shared_ptr<const ResourceClaimTemplate> tmpl);
  bool RemoveResourceClaimTemplate(std::string_view key);
  void UpsertDeviceClass(std::shared_ptr<const DeviceClass> cls);
  bool RemoveDeviceClass(std::string_view name);
  void UpsertResourceSlice(std::shared_ptr<const ResourceSlice> slice);
  bool RemoveResourceSlice(std::string_view name);
  const ByName<ResourceClaim>& resource_claims() const { return *resource_claims_; }
  // The clock of the engine holding this state (nanoseconds), which the
  // DynamicResources plugin reads as Unix time for the binding timeout
  // (docs/dra.md); empty (the default) when there is none: then nothing
  // times out. A Clone shares it.
  using Clock = std::function<std::chrono::nanoseconds()>;
  void set_clock(Clock clock) { clock_ = std::move(clock); }
  const Clock& clock() const { return clock_; }
  const ByName<ResourceClaimTemplate>& resource_claim_templates() const {
    return *resource_claim_templates_;
  }
  const ByName<DeviceClass>& device_classes() const { return *device_classes_; }
  const ByName<ResourceSlice>& resource_slices() const { return *resource_slices_; }

  // Whether a bound or assumed pod uses the claim "namespace/name" through
  // a persistentVolumeClaim volume (StorageInfoLister.IsPVCUsedByPods).
  bool IsPVCUsedByPods(std::string_view key) const;

  // Nodes that exist (have a Node object), in the order the next cycle
  // walks them: the NodeTree's order if nodes were added or removed since
  // the last SnapshotTaken() (the node set differs), else that cycle's
  // order, zone changes notwithstanding (upstream's UpdateSnapshot re-lists
  // the tree only then: updateAllLists).
  const std::vector<const NodeInfo*>& NodeList() const { return *node_list_; }
  // A scheduling cycle took its snapshot of NodeList() (upstream's
  // UpdateSnapshot at the start of each cycle). O(1), but for giving back
  // the names of the nodes that came or went since the last one; undone
  // with its Batch; outside a Batch it records nothing and cannot fail.
  void SnapshotTaken();
  // NodeInfo::index() of each NodeList() entry, in the same order: a
  // per-node walk over flat arrays that need not touch the NodeInfos.
  const std::vector<uint32_t>& NodeIndexList() const { return *node_index_list_; }
  const NodeInfo* FindNode(std::string_view name) const;
  // The NodeInfo with NodeInfo::index() `index` (with or without a Node
  // object). REQUIRES: one is held (e.g. a PodLabelIndex group names it).
  const NodeInfo* NodeAt(uint32_t index) const { return (*by_index_)[index]; }
  // The same, or null when no NodeInfo is held at `index`.
  const NodeInfo* NodeAtOrNull(uint32_t index) const {
    return index < by_index_->size() ? (*by_index_)[index] : nullptr;
  }
  size_t NumNodes() const { return tree_->size(); }
  size_t NumPods() const { return pods_.size(); }
  // The pods grouped by namespace and labels, with per-node counts (what
  // InterPodAffinity matches an incoming pod's terms against).
  const PodLabelIndex& pod_label_index() const { return pod_labels_; }
  // The distinct (anti-)affinity terms of the bound and assumed pods, with
  // per-topology-domain counts (what InterPodAffinity matches the incoming
  // pod against, instead of every existing pod's terms).
  const AffinityTermIndex& affinity_term_index() const { return *affinity_terms_; }
  // Each node's topology domain per label key, by NodeInfo::index() (what
  // PodTopologySpread counts into flat per-domain arrays).
  const TopologyDomains& topology_domains() const { return *topology_domains_; }
  // One past the largest NodeInfo::index() in use: the size of a
  // per-node array indexed by it. It falls when the highest indexes are
  // freed (a cluster that scales down), so per-index arrays kept across
  // cycles should give back what lies beyond it.
  size_t NodeIndexBound() const { return node_ids_->bound(); }
  // Number of nodes that report an image under this name (ImageStateSummary.NumNodes).
  int ImageNumNodes(Atom image) const;
  // Bumped on every change.
  uint64_t generation() const { return generation_; }
  // Changes when the workloads (Services, ReplicationControllers,
  // ReplicaSets, StatefulSets) do: UpsertWorkload, RemoveWorkload, and a
  // rollback of either, which puts the old value back with the old
  // workloads. Drawn from a process-wide counter, never twice: any two
  // ClusterStates (Clones, forks, unrelated ones) with the same value hold
  // the same workloads, so what is derived from them alone (DefaultSelector)
  // can be kept under it.
  uint64_t workload_generation() const { return workload_generation_; }
  // Calls fn(const std::string& node_name, const NodeInfo&) for every
  // NodeInfo, including those holding pods bound to a node that has no
  // Node object, in no particular order; for state digests.
  template <class Fn>
  void ForEachNodeInfo(Fn&& fn) const {
    infos_.ForEach(
        [&](const std::string& name, const std::shared_ptr<NodeInfo>& info) { fn(name, *info); });
  }
  // The NodeInfo of `name` (with or without a Node object), or null.
  const NodeInfo* FindNodeInfo(std::string_view name) const;

 private:
  // The NodeInfo of `node_name`, made first if unknown; this state's own
  // (MutableInfo).
  NodeInfo& InfoFor(const std::string& node_name);
  // The NodeInfo of `node_name`, cloned first when a Clone shares it (the
  // node list and NodeAt then name the clone), undoably. REQUIRES: known.
  NodeInfo& MutableInfo(const std::string& node_name);
  // Every shared piece made this state's own (Clone inside a Batch).
  void UnshareAll();
  // Every member a Clone() copies, as a tuple of references to those of
  // `s`: the one list of them, which Clone assigns whole and UnshareAll
  // walks. A new member goes here (the static_assert on sizeof in
  // cluster_state.cc reminds); not in_batch_, node_list_stale_, undo_: a
  // copy starts outside any Batch.
  template <class Self>
  static auto ClonedMembers(Self& s) {
    return std::tie(s.interner_, s.infos_, s.pods_, s.by_index_, s.pod_labels_, s.affinity_terms_,
                    s.topology_domains_, s.node_ids_, s.image_nodes_,
                    s.pdbs_, s.namespaces_, s.workloads_, s.pvs_, s.pvcs_, s.storage_classes_,
                    s.csi_nodes_, s.csi_drivers_, s.csi_storage_capacities_, s.volume_attachments_,
                    s.resource_claims_, s.resource_claim_templates_, s.device_classes_,
                    s.resource_slices_, s.pvc_ref_counts_, s.tree_, s.generation_,
                    s.workload_generation_, s.node_list_, s.node_index_list_, s.snapshot_order_,
                    s.snapshot_freed_, s.nodes_since_snapshot_, s.snapshot_order_saved_,
                    s.clock_);
  }
  void CountImages(const Node& node, int delta);
  void DropNodeInfoIfEmpty(const std::string& node_name);
  // The NodeInfo at `index` was dropped: the index is free again
  // (LowestFreeIds), and when the bound falls far under by_index_'s size,
  // by_index_ and the topology domains' arrays by node index give back
  // their room.
  void FreeNodeIndex(uint32_t index);
  // The node of `info` changed from `old` (null: none) to info.node(): its
  // pods' terms move to their new topology domains.
  void MoveAffinityTerms(const NodeInfo& info, const Node* old);
  // PodLabelIndex::Pair of each label of `node` (null: none) whose key some
  // two nodes share a value of: the pairs its pods count in their
  // PodLabelIndex groups (Group::pairs).
  std::vector<uint64_t> SharedLabelPairs(const Node* node) const;
  // The Node of `info` goes from `old` to `now` (null: none) while
  // change_domains() updates topology_domains_: its pods' label pairs move
  // with it, a key that stops being shared is dropped from every group,
  // and one that becomes shared is counted for every other node's pods
  // (O(pods), once per such change).
  template <class Fn>
  void MoveLabelPairs(const NodeInfo& info, const Node* old, const Node* now, Fn&& change_domains);
  // Counts the pod's persistentVolumeClaim volumes in pvc_ref_counts_.
  void CountPVCRefs(const Pod& pod, int delta);
  // Before a node is added or removed: keeps the last snapshot's order
  // (once per snapshot, O(1)), which the walk returns to if the node set
  // does.
  void SaveSnapshotOrder();
  // The node `name` was added to (delta +1) or removed from (-1) the tree
  // since the snapshot (nodes_since_snapshot_).
  void NodeCameOrWent(const std::string& name, int delta);
  // After a node is added, removed or changes zone: rebuild now, or when
  // the Batch commits.
  void NodeListChanged();
  // ++generation_, undoably; returns the new generation.
  uint64_t Bump();
  // A workload_generation() no ClusterState had before.
  static uint64_t NewWorkloadGeneration();
  // workload_generation_ = NewWorkloadGeneration(), undoably.
  void BumpWorkloads();
  // Builds the node list from the tree (aside, then swapped in); when
  // `undoable`, the old list is saved in the open Batch first.
  void RebuildNodeList(bool undoable = false);
  UndoLog* log() { return undo_.recording() ? &undo_ : nullptr; }

  // Shared with Clone()s; first, so objects holding its ids go before it.
  std::shared_ptr<Interner> interner_ = std::make_shared<Interner>();
  // Every container below is shared with Clone()s until written (cow.h):
  // writes go through Mutable / MutableShard / MutableInfo.
  CowMap<std::string, std::shared_ptr<NodeInfo>, 64, StringHash> infos_;  // by node name
  CowMap<std::string, std::shared_ptr<const Pod>, 256, StringHash> pods_;  // by PodKey
  Cow<std::vector<const NodeInfo*>> by_index_;                 // by NodeInfo::index(); null: free
  PodLabelIndex pod_labels_;                                   // copy-on-write per group
  Cow<AffinityTermIndex> affinity_terms_;
  Cow<TopologyDomains> topology_domains_;
  // NodeInfo::index()es: the lowest free one is given first, so the
  // indexes in use stay dense and NodeIndexBound() falls as far as the
  // highest ones are freed.
  Cow<LowestFreeIds> node_ids_;
  Cow<std::unordered_map<Atom, int>> image_nodes_;
  Cow<std::map<std::string, std::shared_ptr<const PodDisruptionBudget>, std::less<>>> pdbs_;
  Cow<std::unordered_map<Atom, std::shared_ptr<const Namespace>>> namespaces_;
  std::array<Cow<std::map<std::string, std::shared_ptr<const Workload>, std::less<>>>,
             kNumWorkloadKinds>
      workloads_;
  Cow<ByName<PersistentVolume>> pvs_;
  Cow<ByName<PersistentVolumeClaim>> pvcs_;
  Cow<ByName<StorageClass>> storage_classes_;
  Cow<ByName<CSINode>> csi_nodes_;
  Cow<ByName<CSIDriver>> csi_drivers_;
  Cow<ByName<CSIStorageCapacity>> csi_storage_capacities_;
  Cow<ByName<VolumeAttachment>> volume_attachments_;
  Cow<ByName<ResourceClaim>> resource_claims_;
  Cow<ByName<ResourceClaimTemplate>> resource_claim_templates_;
  Cow<ByName<DeviceClass>> device_classes_;
  Cow<ByName<ResourceSlice>> resource_slices_;
  Cow<std::unordered_map<std::string, int>> pvc_ref_counts_;  // "ns/claim" -> pods
  Cow<NodeTree> tree_;
  uint64_t generation_ = 0;
  uint64_t workload_generation_ = NewWorkloadGeneration();
  Cow<std::vector<const NodeInfo*>> node_list_;
  Cow<std::vector<uint32_t>> node_index_list_;
  bool in_batch_ = false;
  bool node_list_stale_ = false;
  // Valid while snapshot_order_saved_ (a node was added or removed since
  // the last snapshot), empty otherwise: the NodeInfo::index() of the nodes in that
  // snapshot's walk order (node_index_list_ then, shared); the node names
  // of indexes freed since (another node may hold them now); and the
  // names added (+1) or removed (-1) since, each once (a second change
  // takes the name back): the node set is the snapshot's when it is empty.
  Cow<std::vector<uint32_t>> snapshot_order_;
  Cow<std::unordered_map<uint32_t, std::string>> snapshot_freed_;
  Cow<std::unordered_map<std::string, int>> nodes_since_snapshot_;
  bool snapshot_order_saved_ = false;
  UndoLog undo_;  // records while a Batch is open
  Clock clock_;
};

}  // namespace sched

#endif  // LIBSCHED_STATE_CLUSTER_STATE_H_
