// Plugin interfaces, named and ordered as upstream's framework
// (staging/src/k8s.io/kube-scheduler/framework/interface.go). A plugin
// implements the extension points it needs by inheriting their interfaces.
//
// Plugins hold only configuration: every method is const and may be called
// concurrently for different nodes (and, for PreFilter/PreScore, for
// different cycles with different CycleStates).
#ifndef LIBSCHED_FRAMEWORK_PLUGIN_H_
#define LIBSCHED_FRAMEWORK_PLUGIN_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/model/pod_signer.h"
#include "libsched/framework/cycle_state.h"
#include "libsched/framework/node_to_status.h"
#include "libsched/framework/status.h"
#include "libsched/model/pod.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched {

class Framework;  // framework.h: what PostFilter plugins may run

inline constexpr int64_t kMaxNodeScore = 100;  // framework.MaxNodeScore
inline constexpr int64_t kMinNodeScore = 0;

class Plugin {
 public:
  virtual ~Plugin() = default;
  virtual std::string_view Name() const = 0;
  // The CycleState slot this plugin instance owns; set by its Profile.
  size_t slot() const { return slot_; }
  void set_slot(size_t s) { slot_ = s; }

  // Equivalence-class cache (libsched/ecache): feeds `sig` every pod field
  // this plugin reads where the cache may reuse its answers (the Filter of
  // FilterIsNodeLocal, the Score of ScoreCacheKey). Plugins that never opt
  // in keep the default (nothing).
  virtual void SignPod(const Pod& /*pod*/, PodSigner& /*sig*/) const {}

 private:
  size_t slot_ = 0;
};

// PreFilterResult (fwk.PreFilterResult): a PreFilter plugin may restrict the
// nodes worth filtering. Results of several plugins are intersected; nodes
// left out get "node(s) didn't satisfy plugin(s) [...]".
struct PreFilterResult {
  bool all_nodes = true;                // no restriction
  std::vector<std::string> node_names;  // when !all_nodes; sorted, unique
};

class PreFilterPlugin : public virtual Plugin {
 public:
  // Computes pod-derived state once per cycle. Skip disables this plugin's
  // Filter; a rejection fails the pod on every node. `result` starts as
  // all_nodes; a plugin that restricts nodes fills it.
  virtual Status PreFilter(CycleState& state, const Pod& pod,
                           const ClusterState& snapshot,
                           PreFilterResult* result) const = 0;

  // PreFilterExtensions: keep this plugin's PreFilter state right when a pod
  // is added to (nominated pods) or removed from (preemption victims)
  // `node` for one evaluation. Plugins whose state does not depend on other
  // pods keep the defaults. A plugin that changes its slot uses
  // CycleState::CopyOnWrite, since `state` is a clone.
  virtual bool HasPreFilterExtensions() const { return false; }
  virtual Status AddPod(CycleState& /*state*/, const Pod& /*pod*/, const Pod& /*pod_to_add*/,
                        const NodeInfo& /*node*/) const {
    return Status();
  }
  virtual Status RemovePod(CycleState& /*state*/, const Pod& /*pod*/,
                           const Pod& /*pod_to_remove*/, const NodeInfo& /*node*/) const {
    return Status();
  }
};

class FilterPlugin : public virtual Plugin {
 public:
  virtual Status Filter(const CycleState& state, const Pod& pod,
                        const NodeInfo& node) const = 0;
  // Equivalence-class cache: true when, given what PreFilter wrote to
  // `state`, Filter's verdict on a node depends only on that NodeInfo, the
  // pod fields SignPod feeds, and cluster-wide values this method feeds to
  // `key` (e.g. InterPodAffinity's domains holding matching pods), so a
  // verdict stays right while the node's generation and `key` are
  // unchanged. Asked only when PreFilter did not Skip. Default false: a
  // plugin opts in.
  virtual bool FilterIsNodeLocal(const CycleState& /*state*/, PodSigner& /*key*/) const {
    return false;
  }
  // Equivalence-class cache, a Filter "live column": true when this
  // cycle's Filter is cheap enough to run on every node of a cached walk
  // (a lookup in what PreFilter wrote), so the cache keeps the other
  // Filters' verdicts under a key without this plugin's (a change of its
  // key, e.g. PodTopologySpread's failing domains, then leaves the rows
  // valid) and runs this one afresh on each node. Asked only when
  // FilterIsNodeLocal said true (its key still guards the failure memo)
  // and the profile does not run all filters. Default false.
  virtual bool FilterRunsLive(const CycleState& /*state*/) const { return false; }
};

