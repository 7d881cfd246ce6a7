// NodeInfo: a node and the aggregates of the pods bound or assumed on it,
// mirroring framework.NodeInfo (pkg/scheduler/framework/types.go).
//
// Updated incrementally as pods come and go; every change bumps generation.
// Request sums are kept exactly (in 128 bits) and exposed clamped to
// INT64_MAX, so pods with huge requests neither overflow a sum nor leave
// it wrong when they go.
// Thread-safety: const methods may be called concurrently; mutation needs
// exclusive access (ClusterState owns NodeInfos and serializes changes).
#ifndef LIBSCHED_STATE_NODE_INFO_H_
#define LIBSCHED_STATE_NODE_INFO_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "libsched/model/node.h"
#include "libsched/model/pod.h"
#include "libsched/state/undo_log.h"

namespace sched {

class NodeInfo {
 public:
  // No index: a NodeInfo made outside ClusterState.
  static constexpr uint32_t kNoIndex = UINT32_MAX;
  NodeInfo() = default;
  explicit NodeInfo(uint32_t index) : index_(index) {}

  // A NodeInfo may exist before its Node arrives (pods bound to an unknown
  // node are kept, as upstream's cache does); node() is null until then.
  const Node* node() const { return node_.get(); }
  // node(), shared: for cluster events that outlive this NodeInfo's node.
  const std::shared_ptr<const Node>& shared_node() const { return node_; }
  const std::vector<std::shared_ptr<const Pod>>& pods() const { return pods_; }
  // The pods with podAffinity or podAntiAffinity (PodsWithAffinity), and
  // those with required anti-affinity (PodsWithRequiredAntiAffinity): what
  // InterPodAffinity iterates instead of every pod. Pointers into pods().
  const std::vector<const Pod*>& pods_with_affinity() const { return pods_with_affinity_; }
  const std::vector<const Pod*>& pods_with_required_anti_affinity() const {
    return pods_with_required_anti_affinity_;
  }
  const Resource& requested() const { return requested_; }
  // Only milli_cpu and memory are kept (NonZeroRequested).
  const Resource& non_zero_requested() const { return non_zero_requested_; }
  // Host ports in use, one entry per (pod, port); duplicates allowed.
  const std::vector<HostPort>& used_ports() const { return used_ports_; }
  // Size in bytes of an image (by any of its names) on this node, if present.
  std::optional<int64_t> ImageSize(Atom image) const;
  uint64_t generation() const { return generation_; }
  // A small dense id ClusterState gives each NodeInfo it holds (reused
  // after the NodeInfo is dropped); copies keep it. Indexes per-node
  // arrays such as TopologyDomains. kNoIndex outside ClusterState.
  uint32_t index() const { return index_; }

  // The changes below take effect whole or not at all. Given a recording
  // `log`, each records its own undo, field by field (UndoLog): a rollback
  // restores this NodeInfo exactly, without a copy of its pods.
  void SetNode(std::shared_ptr<const Node> node, uint64_t generation, UndoLog* log = nullptr);
  void ClearNode(uint64_t generation, UndoLog* log = nullptr);
  void AddPod(std::shared_ptr<const Pod> pod, uint64_t generation, UndoLog* log = nullptr);
  // Returns false when the pod (by identity) is not on this node.
  bool RemovePod(const Pod* pod, uint64_t generation, UndoLog* log = nullptr);
  // Drops the node, the pods and the aggregates (as a default NodeInfo),
  // keeping the vectors' storage, so that a scratch NodeInfo copy-assigned
  // again and again (NodeInfo& operator=) allocates only while it grows.
  void Reset();

 private:
  __extension__ typedef __int128 Wide;
  // The exact sums behind requested_ and non_zero_requested_.
  struct ExactRequests {
    Wide milli_cpu = 0;
    Wide memory = 0;
    Wide ephemeral_storage = 0;
    Wide allowed_pods = 0;
    std::vector<std::pair<Atom, Wide>> scalar;  // sorted by name id
    Wide non_zero_milli_cpu = 0;
    Wide non_zero_memory = 0;
  };
  using ImageSizes = std::vector<std::pair<Atom, int64_t>>;
  // Adds (sign 1) or removes (sign -1) the pod's requests. Inserts a
  // scalar entry only when adding a name not counted yet; the sums are
  // integers and what they expose a function of them, so removing what
  // was added restores both.
  void AccountRequests(const Pod& pod, int sign);
  // SetNode and ClearNode: node_ and image_sizes_ replaced (sizes built
  // aside), the old ones moved into the undo record.
  void ReplaceNode(std::shared_ptr<const Node> node, ImageSizes sizes, uint64_t generation,
                   UndoLog* log);
  // Puts back what the last AddPod changed, given the generation and the
  // used_ports_ size it found. REQUIRES: nothing changed since.
  void UndoAddPod(uint64_t generation, size_t used_ports) noexcept;

  std::shared_ptr<const Node> node_;
  std::vector<std::shared_ptr<const Pod>> pods_;
  std::vector<const Pod*> pods_with_affinity_;
  std::vector<const Pod*> pods_with_required_anti_affinity_;
  ExactRequests exact_;
  Resource requested_;
  Resource non_zero_requested_;
  std::vector<HostPort> used_ports_;
  ImageSizes image_sizes_;  // sorted by name id
  uint64_t generation_ = 0;
  uint32_t index_ = kNoIndex;
};

}  // namespace sched

#endif  // LIBSCHED_STATE_NODE_INFO_H_
