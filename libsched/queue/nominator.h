// Nominator: the pods that preemption nominated to nodes, by node, mirroring
// pkg/scheduler/backend/queue/nominator.go. Pods are keyed by namespace/name
// (PodKey); the newest version of each pod is kept so that a cycle reads its
// current requests. Each node's list carries a version (pod_nominator.h
// NewNominationsVersion), new whenever the list changes, and the names of
// the changed lists are journaled, so that a cycle's index of them
// (NominatedPodsByNode) revisits only those (ForEachNominatedNodeSince).
//
// Copy-on-write (a forked queue, issue 18): ShareFrom() shares `other`'s
// nominations in O(1); the first change to a shared Nominator copies them
// (O(nominated pods), the pods themselves shared: they are immutable).
//
// Thread-safety: none; the owning PriorityQueue serializes calls.
#ifndef LIBSCHED_QUEUE_NOMINATOR_H_
#define LIBSCHED_QUEUE_NOMINATOR_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libsched/framework/pod_nominator.h"
#include "libsched/model/pod.h"
#include "libsched/model/string_hash.h"
#include "libsched/state/cow.h"
#include "libsched/state/undo_log.h"

namespace sched {

class Nominator final : public PodNominator {
 public:
  // Changes are recorded in `log` (may be null), which must outlive it.
  explicit Nominator(UndoLog* log = nullptr) : log_(log) {}
  // The nominations of `other`, shared until either side changes them
  // (PriorityQueue::ForkFrom). REQUIRES: this one's log is not recording.
  void ShareFrom(const Nominator& other) { data_ = other.data_; }
  // Makes the nominations this one's own (a fork inside an open unit).
  // Not recorded.
  void UnshareAll() { data_.Mutable(nullptr); }

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

  std::span<const std::shared_ptr<const Pod>> NominatedPodsOn(
      std::string_view node_name) const override;
  void ForEachNominatedNode(const NominationsFn& fn) const override;
  bool ForEachNominatedNodeSince(Mark* mark, const NominationsFn& fn) const override;
  bool HasNominatedPods() const override { return !data_->nominated_pods.empty(); }
  // The node `pod` is nominated to, or "".
  std::string NominatedNodeFor(const Pod& pod) const;

 private:
  // One node's nominations, in order, and their version
  // (NewNominationsVersion(), new at every change of the list).
  struct NodeNominations {
    std::vector<std::shared_ptr<const Pod>> pods;
    uint64_t version = 0;
  };
  // Gives `n` a new version, undoably.
  void Touch(NodeNominations& n);
  // The names of the lists changed since `id` was drawn, in order. Not
  // undone: a rollback of a change renews it (a new id, no names), and so
  // does a copy (the Cow's clone: other vectors) and growing past its
  // bound, so no mark taken before matches (ForEachNominatedNodeSince).
  struct Journal {
    uint64_t id = NewNominationsVersion();
    std::vector<std::string> names;
    Journal() = default;
    Journal(const Journal&) {}
    Journal& operator=(const Journal&) = delete;
    void Renew() noexcept {
      id = NewNominationsVersion();
      names.clear();
    }
  };
  struct Data;
  // Journals `node` before its list in `d` changes: a journal that fails
  // to grow leaves the list as it was.
  void JournalChange(Data& d, const std::string& node);
  struct Data {
    // Hashed, not ordered: every cycle looks up each node it filters.
    // Looked up by node name views (StringHash).
    std::unordered_map<std::string, NodeNominations, StringHash, std::equal_to<>> nominated_pods;
    std::unordered_map<std::string, std::string> pod_to_node;  // PodKey -> node
    Journal journal;
  };
  UndoLog* log_;
  Cow<Data> data_;
};

}  // namespace sched

#endif  // LIBSCHED_QUEUE_NOMINATOR_H_
