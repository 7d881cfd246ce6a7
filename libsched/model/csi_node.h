// CSINode: the parts of a storage.k8s.io/v1 CSINode the volume plugins
// read: per-driver attach limits and the in-tree plugins migrated on the
// node. A CSINode is named after its Node.
#ifndef LIBSCHED_MODEL_CSI_NODE_H_
#define LIBSCHED_MODEL_CSI_NODE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sched {

struct CSINodeDriver {
  std::string name;  // spec.drivers[].name
  // spec.drivers[].allocatable.count: how many volumes of this driver the
  // node can attach; nullopt when unset (no limit).
  std::optional<int32_t> allocatable_count;
};

struct CSINode {
  std::string name;  // metadata.name, the node's name
  std::vector<CSINodeDriver> drivers;
  // The storage.alpha.kubernetes.io/migrated-plugins annotation, split at
  // commas: in-tree plugins ("kubernetes.io/gce-pd") whose volumes this
  // node handles with CSI.
  std::vector<std::string> migrated_plugins;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_CSI_NODE_H_
