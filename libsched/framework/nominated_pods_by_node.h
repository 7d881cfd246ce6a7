// NominatedPodsByNode: one cycle's view of the PodNominator by
// NodeInfo::index(), so the filter walk and the preemption dry run find a
// node's nominated pods with one array read instead of a lookup of the
// node's name per node (and per filter run). Beside each list it keeps
// the pods' NominatedKeys (yielded_nominations.h), so "which of them does
// this pod yield to" (Yielded) reads no Pod object.
//
// Built once per cycle, incrementally: the first Build (and one after the
// nominator could not say what changed: PodNominator::
// ForEachNominatedNodeSince) walks every list; the others revisit only the
// lists changed since the last Build, and check that each kept list's node
// (its index and Node object, held so that its address names it alone) is
// still the state's there, finding it again by name when not. A slot
// counts only when it was filled since the last walk of every list, and
// not emptied since.
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
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/framework/yielded_nominations.h"
#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/model/string_hash.h"
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
    mark_ = {};
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
  // Inline: the filter walk asks it of every node.
  YieldedNominations Yielded(const NodeInfo& node, const Pod& pod, NominatedKey pod_key,
                             std::vector<uint32_t>* positions) const {
    const Slot* s = Find(node);
    // Not the state's node: its pods by name, unversioned.
    if (s == nullptr) return UnversionedYielded(On(node), pod, positions);
    positions->clear();
    for (size_t k = 0; k < s->pods.size(); ++k) {
      if (YieldsToNominated(s->keys[k], *s->pods[k], pod_key, pod)) {
        positions->push_back(static_cast<uint32_t>(k));
      }
    }
    return {s->version, *positions};
  }

 private:
  // One nominated node's list as the last Build saw it.
  struct alignas(64) Slot {
    uint64_t build = 0;  // the walk it was filled since; others are empty
    const Node* node = nullptr;  // the state's Node object at this index
    Pods pods;
    uint64_t version = 0;
    const NominatedKey* keys = nullptr;  // pods.size() of them
  };
  // A nominated name's list, its node and its pods' keys.
  struct Resolved {
    uint32_t index = 0;
    std::shared_ptr<const Node> node;  // null: no such node
    Pods pods;
    uint64_t version = 0;  // of the list the keys are for; 0: none
    std::vector<NominatedKey> keys;
    uint64_t build = 0;  // the last walk of every list that saw it
  };
  // Whether the state still holds r's Node at r.index.
  static bool Holds(const ClusterState& state, const Resolved& r) {
    const NodeInfo* at = state.NodeAtOrNull(r.index);
    return r.node != nullptr && at != nullptr && at->node() == r.node.get();
  }
  // Takes `pods` (version `version`) as `name`'s list in `r`, finds its
  // node again if the state no longer holds it there, and files its slot.
  void File(const ClusterState& state, std::string_view name, Resolved& r, Pods pods,
            uint64_t version);
  // Empties r's slot, if r filled it.
  void Unfile(const Resolved& r);
  // Builds from every list of `nominator`.
  void Walk(const ClusterState& state, const PodNominator& nominator);
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
  uint64_t build_ = 0;  // walks of every list so far
  PodNominator::Mark mark_;  // where the last Build left the nominations
  std::vector<Slot> slots_;
  Slot none_;  // no pods (its build, 0, is never current)
  std::unordered_map<std::string, Resolved, StringHash, std::equal_to<>> resolved_;  // by name
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_
