#include "libsched/state/cluster_state.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_set>

namespace sched {

std::string PodKey(const Pod& pod) { return pod.ns + "/" + pod.name; }

NodeInfo& ClusterState::InfoFor(const std::string& node_name) {
  if (auto it = infos_.find(node_name); it != infos_.end()) return *it->second;
  const bool reuse = !free_node_indexes_.empty();
  auto info = std::make_unique<NodeInfo>(reuse ? free_node_indexes_.back() : next_node_index_);
  NodeInfo& ref = *info;
  undo::TryEmplace(log(), infos_, node_name, std::move(info));
  if (reuse) {
    undo::PopBack(log(), free_node_indexes_);
  } else {
    undo::Save(log(), next_node_index_);
    ++next_node_index_;
  }
  return ref;
}

void ClusterState::SaveNodeInfo(NodeInfo& info) {
  if (log() == nullptr || info.batch_ == batches_) return;
  undo::Save(log(), info);
  info.batch_ = batches_;
}

void ClusterState::SaveTree() {
  if (log() == nullptr || tree_batch_ == batches_) return;
  undo::Save(log(), tree_);
  // Undone with the tree: after a nested Batch rolls back, the Batch
  // around it has not saved the tree yet (a NodeInfo's mark comes back
  // with the saved NodeInfo the same way).
  undo::Save(log(), tree_batch_);
  tree_batch_ = batches_;
}

void ClusterState::CountImages(const Node& node, int delta) {
  // A node counts once per image name, however often it lists the name.
  std::unordered_set<Atom> seen;
  for (const auto& img : node.images) {
    for (Atom name : img.names) {
      if (seen.insert(name).second) undo::AddCount(log(), image_nodes_, name, delta);
    }
  }
}

int ClusterState::ImageNumNodes(Atom image) const {
  auto it = image_nodes_.find(image);
  return it == image_nodes_.end() ? 0 : it->second;
}

void ClusterState::DropNodeInfoIfEmpty(const std::string& node_name) {
  auto it = infos_.find(node_name);
  if (it != infos_.end() && !it->second->node() && it->second->pods().empty()) {
    undo::PushBack(log(), free_node_indexes_, it->second->index());
    // Kept by the log until the Batch commits: pointers to it stay valid.
    undo::Erase(log(), infos_, it);
  }
}

void ClusterState::MoveAffinityTerms(const NodeInfo& info, const Node* old) {
  for (const Pod* pod : info.pods_with_affinity()) {
    affinity_terms_.Remove(*pod, old, log());
    affinity_terms_.Add(*pod, info.node(), log());
  }
}

void ClusterState::SaveSnapshotOrder() {
  if (snapshot_order_saved_) return;
  // No node came or went since the snapshot, so node_list_ is its order.
  // Built aside, the old values saved, then swapped in: undoable.
  std::vector<std::string> order;
  order.reserve(node_list_.size());
  for (const NodeInfo* info : node_list_) order.push_back(info->node()->name);
  undo::Save(log(), snapshot_order_);
  undo::Save(log(), snapshot_order_saved_);
  snapshot_order_.swap(order);
  snapshot_order_saved_ = true;
}

void ClusterState::SnapshotTaken() {
  undo::Save(log(), snapshot_order_saved_);
  snapshot_order_saved_ = false;
}

void ClusterState::NodeListChanged() {
  if (in_batch_) {
    node_list_stale_ = true;
    return;
  }
  RebuildNodeList();
}

void ClusterState::RebuildNodeList(bool undoable) {
  // UpdateSnapshot's updateAllLists: the tree is listed afresh (zone
  // changes since the snapshot included) only if the node set differs from
  // the snapshot's; a node added and removed again, or removed and re-added,
  // leaves the walk as it was.
  const bool same_nodes =
      tree_.size() == snapshot_order_.size() &&
      std::all_of(snapshot_order_.begin(), snapshot_order_.end(),
                  [&](const std::string& name) { return tree_.ZoneOf(name) != nullptr; });
  std::vector<std::string> fresh;
  if (!same_nodes) fresh = tree_.List();
  const std::vector<std::string>& listed = same_nodes ? snapshot_order_ : fresh;
  // Built aside, then swapped in: nothing changes unless it completes.
  std::vector<const NodeInfo*> list;
  std::vector<uint32_t> indexes;
  list.reserve(listed.size());
  indexes.reserve(listed.size());
  for (const auto& name : listed) {
    list.push_back(infos_.at(name).get());
    indexes.push_back(list.back()->index());
  }
  if (undoable) {
    undo::Save(log(), node_list_);
    undo::Save(log(), node_index_list_);
  }
  node_list_.swap(list);
  node_index_list_.swap(indexes);
  node_list_stale_ = false;
}

std::unique_ptr<ClusterState> ClusterState::Clone() const {
  // A Batch may be open (an engine transaction), just not mid-call.
  if (node_list_stale_) throw std::logic_error("ClusterState::Clone with a stale node list");
  auto c = std::make_unique<ClusterState>();
  c->interner_ = interner_;
  c->infos_.reserve(infos_.size());
  std::unordered_map<const NodeInfo*, const NodeInfo*> copy_of;
  copy_of.reserve(infos_.size());
  for (const auto& [name, info] : infos_) {
    auto copy = std::make_unique<NodeInfo>(*info);
    copy_of.emplace(info.get(), copy.get());
    c->infos_.emplace(name, std::move(copy));
  }
  c->pods_ = pods_;
  c->pod_labels_ = pod_labels_.Remapped(copy_of);
  c->affinity_terms_ = affinity_terms_;
  c->topology_domains_ = topology_domains_;
  c->next_node_index_ = next_node_index_;
  c->free_node_indexes_ = free_node_indexes_;
  c->image_nodes_ = image_nodes_;
  c->pdbs_ = pdbs_;
  c->namespaces_ = namespaces_;
  for (int k = 0; k < kNumWorkloadKinds; ++k) c->workloads_[k] = workloads_[k];
  c->pvs_ = pvs_;
  c->pvcs_ = pvcs_;
  c->storage_classes_ = storage_classes_;
  c->csi_nodes_ = csi_nodes_;
  c->csi_drivers_ = csi_drivers_;
  c->csi_storage_capacities_ = csi_storage_capacities_;
  c->volume_attachments_ = volume_attachments_;
  c->resource_claims_ = resource_claims_;
  c->resource_claim_templates_ = resource_claim_templates_;
  c->device_classes_ = device_classes_;
  c->resource_slices_ = resource_slices_;
  c->pvc_ref_counts_ = pvc_ref_counts_;
  c->tree_ = tree_;
  c->generation_ = generation_;
  // The same walk, over the copies.
  c->node_list_.reserve(node_list_.size());
  for (const NodeInfo* ni : node_list_) c->node_list_.push_back(copy_of.at(ni));
  c->node_index_list_ = node_index_list_;
  c->snapshot_order_ = snapshot_order_;
  c->snapshot_order_saved_ = snapshot_order_saved_;
  // NodeInfo::batch_ and tree_batch_ number this state's Batches; the
  // copy's next Batch must be newer than any of them.
  c->batches_ = batches_;
  c->tree_batch_ = tree_batch_;
  return c;
}

ClusterState::Batch::Batch(ClusterState& s) : s_(s), nested_(s.in_batch_) {
  s_.undo_.Begin();  // may throw: nothing changed yet
  s_.in_batch_ = true;
  ++s_.batches_;
}

void ClusterState::Batch::Commit() {
  // The last step that can fail; after it, nothing is undone (but by the
  // Batch around a nested one).
  if (s_.node_list_stale_) s_.RebuildNodeList(nested_);
  s_.in_batch_ = nested_;
  s_.undo_.Commit();
  open_ = false;
}

ClusterState::Batch::~Batch() {
  if (!open_) return;
  s_.undo_.Rollback();
  s_.in_batch_ = nested_;
  // The node list was never rebuilt; one around it was current (its
  // nested Batches rebuild at Commit).
  s_.node_list_stale_ = false;
}

void ClusterState::UpsertNode(std::shared_ptr<const Node> node) {
  const std::string name = node->name;
  const std::string zone = ZoneKey(*node, *interner_);
  NodeInfo& info = InfoFor(name);
  SaveNodeInfo(info);
  const std::shared_ptr<const Node> old = info.shared_node();
  if (old) CountImages(*old, -1);
  CountImages(*node, +1);
  if (old == nullptr || old->labels != node->labels) {
    if (old) topology_domains_.RemoveNode(info.index(), old->labels, log());
    topology_domains_.AddNode(info.index(), node->labels, log());
  }
  info.SetNode(std::move(node), Bump());
  if (!old || old->labels != info.node()->labels) MoveAffinityTerms(info, old.get());

  const std::string* old_zone = tree_.ZoneOf(name);
  if (old_zone == nullptr || *old_zone != zone) SaveTree();
  if (old_zone == nullptr) {
    SaveSnapshotOrder();
    tree_.Add(zone, name);
    NodeListChanged();
  } else if (*old_zone != zone) {
    // A zone change moves the node to the end of its new zone in the tree,
    // as upstream; the walk follows only if nodes came or went since the
    // snapshot (NodeListChanged).
    tree_.Remove(*old_zone, name);
    tree_.Add(zone, name);
    if (snapshot_order_saved_) NodeListChanged();
  }
}

void ClusterState::AddNodeListed(std::shared_ptr<const Node> node) {
  const std::string name = node->name;
  UpsertNode(std::move(node));
  const NodeInfo* info = infos_.at(name).get();
  undo::PushBack(log(), node_list_, info);
  undo::PushBack(log(), node_index_list_, info->index());
}

bool ClusterState::RemoveNode(std::string_view name) {
  const std::string key(name);
  const std::string* zone = tree_.ZoneOf(key);
  if (zone == nullptr) return false;
  SaveSnapshotOrder();  // while node_list_ still names this node
  NodeInfo& info = *infos_.at(key);
  SaveNodeInfo(info);
  CountImages(*info.node(), -1);
  const std::shared_ptr<const Node> old = info.shared_node();
  topology_domains_.RemoveNode(info.index(), old->labels, log());
  info.ClearNode(Bump());
  MoveAffinityTerms(info, old.get());
  SaveTree();
  tree_.Remove(*zone, key);
  DropNodeInfoIfEmpty(key);
  NodeListChanged();
  return true;
}

void ClusterState::UpsertPod(std::shared_ptr<const Pod> pod) {
  std::string key = PodKey(*pod);
  RemovePod(key);
  if (pod->node_name.empty()) return;
  NodeInfo& info = InfoFor(pod->node_name);
  SaveNodeInfo(info);
  info.AddPod(pod, Bump());
  pod_labels_.Add(*pod, &info, log());
  affinity_terms_.Add(*pod, info.node(), log());
  CountPVCRefs(*pod, +1);
  undo::TryEmplace(log(), pods_, std::move(key), std::move(pod));
}

bool ClusterState::RemovePod(std::string_view key) {
  auto it = pods_.find(std::string(key));
  if (it == pods_.end()) return false;
  const std::string node_name = it->second->node_name;
  NodeInfo* info = infos_.at(node_name).get();
  SaveNodeInfo(*info);
  info->RemovePod(it->second.get(), Bump());
  pod_labels_.Remove(*it->second, info, log());
  affinity_terms_.Remove(*it->second, info->node(), log());
  CountPVCRefs(*it->second, -1);
  undo::Erase(log(), pods_, it);
  DropNodeInfoIfEmpty(node_name);
  return true;
}

uint64_t ClusterState::Bump() {
  undo::Save(log(), generation_);
  return ++generation_;
}

void ClusterState::UpsertPdb(std::shared_ptr<const PodDisruptionBudget> pdb) {
  std::string key = pdb->ns + "/" + pdb->name;
  undo::InsertOrAssign(log(), pdbs_, std::move(key), std::move(pdb));
  Bump();
}

bool ClusterState::RemovePdb(std::string_view key) {
  auto it = pdbs_.find(key);
  if (it == pdbs_.end()) return false;
  undo::Erase(log(), pdbs_, it);
  Bump();
  return true;
}

void ClusterState::UpsertNamespace(std::shared_ptr<const Namespace> ns) {
  const Atom name = ns->name_atom;
  undo::InsertOrAssign(log(), namespaces_, name, std::move(ns));
  Bump();
}

bool ClusterState::RemoveNamespace(std::string_view name) {
  const Atom a = interner_->Find(name);
  const auto it = a == kNoAtom ? namespaces_.end() : namespaces_.find(a);
  if (it == namespaces_.end()) return false;
  undo::Erase(log(), namespaces_, it);
  Bump();
  return true;
}

void ClusterState::UpsertWorkload(std::shared_ptr<const Workload> w) {
  std::string key = w->ns + "/" + w->name;
  auto& m = workloads_[static_cast<int>(w->kind)];
  undo::InsertOrAssign(log(), m, std::move(key), std::move(w));
  Bump();
}

bool ClusterState::RemoveWorkload(WorkloadKind kind, std::string_view key) {
  auto& m = workloads_[static_cast<int>(kind)];
  auto it = m.find(key);
  if (it == m.end()) return false;
  undo::Erase(log(), m, it);
  Bump();
  return true;
}

const LabelSet& ClusterState::NamespaceLabels(Atom name) const {
  static const LabelSet kNoLabels;
  auto it = namespaces_.find(name);
  return it == namespaces_.end() ? kNoLabels : it->second->labels;
}

const Workload* ClusterState::FindWorkload(WorkloadKind kind, std::string_view ns,
                                           std::string_view name) const {
  const auto& m = workloads_[static_cast<int>(kind)];
  auto it = m.find(std::string(ns) + "/" + std::string(name));
  return it == m.end() ? nullptr : it->second.get();
}

void ClusterState::CountPVCRefs(const Pod& pod, int delta) {
  for (const PodVolume& v : pod.volumes) {
    if (v.source != PodVolume::Source::kPersistentVolumeClaim) continue;
    const std::string key = pod.ns + "/" + v.claim_name;
    undo::AddCount(log(), pvc_ref_counts_, key, delta);
  }
}

bool ClusterState::IsPVCUsedByPods(std::string_view key) const {
  return pvc_ref_counts_.contains(std::string(key));
}

namespace {

template <class M, class T>
void Upsert(UndoLog* log, M& m, std::string key, std::shared_ptr<const T> v) {
  undo::InsertOrAssign(log, m, std::move(key), std::move(v));
}

template <class M>
bool Remove(UndoLog* log, M& m, std::string_view key) {
  auto it = m.find(key);
  if (it == m.end()) return false;
  undo::Erase(log, m, it);
  return true;
}

template <class M>
auto Find(const M& m, std::string_view key) -> decltype(m.begin()->second.get()) {
  auto it = m.find(key);
  return it == m.end() ? nullptr : it->second.get();
}

}  // namespace

void ClusterState::UpsertPersistentVolume(std::shared_ptr<const PersistentVolume> pv) {
  std::string key = pv->name;  // read before the move
  Upsert(log(), pvs_, std::move(key), std::move(pv));
  Bump();
}
bool ClusterState::RemovePersistentVolume(std::string_view name) {
  if (!Remove(log(), pvs_, name)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertPersistentVolumeClaim(std::shared_ptr<const PersistentVolumeClaim> pvc) {
  std::string key = pvc->ns + "/" + pvc->name;
  Upsert(log(), pvcs_, std::move(key), std::move(pvc));
  Bump();
}
bool ClusterState::RemovePersistentVolumeClaim(std::string_view key) {
  if (!Remove(log(), pvcs_, key)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertStorageClass(std::shared_ptr<const StorageClass> sc) {
  std::string key = sc->name;
  Upsert(log(), storage_classes_, std::move(key), std::move(sc));
  Bump();
}
bool ClusterState::RemoveStorageClass(std::string_view name) {
  if (!Remove(log(), storage_classes_, name)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertCSINode(std::shared_ptr<const CSINode> csi_node) {
  std::string key = csi_node->name;
  Upsert(log(), csi_nodes_, std::move(key), std::move(csi_node));
  Bump();
}
bool ClusterState::RemoveCSINode(std::string_view name) {
  if (!Remove(log(), csi_nodes_, name)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertCSIDriver(std::shared_ptr<const CSIDriver> driver) {
  std::string key = driver->name;
  Upsert(log(), csi_drivers_, std::move(key), std::move(driver));
  Bump();
}
bool ClusterState::RemoveCSIDriver(std::string_view name) {
  if (!Remove(log(), csi_drivers_, name)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertCSIStorageCapacity(std::shared_ptr<const CSIStorageCapacity> capacity) {
  std::string key = capacity->ns + "/" + capacity->name;
  Upsert(log(), csi_storage_capacities_, std::move(key), std::move(capacity));
  Bump();
}
bool ClusterState::RemoveCSIStorageCapacity(std::string_view key) {
  if (!Remove(log(), csi_storage_capacities_, key)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertVolumeAttachment(std::shared_ptr<const VolumeAttachment> va) {
  std::string key = va->node_name + "/" + va->name;
  Upsert(log(), volume_attachments_, std::move(key), std::move(va));
  Bump();
}
bool ClusterState::RemoveVolumeAttachment(std::string_view key) {
  if (!Remove(log(), volume_attachments_, key)) return false;
  Bump();
  return true;
}

void ClusterState::UpsertResourceClaim(std::shared_ptr<const ResourceClaim> claim) {
  std::string key = claim->ns + "/" + claim->name;
  Upsert(log(), resource_claims_, std::move(key), std::move(claim));
  Bump();
}
bool ClusterState::RemoveResourceClaim(std::string_view key) {
  if (!Remove(log(), resource_claims_, key)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertResourceClaimTemplate(std::shared_ptr<const ResourceClaimTemplate> tmpl) {
  std::string key = tmpl->ns + "/" + tmpl->name;
  Upsert(log(), resource_claim_templates_, std::move(key), std::move(tmpl));
  Bump();
}
bool ClusterState::RemoveResourceClaimTemplate(std::string_view key) {
  if (!Remove(log(), resource_claim_templates_, key)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertDeviceClass(std::shared_ptr<const DeviceClass> cls) {
  std::string key = cls->name;
  Upsert(log(), device_classes_, std::move(key), std::move(cls));
  Bump();
}
bool ClusterState::RemoveDeviceClass(std::string_view name) {
  if (!Remove(log(), device_classes_, name)) return false;
  Bump();
  return true;
}
void ClusterState::UpsertResourceSlice(std::shared_ptr<const ResourceSlice> slice) {
  std::string key = slice->name;
  Upsert(log(), resource_slices_, std::move(key), std::move(slice));
  Bump();
}
bool ClusterState::RemoveResourceSlice(std::string_view name) {
  if (!Remove(log(), resource_slices_, name)) return false;
  Bump();
  return true;
}

const PersistentVolume* ClusterState::FindPersistentVolume(std::string_view name) const {
  return Find(pvs_, name);
}
const PersistentVolumeClaim* ClusterState::FindPersistentVolumeClaim(std::string_view ns,
                                                                     std::string_view name) const {
  return Find(pvcs_, std::string(ns) + "/" + std::string(name));
}
const StorageClass* ClusterState::FindStorageClass(std::string_view name) const {
  return Find(storage_classes_, name);
}
const CSINode* ClusterState::FindCSINode(std::string_view name) const {
  return Find(csi_nodes_, name);
}
const CSIDriver* ClusterState::FindCSIDriver(std::string_view name) const {
  return Find(csi_drivers_, name);
}

void ClusterState::AssumePod(std::shared_ptr<const Pod> pod) { UpsertPod(std::move(pod)); }

std::shared_ptr<const Pod> ClusterState::GetPod(std::string_view key) const {
  auto it = pods_.find(std::string(key));
  return it == pods_.end() ? nullptr : it->second;
}

const NodeInfo* ClusterState::FindNode(std::string_view name) const {
  auto it = infos_.find(std::string(name));
  if (it == infos_.end() || !it->second->node()) return nullptr;
  return it->second.get();
}

}  // namespace sched
