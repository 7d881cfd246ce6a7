// ServiceAffinity (legacy, not in the default profile): Filter keeps the pods
// of one Service on nodes that agree on the values of `affinityLabels`;
// Score spreads a Service's pods over the values of
// `antiAffinityLabelsPreference`. The Policy API's serviceAffinity predicate
// and serviceAntiAffinity priority translate onto it.
// Mirrors pkg/scheduler/framework/plugins/serviceaffinity/service_affinity.go
// of kubernetes v1.21 (config.ServiceAffinityArgs, framework.Handle), the
// last generation before upstream deprecated and then removed it.
//
// Filter: the pod's own spec.nodeSelector fixes the affinity labels it
// names; when some are missing, the pod belongs to a Service, and some pod
// of its namespace that matches the pod's labels is placed (the first one
// still present, in node-list order), the missing labels take the values
// of that pod's node. The node must carry every fixed label=value
// ("node(s) didn't match service affinity", Unschedulable).
//
// Score: the non-terminating pods on the node, in the pod's namespace, that
// the selector of the pod's first Service (by name) matches. NormalizeScore:
// per preference label, a node carrying it gets
//   100 * (total - pods in its label value) / total   (100 when total = 0)
// divided by the number of labels; the sum, truncated, is the score (0 for a
// node without any of the labels, and for every node when there are none).
//
// Differences: a pod added for the nominated-pods pass counts as on the
// node it is nominated to (upstream looks up its empty spec.nodeName and
// fails the cycle with "node not found"); upstream's Service order is the
// informer's, ours is by name.
//
// Thread-safety: holds only its args; const methods may be called
// concurrently.
#ifndef LIBSCHED_PLUGINS_SERVICE_AFFINITY_H_
#define LIBSCHED_PLUGINS_SERVICE_AFFINITY_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/framework/plugin.h"

namespace sched {

// ServiceAffinityArgs (pkg/scheduler/apis/config/types_pluginargs.go,
// v1.21). Label keys stay strings: the config is decoded before any label
// is interned. Upstream validates neither list; both may be empty, and a
// key may repeat.
struct ServiceAffinityArgs {
  // affinityLabels: labels whose values all pods of a Service share.
  std::vector<std::string> affinity_labels;
  // antiAffinityLabelsPreference: labels to spread a Service's pods over.
  std::vector<std::string> anti_affinity_labels_preference;
};

class ServiceAffinity final : public PreFilterPlugin,
                              public FilterPlugin,
                              public PreScorePlugin,
                              public ScorePlugin {
 public:
  static constexpr std::string_view kName = "ServiceAffinity";
  // ErrReason (Unschedulable).
  static constexpr std::string_view kReason = "node(s) didn't match service affinity";

  explicit ServiceAffinity(ServiceAffinityArgs args) : args_(std::move(args)) {}

  std::string_view Name() const override { return kName; }

  // Skip when there are no affinity labels (upstream's Filter then passes
  // every node). Otherwise records the pod's Services and the placed pods of
  // its namespace that its labels select (all of them when it has none).
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  bool HasPreFilterExtensions() const override { return true; }
  // A pod of the same namespace that the pod's labels select joins the
  // placed pods, on `node`. REQUIRES: `pod_to_add` and `node` outlive the
  // evaluation that uses `state`.
  Status AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                const NodeInfo& node) const override;
  Status RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                   const NodeInfo& node) const override;
  // Error when PreFilter did not run in this cycle.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;

  // Never skips: records the first Service's selector and, per preference
  // label, each feasible node's value (upstream reads them in
  // NormalizeScore from the snapshot; ours gets none).
  Status PreScore(CycleState& state, const Pod& pod, std::span<const NodeInfo* const> feasible,
                  const ClusterState& snapshot) const override;
  // REQUIRES: PreScore ran on `state` for `pod`.
  Status Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
               int64_t* score) const override;
  bool HasNormalizeScore() const override { return true; }
  // `scores` parallel to PreScore's `feasible`.
  Status NormalizeScore(const CycleState& state, const Pod& pod,
                        std::span<int64_t> scores) const override;

 private:
  ServiceAffinityArgs args_;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_SERVICE_AFFINITY_H_
