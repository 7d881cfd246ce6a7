#include "libsched/plugins/helper/resource_allocation.h"

#include "libsched/model/resource.h"

namespace sched {

std::optional<ScoredResource> ResolveScoredResource(const ResourceSpec& spec, const Pod& pod,
                                                    const Interner& interner, RequestMode mode) {
  const Resource& cpu_mem = mode == RequestMode::kActual    ? pod.requests
                            : mode == RequestMode::kNonZero ? pod.non_zero_requests
                                                            : pod.non_zero_container_requests;
  if (spec.name == kResourceCPU) {
    return ScoredResource{ScoredKind::kCPU, kNoAtom, spec.weight, cpu_mem.milli_cpu};
  }
  if (spec.name == kResourceMemory) {
    return ScoredResource{ScoredKind::kMemory, kNoAtom, spec.weight, cpu_mem.memory};
  }
  if (spec.name == kResourceEphemeralStorage) {
    return ScoredResource{ScoredKind::kEphemeralStorage, kNoAtom, spec.weight,
                          pod.requests.ephemeral_storage};
  }
  if (!IsScalarResourceName(spec.name)) return std::nullopt;
  const Atom atom = interner.Find(spec.name);
  const int64_t request = atom == kNoAtom ? 0 : pod.requests.Scalar(atom);
  if (request == 0) return std::nullopt;
  return ScoredResource{ScoredKind::kScalar, atom, spec.weight, request};
}

NodeAllocation AllocationOnNode(const ScoredResource& r, const NodeInfo& node, RequestMode mode) {
  const Resource& alloc = node.node()->allocatable;
  const Resource& cpu_mem =
      mode == RequestMode::kActual ? node.requested() : node.non_zero_requested();
  switch (r.kind) {
    case ScoredKind::kCPU:
      return {alloc.milli_cpu, cpu_mem.milli_cpu};
    case ScoredKind::kMemory:
      return {alloc.memory, cpu_mem.memory};
    case ScoredKind::kEphemeralStorage:
      return {alloc.ephemeral_storage, node.requested().ephemeral_storage};
    case ScoredKind::kScalar:
      return {alloc.Scalar(r.atom), node.requested().Scalar(r.atom)};
  }
  return {0, 0};
}

}  // namespace sched
