#include "libsched/queue/queueing_hint_map.h"

#include <utility>

namespace sched {
namespace {

// UnrollWildCardResource: every resource the engine may see, all actions.
std::vector<ClusterEventWithHint> AllEvents() {
  std::vector<ClusterEventWithHint> out;
  for (EventResource r :
       {EventResource::kPod, EventResource::kNode, EventResource::kPersistentVolume,
        EventResource::kPersistentVolumeClaim, EventResource::kCSINode, EventResource::kCSIDriver,
        EventResource::kCSIStorageCapacity, EventResource::kStorageClass,
        EventResource::kVolumeAttachment, EventResource::kResourceClaim,
        EventResource::kDeviceClass}) {
    out.push_back({{r, action::kAll, {}}, nullptr});
  }
  return out;
}

}  // namespace

ProfileQueueingHints BuildProfileQueueingHints(const Profile& profile,
                                               const ClusterState& cluster) {
  ProfileQueueingHints out;
  out.pre_enqueue = profile.pre_enqueue();
  out.cluster = &cluster;
  for (const Plugin* p : profile.rejecting_plugins()) {
    const auto* ext = dynamic_cast<const EnqueueExtensions*>(p);
    std::vector<ClusterEventWithHint> events =
        ext != nullptr ? ext->EventsToRegister(cluster) : AllEvents();
    const std::string name(p->Name());
    bool node_added = false;
    bool node_taint = false;
    for (ClusterEventWithHint& e : events) {
      if (e.event.resource == EventResource::kNode) {
        node_added = node_added || (e.event.action & action::kAdd) != 0;
        node_taint = node_taint || (e.event.action & action::kUpdateNodeTaint) != 0;
      }
      out.plugin_events[name].push_back(e.event);
      out.hints.push_back({e.event, name, std::move(e.hint)});
    }
    // A node added tainted arrives as Add and is then untainted as an
    // update; without this the pod would wait for the periodic flush.
    if (node_added && !node_taint) {
      const ClusterEvent taint{EventResource::kNode, action::kUpdateNodeTaint, {}};
      out.plugin_events[name].push_back(taint);
      out.hints.push_back({taint, name, nullptr});
    }
  }
  return out;
}

}  // namespace sched
