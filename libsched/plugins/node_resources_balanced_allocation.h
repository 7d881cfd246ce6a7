// NodeResourcesBalancedAllocation: favours nodes whose resource usage stays
// balanced across resources once the pod is placed, mirroring
// pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go and
// the parts of resource_allocation.go it uses (kube-scheduler v1.36.3).
//
// Per node, with f_r = min(requested_r / allocatable_r, 1) over the scored
// resources the node has (actual requests, no 100m / 200 MiB defaults; a
// scalar resource the pod does not request is left out) and std their
// population standard deviation:
//   balance(x) = int64((1 - std) * 100)
//   score      = 50 + (50 + balance(node + pod) - balance(node)) / 2
// so 75 means "no change", higher means the pod improves the balance (the
// v1.36 formula; v1.35 scored balance(node + pod) alone). No NormalizeScore.
//
// Not modelled: DRA-backed extended resources (no DeviceClasses).
//
// Thread-safety: immutable after construction; const methods may be called
// concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_H_
#define LIBSCHED_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/field_error.h"
#include "libsched/framework/plugin.h"
#include "libsched/plugins/helper/resource_allocation.h"

namespace sched {

// config.NodeResourcesBalancedAllocationArgs with upstream's defaults.
struct NodeResourcesBalancedAllocationArgs {
  // Resource names as NodeResourcesFit's; the weights must be 1 (they are
  // not used).
  std::vector<ResourceSpec> resources = {{"cpu", 1}, {"memory", 1}};
};

class NodeResourcesBalancedAllocation final : public PreScorePlugin, public ScorePlugin {
 public:
  static constexpr std::string_view kName = "NodeResourcesBalancedAllocation";

  // ValidateNodeResourcesBalancedAllocationArgs on defaulted args (no
  // duplicate names, every weight 1): every bad field, in upstream's words.
  static FieldErrors ValidateArgs(const NodeResourcesBalancedAllocationArgs& args);
  // REQUIRES: ValidateArgs(args) succeeds (the defaults do).
  explicit NodeResourcesBalancedAllocation(NodeResourcesBalancedAllocationArgs args = {});

  std::string_view Name() const override { return kName; }

  // Skip when the pod requests none of the scored resources (BestEffort,
  // issue 129138), so such pods get no balance score at all.
  Status PreScore(CycleState& state, const Pod& pod,
                  std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // REQUIRES: PreScore returned Success on `state`; node.node() != nullptr.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the raw score reads only the node and the pod.
  bool ScoreCacheKey(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }

 private:
  NodeResourcesBalancedAllocationArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_RESOURCES_BALANCED_ALLOCATION_H_
