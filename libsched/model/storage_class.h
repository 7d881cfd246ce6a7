// StorageClass: the parts of a storage.k8s.io/v1 StorageClass the volume
// plugins read, decoded once.
#ifndef LIBSCHED_MODEL_STORAGE_CLASS_H_
#define LIBSCHED_MODEL_STORAGE_CLASS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

enum class VolumeBindingMode : uint8_t { kImmediate, kWaitForFirstConsumer };

struct StorageClass {
  std::string name;         // metadata.name
  std::string provisioner;  // provisioner
  // volumeBindingMode; nullopt when unset (the API server defaults it to
  // Immediate, but the plugins treat an unset mode as an error).
  std::optional<VolumeBindingMode> binding_mode;
  // allowedTopologies: each TopologySelectorTerm as a term of `key In
  // values` requirements (a requirement without values is invalid, so its
  // term matches nothing, as TopologySelectorRequirementsAsSelector fails).
  // Empty: every node (MatchTopologySelectorTerms).
  std::vector<NodeSelectorTerm> allowed_topologies;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_STORAGE_CLASS_H_
