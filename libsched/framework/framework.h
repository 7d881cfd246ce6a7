// Framework: one profile's plugins run against one snapshot, for one cycle
// (the parts of frameworkImpl in pkg/scheduler/framework/runtime/framework.go
// that the cycle and PostFilter plugins share, and the fwk.Handle a
// PostFilter plugin sees: snapshot, nominated pods, extension runners).
//
// Thread-safety: RunFilterPlugins and RunFilterPluginsWithNominatedPods
// may be called concurrently, on one CycleState too (they only read it;
// the nominated-pods pass adds pods to a clone); the PreFilter extension
// runners change the CycleState they are given. RandomInt draws from the
// scheduler's source and must not be called concurrently.
#ifndef LIBSCHED_FRAMEWORK_FRAMEWORK_H_
#define LIBSCHED_FRAMEWORK_FRAMEWORK_H_

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "libsched/framework/cycle_state.h"
#include "libsched/framework/mt19937_64.h"
#include "libsched/framework/nominated_pods_by_node.h"
#include "libsched/framework/pod_nominator.h"
#include "libsched/framework/profile.h"
#include "libsched/framework/status.h"
#include "libsched/framework/yielded_nominations.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched {

class Framework {
 public:
  // `nominator` may be null (no nominated pods). `draws` (may be null)
  // records the bound of every RandomInt, so a cycle's draws can be
  // repeated exactly (the equivalence cache's failure memo). All arguments
  // must outlive the Framework.
  Framework(const Profile& profile, const ClusterState& snapshot, const PodNominator* nominator,
            Mt19937_64& rng, std::vector<int64_t>* draws = nullptr)
      : profile_(profile), snapshot_(snapshot), nominator_(nominator), rng_(rng), draws_(draws) {}

  const Profile& profile() const { return profile_; }
  const ClusterState& snapshot() const { return snapshot_; }
  // Finds nominated pods in `by_node` (built for this snapshot and
  // nominator; must outlive the Framework) instead of asking the nominator
  // by name.
  void set_nominated_pods_by_node(const NominatedPodsByNode* by_node) { by_node_ = by_node; }
  // The pods nominated to `node` (none without a nominator).
  NominatedPodsByNode::Pods NominatedPodsOn(const NodeInfo& node) const;
  // The pods nominated to `node` that `pod` (whose NominatedKey is
  // `pod_key`) yields to (YieldsToNominated): the list's version and their
  // positions, written to *positions (version 0 without the index).
  YieldedNominations YieldedOn(const NodeInfo& node, const Pod& pod, NominatedKey pod_key,
                               std::vector<uint32_t>* positions) const;

  // RunFilterPlugins: the first failing plugin's status (with its name),
  // or success. Plugins whose PreFilter returned Skip are not run. With the
  // profile's run_all_filters every filter runs and the rejections merge
  // (Status::MergeRejection) into one status naming the first most severe
  // plugin; an Error still returns at once.
  Status RunFilterPlugins(const CycleState& state, const Pod& pod, const NodeInfo& node) const;
  // The same without the plugins marked in `except` (by index in
  // profile().filter(); empty: none), for the equivalence cache's live
  // column. *failed_at gets the index of the first plugin that rejected
  // (or erred), profile().filter().size() when none did.
  Status RunFilterPlugins(const CycleState& state, const Pod& pod, const NodeInfo& node,
                          std::span<const uint8_t> except, size_t* failed_at) const;

  // RunFilterPluginsWithNominatedPods: with the nominated pods of `node`
  // whose priority is >= the pod's (the pod itself excluded) added to a
  // copy of `node` and to a clone of `state`, then, if any were added and
  // that passed, once more without them. Without nominated pods it is one
  // RunFilterPlugins and copies nothing.
  Status RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                           const NodeInfo& node) const;
  // Its first pass alone, over `nominated` (the node's nominated pods, as
  // NominatedPodsOn gives them): success when none of them is one the pod
  // yields to (YieldsToNominated), else the verdict with those added.
  Status RunNominatedPass(const CycleState& state, const Pod& pod, const NodeInfo& node,
                          NominatedPodsByNode::Pods nominated) const;

  // RunPreFilterExtensionAddPod / RemovePod: tells each PreFilter plugin
  // with extensions (and not skipped) that `other` joins or leaves `node`.
  // An Error status names the failing plugin.
  Status RunPreFilterExtensionAddPod(CycleState& state, const Pod& pod, const Pod& other,
                                     const NodeInfo& node) const;
  Status RunPreFilterExtensionRemovePod(CycleState& state, const Pod& pod, const Pod& other,
                                        const NodeInfo& node) const;

  // Set when this cycle's Filter verdict on a node (with its nominated
  // pods, on a copy with pods removed or added too) depends only on the
  // node, its nominated pods and this key: the equivalence cache's filter
  // key of the pod's class, with no live Filter and no PreFilter extension
  // running. A PostFilter plugin may then keep per-node outcomes in its
  // class memo under it (DefaultPreemption's dry run). Unset otherwise.
  void set_class_filter_key(std::optional<uint64_t> key) { class_filter_key_ = key; }
  std::optional<uint64_t> class_filter_key() const { return class_filter_key_; }

  // A uniform integer in [0, n) from the scheduler's seeded source.
  // REQUIRES: n > 0.
  int64_t RandomInt(int64_t n) const {
    if (draws_ != nullptr) draws_->push_back(n);
    return static_cast<int64_t>(UniformBelow(rng_, static_cast<uint64_t>(n)));
  }

 private:
  const Profile& profile_;
  const ClusterState& snapshot_;
  const PodNominator* nominator_;
  Mt19937_64& rng_;
  std::vector<int64_t>* draws_;
  const NominatedPodsByNode* by_node_ = nullptr;
  std::optional<uint64_t> class_filter_key_;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_FRAMEWORK_H_
