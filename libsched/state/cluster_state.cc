#include "libsched/state/cluster_state.h"

#include <algorithm>
#include <unordered_set>

namespace sched {

std::string PodKey(const Pod& pod) { return pod.ns + "/" + pod.name; }

NodeInfo& ClusterState::InfoFor(const std::string& node_name) {
  auto& slot = infos_[node_name];
  if (slot) return *slot;
  uint32_t index = next_node_index_;
  if (free_node_indexes_.empty()) {
    ++next_node_index_;
  } else {
    index = free_node_indexes_.back();
    free_node_indexes_.pop_back();
  }
  slot = std::make_unique<NodeInfo>(index);
  return *slot;
}

void ClusterState::CountImages(const Node& node, int delta) {
  // A node counts once per image name, however often it lists the name.
  std::unordered_set<Atom> seen;
  for (const auto& img : node.images) {
    for (Atom name : img.names) {
      if (!seen.insert(name).second) continue;
      if ((image_nodes_[name] += delta) == 0) image_nodes_.erase(name);
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
    free_node_indexes_.push_back(it->second->index());
    infos_.erase(it);
  }
}

void ClusterState::MoveAffinityTerms(const NodeInfo& info, const Node* old) {
  for (const Pod* pod : info.pods_with_affinity()) {
    affinity_terms_.Remove(*pod, old);
    affinity_terms_.Add(*pod, info.node());
  }
}

void ClusterState::SaveSnapshotOrder() {
  if (snapshot_order_saved_) return;
  // No node came or went since the snapshot, so node_list_ is its order.
  snapshot_order_.clear();
  for (const NodeInfo* info : node_list_) snapshot_order_.push_back(info->node()->name);
  snapshot_order_saved_ = true;
}

void ClusterState::NodeListChanged() {
  if (batch_depth_ > 0) {
    node_list_stale_ = true;
    return;
  }
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
  node_list_.clear();
  node_index_list_.clear();
  for (const auto& name : listed) {
    node_list_.push_back(infos_.at(name).get());
    node_index_list_.push_back(node_list_.back()->index());
  }
  node_list_stale_ = false;
}

ClusterState::Batch::~Batch() {
  if (--s_.batch_depth_ == 0 && s_.node_list_stale_) s_.NodeListChanged();
}

void ClusterState::UpsertNode(std::shared_ptr<const Node> node) {
  const std::string name = node->name;
  const std::string zone = ZoneKey(*node, interner_);
  NodeInfo& info = InfoFor(name);
  const std::shared_ptr<const Node> old = info.shared_node();
  if (old) CountImages(*old, -1);
  CountImages(*node, +1);
  if (old == nullptr || old->labels != node->labels) {
    if (old) topology_domains_.RemoveNode(info.index(), old->labels);
    topology_domains_.AddNode(info.index(), node->labels);
  }
  info.SetNode(std::move(node), ++generation_);
  if (!old || old->labels != info.node()->labels) MoveAffinityTerms(info, old.get());

  const std::string* old_zone = tree_.ZoneOf(name);
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

bool ClusterState::RemoveNode(std::string_view name) {
  const std::string key(name);
  const std::string* zone = tree_.ZoneOf(key);
  if (zone == nullptr) return false;
  SaveSnapshotOrder();  // while node_list_ still names this node
  NodeInfo& info = *infos_.at(key);
  CountImages(*info.node(), -1);
  const std::shared_ptr<const Node> old = info.shared_node();
  topology_domains_.RemoveNode(info.index(), old->labels);
  info.ClearNode(++generation_);
  MoveAffinityTerms(info, old.get());
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
  info.AddPod(pod, ++generation_);
  pod_labels_.Add(*pod, &info);
  affinity_terms_.Add(*pod, info.node());
  CountPVCRefs(*pod, +1);
  pods_.emplace(std::move(key), std::move(pod));
}

bool ClusterState::RemovePod(std::string_view key) {
  auto it = pods_.find(std::string(key));
  if (it == pods_.end()) return false;
  const std::string node_name = it->second->node_name;
  NodeInfo* info = infos_.at(node_name).get();
  info->RemovePod(it->second.get(), ++generation_);
  pod_labels_.Remove(*it->second, info);
  affinity_terms_.Remove(*it->second, info->node());
  CountPVCRefs(*it->second, -1);
  pods_.erase(it);
  DropNodeInfoIfEmpty(node_name);
  return true;
}

void ClusterState::UpsertPdb(std::shared_ptr<const PodDisruptionBudget> pdb) {
  std::string key = pdb->ns + "/" + pdb->name;
  pdbs_.insert_or_assign(std::move(key), std::move(pdb));
  ++generation_;
}

bool ClusterState::RemovePdb(std::string_view key) {
  auto it = pdbs_.find(key);
  if (it == pdbs_.end()) return false;
  pdbs_.erase(it);
  ++generation_;
  return true;
}

void ClusterState::UpsertNamespace(std::shared_ptr<const Namespace> ns) {
  const Atom name = ns->name_atom;
  namespaces_[name] = std::move(ns);
  ++generation_;
}

bool ClusterState::RemoveNamespace(std::string_view name) {
  const Atom a = interner_.Find(name);
  if (a == kNoAtom || namespaces_.erase(a) == 0) return false;
  ++generation_;
  return true;
}

void ClusterState::UpsertWorkload(std::shared_ptr<const Workload> w) {
  std::string key = w->ns + "/" + w->name;
  workloads_[static_cast<int>(w->kind)].insert_or_assign(std::move(key), std::move(w));
  ++generation_;
}

bool ClusterState::RemoveWorkload(WorkloadKind kind, std::string_view key) {
  auto& m = workloads_[static_cast<int>(kind)];
  auto it = m.find(key);
  if (it == m.end()) return false;
  m.erase(it);
  ++generation_;
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
    if ((pvc_ref_counts_[key] += delta) <= 0) pvc_ref_counts_.erase(key);
  }
}

bool ClusterState::IsPVCUsedByPods(std::string_view key) const {
  return pvc_ref_counts_.contains(std::string(key));
}

namespace {

template <class M, class T>
void Upsert(M& m, std::string key, std::shared_ptr<const T> v) {
  m.insert_or_assign(std::move(key), std::move(v));
}

template <class M>
bool Remove(M& m, std::string_view key) {
  auto it = m.find(key);
  if (it == m.end()) return false;
  m.erase(it);
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
  Upsert(pvs_, std::move(key), std::move(pv));
  ++generation_;
}
bool ClusterState::RemovePersistentVolume(std::string_view name) {
  if (!Remove(pvs_, name)) return false;
  ++generation_;
  return true;
}
void ClusterState::UpsertPersistentVolumeClaim(std::shared_ptr<const PersistentVolumeClaim> pvc) {
  std::string key = pvc->ns + "/" + pvc->name;
  Upsert(pvcs_, std::move(key), std::move(pvc));
  ++generation_;
}
bool ClusterState::RemovePersistentVolumeClaim(std::string_view key) {
  if (!Remove(pvcs_, key)) return false;
  ++generation_;
  return true;
}
void ClusterState::UpsertStorageClass(std::shared_ptr<const StorageClass> sc) {
  std::string key = sc->name;
  Upsert(storage_classes_, std::move(key), std::move(sc));
  ++generation_;
}
bool ClusterState::RemoveStorageClass(std::string_view name) {
  if (!Remove(storage_classes_, name)) return false;
  ++generation_;
  return true;
}
void ClusterState::UpsertCSINode(std::shared_ptr<const CSINode> csi_node) {
  std::string key = csi_node->name;
  Upsert(csi_nodes_, std::move(key), std::move(csi_node));
  ++generation_;
}
bool ClusterState::RemoveCSINode(std::string_view name) {
  if (!Remove(csi_nodes_, name)) return false;
  ++generation_;
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
