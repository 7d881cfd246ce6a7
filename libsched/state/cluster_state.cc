#include "libsched/state/cluster_state.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <unordered_set>

#include "libsched/state/node_index_room.h"
#include "libsched/state/room_after_erase.h"

namespace sched {

std::string PodKey(const Pod& pod) {
  // Sized once: ns + "/" + name grows a temporary twice (a hot path: the
  // queue and the cache key every pod change).
  std::string key;
  key.reserve(pod.ns.size() + 1 + pod.name.size());
  key.append(pod.ns).append(1, '/').append(pod.name);
  return key;
}

namespace {

// Whether AffinityTermIndex::Add would change anything for `pod`: without
// terms, a fork's shared index need not be cloned.
bool HasAffinityTerms(const Pod& pod) {
  const PodAffinityTerms& a = pod.pod_affinity;
  return !a.required_affinity.empty() || !a.required_anti_affinity.empty() ||
         !a.preferred_affinity.empty() || !a.preferred_anti_affinity.empty();
}

// MakeOwn(member): one of ClonedMembers made this state's own, for
// UnshareAll. No catch-all: a member of a new type fails to compile here
// until it says how.
template <class T>
void MakeOwn(Cow<T>& c) {
  c.Mutable(nullptr);
}
template <class T, size_t N>
void MakeOwn(std::array<T, N>& members) {
  for (T& m : members) MakeOwn(m);
}
template <class K, class V, size_t kShards, class Hash>
void MakeOwn(CowMap<K, V, kShards, Hash>& m) {
  m.UnshareAll([](V&) {});
}
// UnshareAll's own last step: the NodeInfos' copies go into by_index_.
void MakeOwn(CowMap<std::string, std::shared_ptr<NodeInfo>, 64, StringHash>&) {}
void MakeOwn(PodLabelIndex& index) { index.UnshareAll(); }
// Shared on purpose (the family's).
void MakeOwn(std::shared_ptr<Interner>&) {}
void MakeOwn(ClusterState::Clock&) {}
// Plain values: a copy owns them already.
template <class T>
requires std::is_arithmetic_v<T>
void MakeOwn(T&) {}

}  // namespace

// Every member must be in ClonedMembers, or a Clone shares it (or drops
// it) silently. The size pins the member list on the one ABI CI builds
// for: a member added or removed changes it. Update ClonedMembers (and,
// for a new type, MakeOwn) first, then this number.
#if defined(__x86_64__) && defined(__GLIBCXX__) && !defined(_GLIBCXX_DEBUG)
static_assert(
    sizeof(ClusterState) == 648,
    "a ClusterState member came or went: list it in ClonedMembers, then update this size");
#endif

NodeInfo& ClusterState::InfoFor(const std::string& node_name) {
  if (infos_.Contains(node_name)) return MutableInfo(node_name);
  const uint32_t index = node_ids_->Next();
  auto info = std::make_shared<NodeInfo>(index);
  NodeInfo& ref = *info;
  undo::TryEmplace(log(), infos_.MutableShard(node_name, log()), node_name, std::move(info));
  node_ids_.Mutable(log()).Take(log());
  std::vector<const NodeInfo*>& by_index = by_index_.Mutable(log());
  if (by_index.size() <= index) {
    undo::Grow(log(), by_index, index + 1, static_cast<const NodeInfo*>(nullptr));
  }
  undo::SaveAt(log(), by_index, index);
  by_index[index] = &ref;
  return ref;
}

NodeInfo& ClusterState::MutableInfo(const std::string& node_name) {
  std::shared_ptr<NodeInfo>& slot = infos_.MutableShard(node_name, log()).find(node_name)->second;
  if (slot.use_count() == 1) return *slot;
  // Shared with a Clone: this side takes a copy, and its node list and
  // NodeAt name the copy (each change undoable, so a rollback returns to
  // sharing the original).
  const NodeInfo* old = slot.get();
  Unshare(slot, log());
  std::vector<const NodeInfo*>& by_index = by_index_.Mutable(log());
  undo::SaveAt(log(), by_index, old->index());
  by_index[old->index()] = slot.get();
  // Searched by address: inside a Batch the list may be stale.
  const auto& list = *node_list_;
  if (auto it = std::find(list.begin(), list.end(), old); it != list.end()) {
    const size_t i = static_cast<size_t>(it - list.begin());
    std::vector<const NodeInfo*>& mutable_list = node_list_.Mutable(log());
    undo::SaveAt(log(), mutable_list, i);
    mutable_list[i] = slot.get();
  }
  return *slot;
}

void ClusterState::CountImages(const Node& node, int delta) {
  // A node counts once per image name, however often it lists the name.
  std::unordered_set<Atom> seen;
  for (const auto& img : node.images) {
    for (Atom name : img.names) {
      if (seen.insert(name).second) {
        undo::AddCount(log(), image_nodes_.Mutable(log()), name, delta);
      }
    }
  }
}

int ClusterState::ImageNumNodes(Atom image) const {
  auto it = image_nodes_->find(image);
  return it == image_nodes_->end() ? 0 : it->second;
}

void ClusterState::DropNodeInfoIfEmpty(const std::string& node_name) {
  const std::shared_ptr<NodeInfo>* found = infos_.Find(node_name);
  if (found == nullptr || (*found)->node() || !(*found)->pods().empty()) return;
  const uint32_t index = (*found)->index();
  std::vector<const NodeInfo*>& by_index = by_index_.Mutable(log());
  undo::SaveAt(log(), by_index, index);
  by_index[index] = nullptr;
  FreeNodeIndex(index);
  // The index may go to another node before the walk returns to the
  // snapshot's order, which names this node by it (RebuildNodeList).
  if (snapshot_order_saved_) {
    undo::TryEmplace(log(), snapshot_freed_.Mutable(log()), index, node_name);
  }
  auto& shard = infos_.MutableShard(node_name, log());
  // Kept by the log until the Batch commits: pointers to it stay valid.
  undo::Erase(log(), shard, shard.find(node_name));
  undo::Shrink(log(), shard);
}

void ClusterState::FreeNodeIndex(uint32_t index) {
  LowestFreeIds& ids = node_ids_.Mutable(log());
  ids.Free(index, log());
  const uint32_t bound = ids.bound();
  const std::vector<const NodeInfo*>& by_index = *by_index_;
  // Set records the old vector whole: a rollback allocates nothing.
  if (FarAboveNodeIndexBound(by_index.size(), bound)) {
    by_index_.Set(std::make_shared<std::vector<const NodeInfo*>>(by_index.begin(),
                                                                 by_index.begin() + bound),
                  log());
    // No array of theirs by node index is longer than by_index_.
    topology_domains_.Mutable(log()).FollowBound(bound, log());
  }
}

void ClusterState::MoveAffinityTerms(const NodeInfo& info, const Node* old) {
  for (const Pod* pod : info.pods_with_affinity()) {
    AffinityTermIndex& terms = affinity_terms_.Mutable(log());
    terms.Remove(*pod, old, log());
    terms.Add(*pod, info.node(), log());
  }
}

std::vector<uint64_t> ClusterState::SharedLabelPairs(const Node* node) const {
  std::vector<uint64_t> pairs;
  if (node == nullptr) return pairs;
  for (const auto& [key, value] : node->labels.entries()) {
    const TopologyDomains::Key* domains = topology_domains_->Find(key);
    if (domains != nullptr && !domains->OneNodePerDomain()) {
      pairs.push_back(PodLabelIndex::Pair(key, value));
    }
  }
  return pairs;
}

template <class Fn>
void ClusterState::MoveLabelPairs(const NodeInfo& info, const Node* old, const Node* now,
                                  Fn&& change_domains) {
  // The keys of both label sets, each once, and whether it was shared.
  std::vector<std::pair<Atom, bool>> keys;
  for (const Node* n : {old, now}) {
    if (n == nullptr) continue;
    for (const auto& entry : n->labels.entries()) {
      // Not a structured binding: clang 14 rejects capturing one in a lambda.
      const Atom key = entry.first;
      if (std::any_of(keys.begin(), keys.end(), [&](const auto& k) { return k.first == key; })) {
        continue;
      }
      const TopologyDomains::Key* domains = topology_domains_->Find(key);
      keys.emplace_back(key, domains != nullptr && !domains->OneNodePerDomain());
    }
  }
  const std::vector<uint64_t> before = SharedLabelPairs(old);
  for (const auto& pod : info.pods()) pod_labels_.CountPairs(*pod, before, -1, log());
  change_domains();
  for (const auto& [key, was_shared] : keys) {
    const TopologyDomains::Key* domains = topology_domains_->Find(key);
    const bool shared = domains != nullptr && !domains->OneNodePerDomain();
    if (was_shared && !shared) pod_labels_.DropKey(key, log());
    if (shared && !was_shared) {
      for (const NodeInfo* other : *by_index_) {
        if (other == nullptr || other->index() == info.index() || other->node() == nullptr) {
          continue;
        }
        const std::optional<Atom> value = other->node()->labels.Get(key);
        if (!value) continue;
        const uint64_t pair[] = {PodLabelIndex::Pair(key, *value)};
        for (const auto& pod : other->pods()) pod_labels_.CountPairs(*pod, pair, 1, log());
      }
    }
  }
  const std::vector<uint64_t> after = SharedLabelPairs(now);
  for (const auto& pod : info.pods()) pod_labels_.CountPairs(*pod, after, 1, log());
}

void ClusterState::SaveSnapshotOrder() {
  if (snapshot_order_saved_) return;
  // No node came or went since the snapshot, so node_index_list_ is its
  // order: shared, not copied (a rebuild replaces the list, never writes
  // into it). What changed since is empty (SnapshotTaken).
  undo::Save(log(), snapshot_order_);
  undo::Save(log(), snapshot_order_saved_);
  snapshot_order_ = node_index_list_;
  snapshot_order_saved_ = true;
}

void ClusterState::NodeCameOrWent(const std::string& name, int delta) {
  // A name's changes alternate (added when absent, removed when present),
  // so a second change takes it back to the snapshot's.
  std::unordered_map<std::string, int>& changed = nodes_since_snapshot_.Mutable(log());
  if (auto it = changed.find(name); it != changed.end()) {
    undo::Erase(log(), changed, it);
  } else {
    undo::TryEmplace(log(), changed, name, delta);
  }
}

void ClusterState::SnapshotTaken() {
  if (!snapshot_order_saved_) return;
  // The old order and what changed since served the old snapshot only:
  // given back now (after a scale-down, the names of every node removed),
  // not kept until the next node comes or goes.
  undo::Save(log(), snapshot_order_);
  undo::Save(log(), snapshot_freed_);
  undo::Save(log(), nodes_since_snapshot_);
  undo::Save(log(), snapshot_order_saved_);
  snapshot_order_ = {};
  snapshot_freed_ = {};
  nodes_since_snapshot_ = {};
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
  // leaves the walk as it was. O(nodes) over integers: no names, no hashing
  // (but of the snapshot's nodes whose index was freed meanwhile).
  const bool same_nodes = snapshot_order_saved_ && nodes_since_snapshot_->empty();
  std::vector<uint32_t> indexes;
  if (same_nodes) {
    indexes = *snapshot_order_;
    if (!snapshot_freed_->empty()) {
      for (uint32_t& index : indexes) {
        if (auto it = snapshot_freed_->find(index); it != snapshot_freed_->end()) {
          index = (*infos_.Find(it->second))->index();
        }
      }
    }
  } else {
    // Written by position, not push_back: a few instructions a node (a
    // churned node list is rebuilt whole).
    indexes.resize(tree_->size());
    uint32_t* next = indexes.data();
    tree_->ForEachInOrder([&](uint32_t index) { *next++ = index; });
  }
  // Built aside, then set: nothing changes unless it completes. Reserved,
  // then appended: each entry written once (no zero-fill of a sized vector).
  const std::vector<const NodeInfo*>& by_index = *by_index_;
  auto list = std::make_shared<std::vector<const NodeInfo*>>();
  list->reserve(indexes.size());
  for (const uint32_t index : indexes) list->push_back(by_index[index]);
  auto index_list = std::make_shared<std::vector<uint32_t>>(std::move(indexes));
  UndoLog* const undo_log = undoable ? log() : nullptr;
  node_list_.Set(std::move(list), undo_log);
  node_index_list_.Set(std::move(index_list), undo_log);
  node_list_stale_ = false;
}

std::unique_ptr<ClusterState> ClusterState::Clone() const {
  // A Batch may be open (an engine transaction), just not mid-call.
  if (node_list_stale_) throw std::logic_error("ClusterState::Clone with a stale node list");
  auto c = std::make_unique<ClusterState>();
  // Shares every container.
  ClonedMembers(*c) = ClonedMembers(*this);
  // This state's open Batch may roll back into what it changed so far,
  // in place: the copy must not see those objects.
  if (undo_.recording()) c->UnshareAll();
  return c;
}

void ClusterState::UnshareAll() {
  std::apply([](auto&... member) { (MakeOwn(member), ...); }, ClonedMembers(*this));
  // The NodeInfos last: by_index_ and the node list, this state's own now,
  // must name the copies.
  std::vector<const NodeInfo*>& by_index = by_index_.Mutable(nullptr);
  infos_.UnshareAll([&](std::shared_ptr<NodeInfo>& slot) {
    const NodeInfo& mine = Unshare(slot, nullptr);
    by_index[mine.index()] = &mine;
  });
  std::vector<const NodeInfo*>& list = node_list_.Mutable(nullptr);
  for (size_t i = 0; i < list.size(); ++i) list[i] = by_index[(*node_index_list_)[i]];
}

ClusterState::Batch::Batch(ClusterState& s) : s_(s), nested_(s.in_batch_) {
  s_.undo_.Begin();  // may throw: nothing changed yet
  s_.in_batch_ = true;
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
  const std::shared_ptr<const Node> old = info.shared_node();
  if (old) CountImages(*old, -1);
  CountImages(*node, +1);
  if (old == nullptr || old->labels != node->labels) {
    MoveLabelPairs(info, old.get(), node.get(), [&] {
      TopologyDomains& domains = topology_domains_.Mutable(log());
      if (old) domains.RemoveNode(info.index(), old->labels, log());
      domains.AddNode(info.index(), node->labels, log());
    });
  }
  info.SetNode(std::move(node), Bump(), log());
  if (!old || old->labels != info.node()->labels) MoveAffinityTerms(info, old.get());

  const std::string* old_zone = tree_->ZoneOf(name);
  if (old_zone != nullptr && *old_zone == zone) return;
  const uint32_t index = info.index();
  if (old_zone == nullptr) {
    SaveSnapshotOrder();
    NodeCameOrWent(name, +1);
    tree_.Mutable(log()).Add(zone, name, index, log());
    NodeListChanged();
  } else {
    // A zone change moves the node to the end of its new zone in the tree,
    // as upstream; the walk follows only if nodes came or went since the
    // snapshot (NodeListChanged).
    NodeTree& tree = tree_.Mutable(log());
    tree.Remove(name, log());
    tree.Add(zone, name, index, log());
    if (snapshot_order_saved_) NodeListChanged();
  }
}

void ClusterState::AddNodeListed(std::shared_ptr<const Node> node) {
  const std::string name = node->name;
  UpsertNode(std::move(node));
  const NodeInfo* info = infos_.Find(name)->get();
  undo::PushBack(log(), node_list_.Mutable(log()), info);
  undo::PushBack(log(), node_index_list_.Mutable(log()), info->index());
}

bool ClusterState::RemoveNode(std::string_view name) {
  const std::string key(name);
  if (tree_->ZoneOf(key) == nullptr) return false;
  SaveSnapshotOrder();  // while node_list_ still names this node
  NodeCameOrWent(key, -1);
  NodeInfo& info = MutableInfo(key);
  CountImages(*info.node(), -1);
  const std::shared_ptr<const Node> old = info.shared_node();
  MoveLabelPairs(info, old.get(), nullptr, [&] {
    topology_domains_.Mutable(log()).RemoveNode(info.index(), old->labels, log());
  });
  info.ClearNode(Bump(), log());
  MoveAffinityTerms(info, old.get());
  tree_.Mutable(log()).Remove(key, log());
  DropNodeInfoIfEmpty(key);
  NodeListChanged();
  return true;
}

void ClusterState::UpsertPod(std::shared_ptr<const Pod> pod) {
  std::string key = PodKey(*pod);
  RemovePod(key);
  if (pod->node_name.empty()) return;
  NodeInfo& info = InfoFor(pod->node_name);
  info.AddPod(pod, Bump(), log());
  pod_labels_.Add(*pod, info.index(), log());
  pod_labels_.CountPairs(*pod, SharedLabelPairs(info.node()), 1, log());
  if (HasAffinityTerms(*pod)) affinity_terms_.Mutable(log()).Add(*pod, info.node(), log());
  CountPVCRefs(*pod, +1);
  auto& shard = pods_.MutableShard(key, log());
  undo::TryEmplace(log(), shard, std::move(key), std::move(pod));
}

bool ClusterState::RemovePod(std::string_view key) {
  if (!pods_.Contains(key)) return false;
  auto& shard = pods_.MutableShard(key, log());
  auto it = shard.find(key);
  const Pod& pod = *it->second;
  const std::string node_name = pod.node_name;
  NodeInfo& info = MutableInfo(node_name);
  info.RemovePod(&pod, Bump(), log());
  pod_labels_.CountPairs(pod, SharedLabelPairs(info.node()), -1, log());
  pod_labels_.Remove(pod, info.index(), log());
  if (HasAffinityTerms(pod)) affinity_terms_.Mutable(log()).Remove(pod, info.node(), log());
  CountPVCRefs(pod, -1);
  undo::Erase(log(), shard, it);
  undo::Shrink(log(), shard);
  DropNodeInfoIfEmpty(node_name);
  return true;
}

uint64_t ClusterState::Bump() {
  undo::Save(log(), generation_);
  return ++generation_;
}

uint64_t ClusterState::NewWorkloadGeneration() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

void ClusterState::BumpWorkloads() {
  undo::Save(log(), workload_generation_);
  workload_generation_ = NewWorkloadGeneration();
}

void ClusterState::UpsertPdb(std::shared_ptr<const PodDisruptionBudget> pdb) {
  std::string key = pdb->ns + "/" + pdb->name;
  undo::InsertOrAssign(log(), pdbs_.Mutable(log()), std::move(key), std::move(pdb));
  Bump();
}

bool ClusterState::RemovePdb(std::string_view key) {
  if (pdbs_->find(key) == pdbs_->end()) return false;
  auto& pdbs = pdbs_.Mutable(log());
  undo::Erase(log(), pdbs, pdbs.find(key));
  Bump();
  return true;
}

void ClusterState::UpsertNamespace(std::shared_ptr<const Namespace> ns) {
  const Atom name = ns->name_atom;
  undo::InsertOrAssign(log(), namespaces_.Mutable(log()), name, std::move(ns));
  Bump();
}

bool ClusterState::RemoveNamespace(std::string_view name) {
  const Atom a = interner_->Find(name);
  if (a == kNoAtom || !namespaces_->contains(a)) return false;
  auto& namespaces = namespaces_.Mutable(log());
  undo::Erase(log(), namespaces, namespaces.find(a));
  Bump();
  return true;
}

void ClusterState::UpsertWorkload(std::shared_ptr<const Workload> w) {
  std::string key = w->ns + "/" + w->name;
  auto& m = workloads_[static_cast<int>(w->kind)].Mutable(log());
  undo::InsertOrAssign(log(), m, std::move(key), std::move(w));
  BumpWorkloads();
  Bump();
}

bool ClusterState::RemoveWorkload(WorkloadKind kind, std::string_view key) {
  Cow<std::map<std::string, std::shared_ptr<const Workload>, std::less<>>>& w =
      workloads_[static_cast<int>(kind)];
  if (w->find(key) == w->end()) return false;
  auto& m = w.Mutable(log());
  undo::Erase(log(), m, m.find(key));
  BumpWorkloads();
  Bump();
  return true;
}

const LabelSet& ClusterState::NamespaceLabels(Atom name) const {
  static const LabelSet kNoLabels;
  auto it = namespaces_->find(name);
  return it == namespaces_->end() ? kNoLabels : it->second->labels;
}

const Workload* ClusterState::FindWorkload(WorkloadKind kind, std::string_view ns,
                                           std::string_view name) const {
  const auto& m = *workloads_[static_cast<int>(kind)];
  auto it = m.find(std::string(ns) + "/" + std::string(name));
  return it == m.end() ? nullptr : it->second.get();
}

void ClusterState::CountPVCRefs(const Pod& pod, int delta) {
  for (const PodVolume& v : pod.volumes) {
    if (v.source != PodVolume::Source::kPersistentVolumeClaim) continue;
    const std::string key = pod.ns + "/" + v.claim_name;
    undo::AddCount(log(), pvc_ref_counts_.Mutable(log()), key, delta);
  }
}

bool ClusterState::IsPVCUsedByPods(std::string_view key) const {
  return pvc_ref_counts_->contains(std::string(key));
}

namespace {

template <class M, class T>
void Upsert(UndoLog* log, Cow<M>& m, std::string key, std::shared_ptr<const T> v) {
  undo::InsertOrAssign(log, m.Mutable(log), std::move(key), std::move(v));
}

template <class M>
bool Remove(UndoLog* log, Cow<M>& cow, std::string_view key) {
  if (cow->find(key) == cow->end()) return false;
  M& m = cow.Mutable(log);
  undo::Erase(log, m, m.find(key));
  return true;
}

template <class M>
auto Find(const Cow<M>& m, std::string_view key) -> decltype(m->begin()->second.get()) {
  auto it = m->find(key);
  return it == m->end() ? nullptr : it->second.get();
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
  const std::shared_ptr<const Pod>* pod = pods_.Find(key);
  return pod == nullptr ? nullptr : *pod;
}

const NodeInfo* ClusterState::FindNodeInfo(std::string_view name) const {
  const std::shared_ptr<NodeInfo>* info = infos_.Find(name);
  return info == nullptr ? nullptr : info->get();
}

const NodeInfo* ClusterState::FindNode(std::string_view name) const {
  const NodeInfo* info = FindNodeInfo(name);
  return info == nullptr || info->node() == nullptr ? nullptr : info;
}

}  // namespace sched
