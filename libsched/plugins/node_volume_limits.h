// NodeVolumeLimits (CSILimits): rejects nodes where the pod's new CSI
// volumes would exceed a driver's attach limit, the CSINode's
// spec.drivers[].allocatable.count. Volumes are counted once per unique
// driver/handle over the pods on the node: PVC -> bound PV -> spec.csi (or
// a migrated in-tree source); an unbound PVC through its StorageClass's
// provisioner; generic ephemeral volumes through their PVC; inline GCE PD
// and AWS EBS volumes as their CSI drivers when the node has a CSINode.
// VolumeAttachments on the node whose PV has spec.csi count too, once per
// unique attacher/handle that no pod there already counts. Mirrors
// pkg/scheduler/framework/plugins/nodevolumelimits/csi.go (v1.36:
// VolumeLimitScaling off, so no CSIDriver check).
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_NODE_VOLUME_LIMITS_H_
#define LIBSCHED_PLUGINS_NODE_VOLUME_LIMITS_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class NodeVolumeLimits final : public PreFilterPlugin,
                               public FilterPlugin,
                               public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "NodeVolumeLimits";
  // ErrReasonMaxVolumeCountExceeded.
  static constexpr std::string_view kReasonMaxVolumeCountExceeded =
      "node(s) exceed max volume count";

  std::string_view Name() const override { return kName; }
  // CSINode Add, CSINode Update (hint: a driver's limit grew), Pod Delete
  // (hint: the deleted pod was bound or nominated and had a claim or a
  // migratable inline volume), PersistentVolumeClaim Add (hint: a claim the
  // pod uses), VolumeAttachment Delete (hint: the pod has a claim, or an
  // inline volume of the attacher's driver).
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // Skip unless the pod has a claim, an ephemeral volume or an inline GCE
  // PD / AWS EBS volume.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // Unschedulable kReasonMaxVolumeCountExceeded over a driver's limit;
  // UnschedulableAndUnresolvable `looking up PVC <ns>/<name>:
  // persistentvolumeclaim "<name>" not found` for an unknown claim of the
  // pod; Error when a generic ephemeral volume's claim is not the pod's.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_NODE_VOLUME_LIMITS_H_
