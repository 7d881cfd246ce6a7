// PodNominator: read access to the pods that preemption nominated to nodes
// (status.nominatedNodeName), as the framework's PodNominator
// (staging/src/k8s.io/kube-scheduler/framework/interface.go). The queue's
// Nominator implements it; a cycle reads it to run the two-pass filter
// (framework/runtime/framework.go RunFilterPluginsWithNominatedPods).
#ifndef LIBSCHED_FRAMEWORK_POD_NOMINATOR_H_
#define LIBSCHED_FRAMEWORK_POD_NOMINATOR_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "libsched/model/pod.h"

namespace sched {

class PodNominator {
 public:
  virtual ~PodNominator() = default;
  // Pods nominated to `node_name`, in the order they were nominated: a view
  // valid until the nominations next change (a cycle's filter runs read it
  // per node, so it copies nothing).
  virtual std::span<const std::shared_ptr<const Pod>> NominatedPodsOn(
      std::string_view node_name) const = 0;
  // The same pods, copied: for a caller that changes nominations while it
  // iterates them.
  std::vector<std::shared_ptr<const Pod>> NominatedPodsForNode(std::string_view node_name) const {
    const auto pods = NominatedPodsOn(node_name);
    return {pods.begin(), pods.end()};
  }
  // The nominated pods of every node that has some, as NominatedPodsOn
  // gives them, in no particular order, with the list's version: a cycle
  // asks once for all nodes (NominatedPodsByNode) instead of once per node
  // it filters. A version is NewNominationsVersion() taken when the list
  // last changed: the same version means the same Pod objects in the same
  // order (caches key on it instead of holding the pods); 0 means the
  // nominator keeps no versions (nothing may be cached under it).
  using NominationsFn =
      std::function<void(std::string_view node_name, std::span<const std::shared_ptr<const Pod>>,
                         uint64_t version)>;
  virtual void ForEachNominatedNode(const NominationsFn& fn) const = 0;
  // Where a caller's view of the nominations stood: see
  // ForEachNominatedNodeSince. Value-initialized: nowhere.
  struct Mark {
    uint64_t journal = 0;
    size_t seen = 0;
  };
  // The lists that changed since *mark (a mark this nominator, or one
  // sharing its nominations, set), as ForEachNominatedNode gives them, a
  // list now gone with no pods; a list may come more than once. Sets
  // *mark to now either way. False when it cannot say (a rollback, a
  // copy, a journal trimmed, a first call): it then calls nothing, and
  // the caller walks every list (ForEachNominatedNode). The default
  // never can.
  virtual bool ForEachNominatedNodeSince(Mark* mark, const NominationsFn& /*fn*/) const {
    *mark = {};
    return false;
  }
  // False only when no pod is nominated anywhere, so a cycle can skip
  // asking per node. The default is the safe answer.
  virtual bool HasNominatedPods() const { return true; }
};

// A nominations version no list had before, in this process: unique across
// nominators and their forks, so a list put back by an undo log keeps the
// version it had with those contents. Never 0.
inline uint64_t NewNominationsVersion() {
  static std::atomic<uint64_t> last{0};
  return last.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_POD_NOMINATOR_H_
