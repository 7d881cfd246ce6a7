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

  void SetNode(std::shared_ptr<const Node> node, uint64_t generation);
  void ClearNode(uint64_t generation);
  // A pod without scalar requests is added whole or not at all (the room
  // is made first); with them, a failure may leave the requests counted.
  void AddPod(std::shared_ptr<const Pod> pod, uint64_t generation);
  // Returns false when the pod (by identity) is not on this node.
  bool RemovePod(const Pod* pod, uint64_t generation);
  // Drops the node, the pods and the aggregates (as a default NodeInfo),
  // keeping the vectors' storage, so that a scratch NodeInfo copy-assigned
  // again and again (NodeInfo& operator=) allocates only while it grows.
  void Reset();

 private:
  friend class ClusterState;  // batch_ (ClusterState::SaveNodeInfo)
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
  // Adds (sign 1) or removes (sign -1) the pod's requests.
  void AccountRequests(const Pod& pod, int sign);
  // Puts back what the last AddPod changed, exactly, given the generation
  // and the used_ports_ size it found (ClusterState's undo record: smaller
  // than a copy of the NodeInfo). The sums are integers and what they
  // expose a function of them, so subtracting restores both. REQUIRES:
  // nothing changed since, and that pod had no scalar requests (their
  // entries would stay).
  void UndoAddPod(uint64_t generation, size_t used_ports) noexcept;

  std::shared_ptr<const Node> node_;
  std::vector<std::shared_ptr<const Pod>> pods_;
  std::vector<const Pod*> pods_with_affinity_;
  std::vector<const Pod*> pods_with_required_anti_affinity_;
  ExactRequests exact_;
  Resource requested_;
  Resource non_zero_requested_;
  std::vector<HostPort> used_ports_;
  std::vector<std::pair<Atom, int64_t>> image_sizes_;  // sorted by name id
  uint64_t generation_ = 0;
  uint32_t index_ = kNoIndex;
  // The ClusterState::Batch that last saved this NodeInfo (0: none).
  uint64_t batch_ = 0;
};

}  // namespace sched

#endif  // LIBSCHED_STATE_NODE_INFO_H_
