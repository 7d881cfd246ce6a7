// VolumeZone: rejects nodes whose zone or region labels do not match the
// topology labels of the PersistentVolumes the pod's claims are bound to.
// Mirrors pkg/scheduler/framework/plugins/volumezone/volume_zone.go: the
// beta (failure-domain.beta.kubernetes.io/*) and GA (topology.kubernetes.io/*)
// zone and region keys, a PV label value being a "__"-separated set; a node
// with none of the four labels passes; unbound claims of a
// WaitForFirstConsumer class are skipped (VolumeBinding decides them).
//
// Thread-safety: stateless; const methods may be called concurrently.
#ifndef LIBSCHED_PLUGINS_VOLUME_ZONE_H_
#define LIBSCHED_PLUGINS_VOLUME_ZONE_H_

#include <string_view>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"

namespace sched {

class VolumeZone final : public PreFilterPlugin, public FilterPlugin, public EnqueueExtensions {
 public:
  static constexpr std::string_view kName = "VolumeZone";
  // ErrReasonConflict.
  static constexpr std::string_view kReasonConflict = "node(s) had no available volume zone";

  std::string_view Name() const override { return kName; }
  // StorageClass Add (hint: WaitForFirstConsumer), Node Add /
  // UpdateNodeLabel, PersistentVolumeClaim Add / Update (hint: a claim the
  // pod names), PersistentVolume Add / Update (hint: added, or its topology
  // labels changed).
  std::vector<ClusterEventWithHint> EventsToRegister(const ClusterState& cluster) const override;
  // Collects the topology labels of the PVs bound to the pod's claims.
  // UnschedulableAndUnresolvable, with upstream's messages, for a missing
  // claim, PV or class, a claim with neither volume nor class, a class
  // without a binding mode, and an unbound claim of an Immediate class;
  // Skip when no PV has topology labels.
  Status PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                   PreFilterResult* result) const override;
  // UnschedulableAndUnresolvable kReasonConflict when a PV's zone or region
  // is not the node's.
  Status Filter(const CycleState& state, const Pod& pod, const NodeInfo& node) const override;
};

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_VOLUME_ZONE_H_
