// NominatedPodsByNode: one cycle's view of the PodNominator by
// NodeInfo::index(), so the filter walk and the preemption dry run find a
// node's nominated pods with one array read instead of a lookup of the
// node's name per node (and per filter run). Built once per cycle: one
// pass over the nominated nodes and one over the node list. A nominated
// node's index is remembered across cycles by the address of the
// nominator's copy of its name (checked against the node list and the
// name before use), so a warm Build looks no name up in the state.
// No upstream counterpart (upstream asks its nominator by name each time,
// pkg/scheduler/framework/runtime/framework.go addGENominatedPods).
//
// Thread-safety: Build is not; On may be called concurrently after it.
// The spans it returns are the nominator's: valid until the nominations
// next change (a cycle does not change them).
#ifndef LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_
#define LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_

#include <memory>
#include <span>
#include <unordered_map>
#include <vector>

#include "libsched/framework/pod_nominator.h"
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

  // The pods nominated to `node`: a node of the state or a copy of one
  // (same index and Node object) from the array; any other node by name.
  Pods On(const NodeInfo& node) const {
    const uint32_t i = node.index();
    if (i < slots_.size() && slots_[i].node == node.node() && node.node() != nullptr) {
      return slots_[i].pods;
    }
    return nominator_->NominatedPodsOn(node.node()->name);
  }
  // The version of On(node)'s list (PodNominator::NominationsFn): 0 when
  // unknown (the nominator keeps none, or `node` was looked up by name)
  // or when the node has no nominated pods.
  uint64_t VersionOn(const NodeInfo& node) const {
    const uint32_t i = node.index();
    if (i < slots_.size() && slots_[i].node == node.node() && node.node() != nullptr) {
      return slots_[i].version;
    }
    return 0;
  }

 private:
  // A name resolved in an earlier Build: the node's index and Node object.
  struct Resolved {
    uint32_t index;
    const Node* node;
  };
  struct Slot {
    const Node* node = nullptr;  // the state's Node object at this index
    Pods pods;
    uint64_t version = 0;
  };
  const PodNominator* nominator_ = nullptr;
  std::vector<Slot> slots_;
  std::unordered_map<const char*, Resolved> resolved_;  // by the name's address
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_NOMINATED_PODS_BY_NODE_H_
