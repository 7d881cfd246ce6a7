// PodLabelIndex: the bound and assumed pods grouped by namespace and labels,
// each group with the nodes holding its pods and how many, and how many
// per value of each label key that two nodes share a value of (a zone).
// An incoming pod's affinity terms select pods by namespace and labels
// only, so InterPodAffinity evaluates a term once per group and adds the
// group's counts per domain: a cycle costs O(groups x domains) for a
// shared key (a zone), O(groups) for a key with one node per value (a
// hostname; DomainCounts), where upstream walks every pod
// (interpodaffinity/filtering.go getIncomingAffinityAntiAffinityCounts,
// scoring.go PreScore). Pods of one template share a group, so there are
// few.
//
// Kept up to date by ClusterState as pods come and go. Nodes are named by
// NodeInfo::index(), not by address, and groups are shared copy-on-write
// (state/cow.h): a copy of the index (ClusterState::Clone) is O(1), and a
// change clones only the group it touches.
// Thread-safety: const methods may be called concurrently; mutation needs
// exclusive access.
#ifndef LIBSCHED_STATE_POD_LABEL_INDEX_H_
#define LIBSCHED_STATE_POD_LABEL_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libsched/model/labels.h"
#include "libsched/model/pod.h"
#include "libsched/state/cow.h"
#include "libsched/state/undo_log.h"

namespace sched {

class PodLabelIndex {
 public:
  struct Group {
    // A pod with only the group's ns, ns_atom, labels and terminating set:
    // what AffinityTerm::Matches and PodTopologySpread's counting read.
    Pod sample;
    // The nodes holding pods of the group, by NodeInfo::index() (see
    // ClusterState::NodeAt), each with its count (> 0); the order follows
    // the history of adds and removes.
    std::vector<std::pair<uint32_t, int64_t>> nodes;
    // Position of each node in `nodes`.
    std::unordered_map<uint32_t, size_t> position;
    // The group's pods on the node with index `node`; 0 when none.
    int64_t CountOn(uint32_t node) const {
      const auto it = position.find(node);
      return it == position.end() ? 0 : nodes[it->second].second;
    }
    // The group's pods by Pair(key, value) of their node's labels, for
    // every label key of which some two nodes share a value
    // (TopologyDomains::Key::OneNodePerDomain() false); each count > 0.
    // Pods on a node without a Node object count in none. Kept so by
    // ClusterState (CountPairs, DropKey).
    std::unordered_map<uint64_t, int64_t> pairs;
  };
  struct Key {
    Atom ns;
    LabelSet labels;
    // Terminating pods get groups of their own: PodTopologySpread skips
    // them (countPodsMatchSelector), InterPodAffinity does not.
    bool terminating = false;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const;
  };
  using Groups = std::unordered_map<Key, Cow<Group>, KeyHash>;

  // `pod` now runs on the node with index `node`. Changes are recorded in
  // `log` when given (state/undo_log.h).
  void Add(const Pod& pod, uint32_t node, UndoLog* log = nullptr);
  // `pod` left the node with index `node`. REQUIRES: a matching Add.
  void Remove(const Pod& pod, uint32_t node, UndoLog* log = nullptr);
  // A node label (key, value) packed as Group::pairs holds it, and back.
  static uint64_t Pair(Atom key, Atom value) { return (uint64_t{key} << 32) | value; }
  static Atom PairKey(uint64_t pair) { return static_cast<Atom>(pair >> 32); }
  static Atom PairValue(uint64_t pair) { return static_cast<Atom>(pair); }
  // Adds `delta` to each of `pairs` (from Pair) in the group of `pod`; a
  // count falling to 0 goes. Nothing when the pod's group is absent.
  void CountPairs(const Pod& pod, std::span<const uint64_t> pairs, int64_t delta,
                  UndoLog* log = nullptr);
  // Every group's pairs of label key `key` dropped.
  void DropKey(Atom key, UndoLog* log = nullptr);
  // The groups with at least one pod.
  const Groups& groups() const { return *groups_; }
  // Names the set of groups' keys: it changes when a group comes or goes
  // (not when a group's nodes or counts change), to a value no
  // PodLabelIndex of this process had before, and an undone change
  // restores it. So two indexes (copies, forks, rollbacks) with the same
  // version have the same keys, and what is derived from the keys alone
  // (which groups a selector matches) can be kept under it.
  uint64_t version() const { return version_; }
  // Every group made this copy's own (ClusterState::Clone inside a Batch).
  void UnshareAll();

 private:
  // A version() no PodLabelIndex had before.
  static uint64_t NewVersion();
  // version_ = NewVersion(), undoably.
  void BumpVersion(UndoLog* log);

  Cow<Groups> groups_;
  uint64_t version_ = NewVersion();
};

}  // namespace sched

#endif  // LIBSCHED_STATE_POD_LABEL_INDEX_H_
