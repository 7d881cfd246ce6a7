// YieldedNominations: the pods nominated to one node that a pod yields to
// there (YieldsToNominated), named without holding them: the version of
// the node's list (NominatedPodsByNode::VersionOn; 0 when unversioned,
// and then nothing is reused under it) and their positions in that list.
// The version names the Pod objects, so a deleted nominated pod is freed
// at once.
//
// NominatedStamp records what a per-node answer with those pods was
// computed for (the equivalence cache's nominated verdict,
// DefaultPreemption's dry-run memo): the same NodeInfo at the same
// generation, the same epoch of the holder, the same yielded pods.
// No upstream counterpart (upstream recomputes both every cycle).
#ifndef LIBSCHED_FRAMEWORK_YIELDED_NOMINATIONS_H_
#define LIBSCHED_FRAMEWORK_YIELDED_NOMINATIONS_H_

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "libsched/state/node_info.h"

namespace sched {

struct YieldedNominations {
  uint64_t version = 0;
  std::span<const uint32_t> positions;
};

class NominatedStamp {
 public:
  bool Matches(const NodeInfo& node, uint64_t epoch, YieldedNominations yielded) const {
    return epoch_ == epoch && node_ == &node && generation_ == node.generation() &&
           version_ == yielded.version &&
           std::equal(positions_.begin(), positions_.end(), yielded.positions.begin(),
                      yielded.positions.end());
  }
  void Set(const NodeInfo& node, uint64_t epoch, YieldedNominations yielded) {
    node_ = &node;
    generation_ = node.generation();
    epoch_ = epoch;
    version_ = yielded.version;
    positions_.assign(yielded.positions.begin(), yielded.positions.end());
  }

 private:
  const NodeInfo* node_ = nullptr;
  uint64_t generation_ = 0;
  uint64_t epoch_ = 0;
  uint64_t version_ = 0;
  std::vector<uint32_t> positions_;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_YIELDED_NOMINATIONS_H_