// PostFilterResult (fwk.PostFilterResult): where the pod is nominated and
// what must go to make room there.
struct PostFilterResult {
  std::string nominated_node_name;
  // Pods to delete, most important first (priority, then start time).
  std::vector<std::shared_ptr<const Pod>> victims;
  // Backs the reasons of the Status PostFilter returns.
  std::deque<std::string> messages;
};

class PostFilterPlugin : public virtual Plugin {
 public:
  // Runs when no node passed Filter. `statuses` holds each node's Filter
  // verdict. Success with a nominated node: the pod may fit there once
  // the victims are gone. Unschedulable: PostFilter could not help; the
  // reasons say why. May draw random numbers through `fw`, so it is not
  // safe to call concurrently with the same Framework.
  virtual Status PostFilter(const Framework& fw, const CycleState& state, const Pod& pod,
                            const NodeToStatus& statuses, PostFilterResult* result) const = 0;
};

class PreScorePlugin : public virtual Plugin {
 public:
  // Runs once over the feasible nodes; Skip disables this plugin's Score.
  virtual Status PreScore(CycleState& state, const Pod& pod,
                          std::span<const NodeInfo* const> feasible,
                          const ClusterState& snapshot) const = 0;
};

class ScorePlugin : public virtual Plugin {
 public:
  virtual Status Score(const CycleState& state, const Pod& pod,
                       const NodeInfo& node, int64_t* score) const = 0;
  // Equivalence-class cache: true when, given what PreScore wrote to
  // `state`, the raw Score of a node depends only on that NodeInfo, the pod
  // fields SignPod feeds, and cluster-wide values this method feeds to
  // `key` (e.g. ImageLocality's node counts), so a cached raw score stays
  // right while the node's generation and `key` are unchanged. Asked only
  // when PreScore did not Skip. Default false: a plugin opts in.
  virtual bool ScoreCacheKey(const CycleState& /*state*/, PodSigner& /*key*/) const {
    return false;
  }
  // Score on the nodes[i] with which[i] set, into scores[i] (the others
  // untouched): one call for a column the cache cannot keep (a live one),
  // instead of a virtual Score per node. Returns false, writing nothing,
  // when a Score would fail or the plugin has no such shortcut (the
  // default): the caller then calls Score per node.
  virtual bool ScoreAll(const CycleState& /*state*/, const Pod& /*pod*/,
                        std::span<const NodeInfo* const> /*nodes*/,
                        std::span<const char> /*which*/, std::span<int64_t> /*scores*/) const {
    return false;
  }
  // NormalizeScore (ScoreExtensions); `scores` is parallel to the feasible
  // nodes. Plugins without normalization keep the default.
  virtual bool HasNormalizeScore() const { return false; }
  virtual Status NormalizeScore(const CycleState& /*state*/, const Pod& /*pod*/,
                                std::span<int64_t> /*scores*/) const {
    return Status();
  }
  // True when NormalizeScore succeeds on a column whose raw scores are all
  // 0, of any length and whatever the state and pod, and sets every cell
  // to one value, put in *normalized: the equivalence cache's totals add
  // weight * that value per node without building the column (e.g.
  // DefaultNormalizeScore: 0, or kMaxNodeScore when reversed). Default
  // false: a plugin opts in.
  virtual bool NormalizesZeroColumnTo(int64_t* /*normalized*/) const { return false; }
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_PLUGIN_H_
