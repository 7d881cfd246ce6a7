// NominatedPodsByNode: one cycle's view of the PodNominator by
// NodeInfo::index(), so the filter walk and the preemption dry run find a
// node's nominated pods with one array read instead of a lookup of the
// node's name per node (and per filter run). Beside each list it keeps
// the pods' NominatedKeys (yielded_nominations.h), so "which of them does
// this pod yield to" (Yielded) reads no Pod object.
//
// Built once per cycle in O(nominated nodes): one pass over the
// nominator's lists, none over the node list. A list's node (its index
// and Node object, the Node held so that its address names it alone) and
// its pods' keys are remembered across cycles by the address of the
// nominator's copy of the node's name; they are reused while the list's
// version (which names the list, so its node name and pods) is unchanged
// and the state's NodeInfo at that index still holds that Node object.
// Slots are not cleared between cycles: a slot counts only when it was
// filled by the last Build.
// No upstream counterpart (upstream asks its nominator by name each time,
// pkg/scheduler/framework/runtime/framework.go addGENominatedPods).
//
// Thread-safety: Build is not; On and Yielded may be called
// concurrently after it. The spans they return are the nominator's: valid
// until the nominations next change (a cycle does not change them).
#ifndef LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_
#define LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/framework/yielded_nominations.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched {

class NominatedPodsByNode {
 public:
  using Pods = std::span<const std::shared_ptr<const Pod>>;

  // Indexes the nominations of `nominator` (not null) for the nodes of
  // `state`. Both must outlive the lookups.
  void Build(const ClusterState& state, const PodNominator& nominator);
  // A cycle with no nominations: drops what earlier Builds kept (the
  // Nodes of names once nominated, and with them their strings), and no
  // slot counts until the next Build.
  void Release() {
    if (resolved_.empty()) return;
    resolved_.clear();
    ++build_;
  }

  // The pods nominated to `node`: a node of the state or a copy of one
  // (same index and Node object) from the array; any other node by name.
  Pods On(const NodeInfo& node) const {
    const Slot* s = Find(node);
    return s != nullptr ? s->pods : nominator_->NominatedPodsOn(node.node()->name);
  }
  // The positions in On(node) of the pods `pod` (whose key is `pod_key`)
  // yields to (YieldsToNominated), written to *positions, and the version
  // of On(node)'s list (PodNominator::NominationsFn): 0 when unknown (the
  // nominator keeps none, or `node` was looked up by name) or when the
  // node has no nominated pods.
  YieldedNominations Yielded(const NodeInfo& node, const Pod& pod, NominatedKey pod_key,
                             std::vector<uint32_t>* positions) const;

 private:
  // One nominated node's list as the last Build saw it.
  struct alignas(64) Slot {
    uint64_t build = 0;  // the Build that filled it; others are empty
    const Node* node = nullptr;  // the state's Node object at this index
    Pods pods;
    uint64_t version = 0;
    const NominatedKey* keys = nullptr;  // pods.size() of them
  };
  // A list's node and its pods' keys, kept from an earlier Build.
  struct Resolved {
    uint32_t index = 0;
    std::shared_ptr<const Node> node;  // null: no such node
    uint64_t version = 0;  // of the list the keys (and the node) are for; 0: none
    std::vector<NominatedKey> keys;
    uint64_t build = 0;  // the last Build that saw the name nominated
  };
  // Whether `r` is still `name`'s node in `state` and its keys `version`'s.
  static bool Holds(const ClusterState& state, const Resolved& r, std::string_view name,
                    uint64_t version);
  // `node`'s slot (none_ when it has no nominated pods), or null when
  // `node` is none of the state's (then asked by name).
  const Slot* Find(const NodeInfo& node) const {
    const uint32_t i = node.index();
    if (i >= slots_.size()) return nullptr;
    const Slot& s = slots_[i];
    if (s.build == build_) return s.node == node.node() ? &s : nullptr;
    // No list was filed here: none names the state's node at i.
    const NodeInfo* at = state_->NodeAtOrNull(i);
    return at != nullptr && at->node() != nullptr && at->node() == node.node() ? &none_ : nullptr;
  }
  const ClusterState* state_ = nullptr;
  const PodNominator* nominator_ = nullptr;
  uint64_t build_ = 0;  // Builds so far
  size_t nominated_ = 0;  // lists in the last Build
  std::vector<Slot> slots_;
  Slot none_;  // no pods (its build, 0, is never current)
  std::unordered_map<const char*, Resolved> resolved_;  // by the name's address
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_
