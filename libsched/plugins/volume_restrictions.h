// VolumeRestrictions: rejects nodes where the pod's volumes conflict with
// volumes of pods already there (the same GCE PD, AWS EBS volume, RBD image
// or iSCSI IQN mounted read-write), and pods whose ReadWriteOncePod claims
// another pod already uses. Mirrors
// pkg/scheduler/framework/plugins/volumerestrictions/volume_restrictions.go.
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_VOLUME_RESTRICTIONS_H_
#define LIBSCHED_PLUGINS_VOLUME_RESTRICTIONS_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class VolumeRestrictions final : public PreFilterPlugin,
                                 public FilterPlugin,
                                 public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeRestrictions";
  // ErrReasonDiskConflict.
  static constexpr std::string_view kReasonDiskConflict = "node(s) had no available disk";
  // ErrReasonReadWriteOncePodConflict.
  static constexpr std::string_view kReasonReadWriteOncePodConflict =
      "node(s) unavailable due to PersistentVolumeClaim with ReadWriteOncePod access mode "
      "already in-use by another pod";

  std::string_view Name() const override { return kName; }
  // Pod Delete (hint: the deleted pod had a conflicting disk or shared a
  // claim), Node Add, PersistentVolumeClaim Add (hint: a claim the pod
  // names).
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // Finds the pod's ReadWriteOncePod claims and whether scheduled pods use
  // them. UnschedulableAndUnresolvable with `persistentvolumeclaim "<name>"
  // not found` when a claim is unknown; Skip when the pod has neither a
  // disk to check nor a ReadWriteOncePod claim in use.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  bool HasPreFilterExtensions() const override { return true; }
  // Count the ReadWriteOncePod claims the added / removed pod uses.
  Status AddPod(CycleState& state, const Pod& pod, const Pod& pod_to_add,
                const NodeInfo& node) const override;
  Status RemovePod(CycleState& state, const Pod& pod, const Pod& pod_to_remove,
                   const NodeInfo& node) const override;
  // Unschedulable with kReasonDiskConflict or kReasonReadWriteOncePodConflict.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;

  // Whether `pod` may join pods `others` without a disk conflict
  // (satisfyVolumeConflicts).
  static bool SatisfiesVolumeConflicts(const Pod& pod,
                                       const std::vector<std::shared_ptr<const Pod>>& others);
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_VOLUME_RESTRICTIONS_H_
