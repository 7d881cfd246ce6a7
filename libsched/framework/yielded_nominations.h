// YieldedNominations: the pods nominated to one node that a pod yields to
// there (YieldsToNominated), named without holding them: the version of
// the node's list (NominatedPodsByNode::Yielded; 0 when unversioned,
// and then nothing is reused under it) and their positions in that list.
// The version names the Pod objects, so a deleted nominated pod is freed
// at once.
//
// NominatedStamp records what a per-node answer with those pods was
// computed for (the equivalence cache's nominated verdict,
// DefaultPreemption's dry-run memo): the same NodeInfo at the same
// generation, the same epoch of the holder, the same yielded pods.
// No upstream counterpart (upstream recomputes both every cycle).
//
// YieldsToNominated is the test itself; NominatedKey is what it reads of
// a pod, compact, so that a walk over every node's nominated pods reads
// no Pod object (NominatedPodsByNode keeps the keys beside the pods).
#ifndef LIBSCHED_FRAMEWORK_YIELDED_NOMINATIONS_H_
#define LIBSCHED_FRAMEWORK_YIELDED_NOMINATIONS_H_

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "libsched/model/pod.h"
#include "libsched/state/node_info.h"

namespace sched {

// addGENominatedPods (pkg/scheduler/framework/runtime/framework.go): a
// nominated pod counts for `pod` when its priority is at least the pod's
// and it is not the pod itself.
inline bool YieldsToNominated(const Pod& nominated, const Pod& pod) {
  return nominated.priority >= pod.priority && !SamePod(nominated, pod);
}

// A pod's priority and 32-bit hashes of its uid (0: no uid) and of its
// namespace and name. Different hashes where SamePod compares mean
// "not the same pod"; equal ones are confirmed on the Pods.
struct NominatedKey {
  int32_t priority = 0;
  uint32_t uid = 0;
  uint32_t name = 0;

  static NominatedKey Of(const Pod& pod) {
    const auto fold = [](std::string_view s) {
      const uint64_t h = std::hash<std::string_view>{}(s);
      return static_cast<uint32_t>(h ^ (h >> 32));
    };
    const uint32_t uid = pod.uid.empty() ? 0 : (fold(pod.uid) | 1);
    return {pod.priority, uid, fold(pod.ns) * 0x9e3779b1u ^ fold(pod.name)};
  }
  // False when SamePod(a, b) is false for pods with keys a and b.
  static bool MaybeSamePod(NominatedKey a, NominatedKey b) {
    return a.uid != 0 && b.uid != 0 ? a.uid == b.uid : a.name == b.name;
  }
};

// YieldsToNominated(nominated, pod), with their keys: reads `nominated`
// only when its key may be the pod's.
inline bool YieldsToNominated(NominatedKey nominated_key, const Pod& nominated,
                              NominatedKey pod_key, const Pod& pod) {
  return nominated_key.priority >= pod_key.priority &&
         !(NominatedKey::MaybeSamePod(nominated_key, pod_key) && SamePod(nominated, pod));
}

struct YieldedNominations {
  uint64_t version = 0;
  std::span<const uint32_t> positions;
};

// The positions in `pods` of those `pod` yields to, written to
// *positions; unversioned (version 0: nothing is reused under them).
inline YieldedNominations UnversionedYielded(std::span<const std::shared_ptr<const Pod>> pods,
                                             const Pod& pod, std::vector<uint32_t>* positions) {
  positions->clear();
  for (size_t k = 0; k < pods.size(); ++k) {
    if (YieldsToNominated(*pods[k], pod)) positions->push_back(static_cast<uint32_t>(k));
  }
  return {0, *positions};
}

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
