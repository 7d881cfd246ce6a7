// Dropping what the engine never reads from an input object, so that real
// cluster dumps (managedFields, kubectl's last-applied-configuration, full
// statuses) stay small in memory and in the documents sent to the engine.
#ifndef TOOLS_SCHEDSIM_STRIP_H_
#define TOOLS_SCHEDSIM_STRIP_H_

#include <string_view>

#include "json.h"

namespace schedsim {

// The annotations the engine's decoders read (capi/decode_node.cc,
// capi/decode_volume.cc, capi/decode_pod.cc); tests/sim/strip_test.py checks the list against them.
inline constexpr std::string_view kEngineAnnotations[] = {
    "scheduler.alpha.kubernetes.io/preferAvoidPods",
    "volume.beta.kubernetes.io/storage-class",
    "pv.kubernetes.io/bind-completed",
    "volume.kubernetes.io/selected-node",
    "storage.alpha.kubernetes.io/migrated-plugins",
    "kubernetes.io/config.mirror",
};

// Removes from `obj` (an object of `kind`, already checked by the caller's
// reads) metadata.managedFields, every annotation not in
// kEngineAnnotations, the same from a workload's spec.template.metadata,
// and the status fields of Pods and Nodes no decoder reads.
void StripUnread(cJSON* obj, std::string_view kind);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_STRIP_H_
