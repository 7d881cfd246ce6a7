// Nominator: the pods that preemption nominated to nodes, by node, mirroring
// pkg/scheduler/backend/queue/nominator.go. Pods are keyed by namespace/name
// (PodKey); the newest version of each pod is kept so that a cycle reads its
// current requests.
//
// Thread-safety: none; the owning PriorityQueue serializes calls.
#ifndef LIBSCHED_QUEUE_NOMINATOR_H_
#define LIBSCHED_QUEUE_NOMINATOR_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/model/pod.h"
#include "libsched/state/undo_log.h"

namespace sched {

class Nominator final : public PodNominator {
 public:
  // Changes are recorded in `log` (may be null), which must outlive it.
  explicit Nominator(UndoLog* log = nullptr) : log_(log) {}
  // The nominations of `other` (pods are immutable: shared), for a copy of
  // its queue (PriorityQueue::CopyPodsFrom). Not recorded in the log.
  void CopyFrom(const Nominator& other) {
    nominated_pods_ = other.nominated_pods_;
    pod_to_node_ = other.pod_to_node_;
  }

  // Records `pod` as nominated to `node_name` (upstream's ModeOverride) or,
  // when it is nullopt, to pod->nominated_node_name (ModeNoop; nothing when
  // that is empty). A pod already bound (spec.nodeName set) is not recorded.
  // Any earlier nomination of the pod is dropped first.
  void AddNominatedPod(std::shared_ptr<const Pod> pod,
                       const std::optional<std::string>& node_name = std::nullopt);
  // The pod changed: keeps the nomination this queue made (when neither
  // version carries status.nominatedNodeName) or takes the new one.
  void UpdateNominatedPod(const Pod& old_pod, std::shared_ptr<const Pod> new_pod);
  // Drops the pod's nomination, if any (on delete and on assume).
  void DeleteNominatedPodIfExists(const Pod& pod);

  std::vector<std::shared_ptr<const Pod>> NominatedPodsForNode(
      std::string_view node_name) const override;
  bool HasNominatedPods() const override { return !nominated_pods_.empty(); }
  // The node `pod` is nominated to, or "".
  std::string NominatedNodeFor(const Pod& pod) const;

 private:
  UndoLog* log_;
  std::map<std::string, std::vector<std::shared_ptr<const Pod>>, std::less<>> nominated_pods_;
  std::unordered_map<std::string, std::string> pod_to_node_;  // PodKey -> node
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_NOMINATOR_H_
