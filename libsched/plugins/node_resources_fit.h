// NodeResourcesFit: rejects nodes without room for the pod's requests and
// scores the rest by how allocated they would be, mirroring
// pkg/scheduler/framework/plugins/noderesources/{fit.go,resource_allocation.go,
// least_allocated.go,most_allocated.go,requested_to_capacity_ratio.go}
// (kube-scheduler v1.36.3).
//
// Filter compares actual requests (Pod::requests) with allocatable minus
// NodeInfo::requested. Score uses the non-zero requests (100m CPU / 200 MiB
// per container missing a request) for cpu and memory, actual requests for
// everything else.
//
// Lifetime: the reasons of a Filter status ("Insufficient example.com/foo")
// point into this plugin's PreFilter data in the CycleState, so a Filter
// status is valid only while the cycle's CycleState lives.
//
// DRAExtendedResource (beta, on): a scalar request that a DeviceClass
// provides (helper/dra_extended_resource.h) is not checked on a node whose
// allocatable lacks it (shouldDelegateResourceToDRA): DynamicResources
// allocates it there. Scoring such a resource (a scoringStrategy naming
// it) is refused in PreScore (docs/dra.md).
//
// Thread-safety: immutable after construction; const methods may be called
// concurrently (Filter and Score for different nodes of one cycle).
#ifndef LIBSCHED_PLUGINS_NODE_RESOURCES_FIT_H_
#define LIBSCHED_PLUGINS_NODE_RESOURCES_FIT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/field_error.h"
#include "libsched/framework/plugin.h"
#include "libsched/plugins/helper/resource_allocation.h"

namespace sched {

enum class ScoringStrategyType : uint8_t {
  kLeastAllocated,
  kMostAllocated,
  kRequestedToCapacityRatio,
};

// config.UtilizationShapePoint: utilization 0..100 (percent) -> score 0..10.
struct UtilizationShapePoint {
  int32_t utilization = 0;
  int32_t score = 0;
};

// config.RequestedToCapacityRatioParam.
struct RequestedToCapacityRatioParam {
  // Points in strictly increasing utilization (validated).
  std::vector<UtilizationShapePoint> shape;
};

// config.ScoringStrategy. `resources` name cpu (milli-CPU), memory,
// ephemeral-storage (bytes) or scalar resources (counts); weights 1..100.
struct ScoringStrategy {
  ScoringStrategyType type = ScoringStrategyType::kLeastAllocated;
  std::vector<ResourceSpec> resources = {{"cpu", 1}, {"memory", 1}};
  // Set exactly when type is RequestedToCapacityRatio (validated).
  std::optional<RequestedToCapacityRatioParam> requested_to_capacity_ratio;
};

// config.NodeResourcesFitArgs with upstream's defaults.
struct NodeResourcesFitArgs {
  // Extended resources Filter does not check, by full name.
  std::vector<std::string> ignored_resources;
  // Extended resources Filter does not check, by the part before "/".
  std::vector<std::string> ignored_resource_groups;
  ScoringStrategy scoring_strategy;
};

// helper.BuildBrokenLinearFunction: the piecewise-linear function through
// `shape` (utilization -> score), constant beyond its ends. Integer math.
// REQUIRES: `shape` is non-empty with strictly increasing utilization.
int64_t BrokenLinear(std::span<const UtilizationShapePoint> shape, int64_t utilization);

class NodeResourcesFit final : public PreFilterPlugin,
                               public FilterPlugin,
                               public PreScorePlugin,
                               public ScorePlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeResourcesFit";

  // ValidateNodeResourcesFitArgs on defaulted args (weights already 1 where
  // the config left them 0): every bad field, in upstream's order and words.
  static FieldErrors ValidateArgs(const NodeResourcesFitArgs& args);
  // REQUIRES: ValidateArgs(args) succeeds (the defaults do).
  explicit NodeResourcesFit(NodeResourcesFitArgs args = {});

  std::string_view Name() const override { return kName; }
  // Pod Delete|UpdatePodScaleDown: Queue when a bound or nominated pod is
  // deleted, when the pod itself scaled down, or when a bound pod lowered a
  // request the pod makes. Node Add|UpdateNodeAllocatable: Queue when the
  // pod fits the empty node and (for an update) some allocatable it requests,
  // or the pod count, went up.
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;

  // Never skips. Records the pod's scalar requests to check (non-zero, not
  // ignored) with their reason strings.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // fitsRequest. Reasons in order: "Too many pods", cpu, memory,
  // ephemeral-storage, then scalar resources by interned id (upstream uses
  // Go map order). UnschedulableAndUnresolvable when some request exceeds
  // the node's allocatable outright, else Unschedulable.
  // REQUIRES: node.node() != nullptr; PreFilter ran on `state` (else
  // Error, as upstream).
  Status Filter(const CycleState& state, const Pod& pod,
                const NodeInfo& node) const override;
  void SignPod(const Pod& pod, PodSigner& sig) const override;
  // Equivalence-class cache: the verdict reads only the node and the pod,
  // unless a request is DRA-backed (it then depends on the DeviceClasses;
  // upstream's SignPod disables the signature then).
  bool FilterIsNodeLocal(const CycleState& state, PodSigner& key) const override;

  // Never skips. Resolves the scored resources and the pod's requests.
  Status PreScore(CycleState& state, const Pod& pod,
                  std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // Error when no resources are configured ("resources not found", as
  // upstream). REQUIRES: node.node() != nullptr; PreScore ran on `state`
  // (else Error).
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  // Equivalence-class cache: the raw score reads only the node and the pod.
  bool ScoreCacheKey(const CycleState& /*state*/, PodSigner& /*key*/) const override {
    return true;
  }

 private:
  NodeResourcesFitArgs args_;
  std::set<std::string, std::less<>> ignored_resources_;
  std::set<std::string, std::less<>> ignored_groups_;
  // RequestedToCapacityRatio: the configured shape with scores
  // scaled to 0..MaxNodeScore.
  std::vector<UtilizationShapePoint> scaled_shape_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_RESOURCES_FIT_H_
