// ClusterEvent: what changed in the cluster, as the scheduling queue sees it.
// Mirrors fwk.ActionType / fwk.EventResource / fwk.ClusterEvent
// (staging/src/k8s.io/kube-scheduler/framework/types.go) and the matching
// and change-extraction helpers of pkg/scheduler/framework/{types,events}.go
// (kube-scheduler v1.36.3).
//
// Thread-safety: plain values and pure functions.
#ifndef LIBSCHED_FRAMEWORK_CLUSTER_EVENT_H_
#define LIBSCHED_FRAMEWORK_CLUSTER_EVENT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "libsched/model/node.h"
#include "libsched/model/pod.h"

namespace sched {

// A bit set of changes. The UpdateNode* and UpdatePod* bits are the specific
// kinds of Update; kUpdate is their union and kAll every bit.
using ActionType = uint32_t;
namespace action {
inline constexpr ActionType kNone = 0;
inline constexpr ActionType kAdd = 1u << 0;
inline constexpr ActionType kDelete = 1u << 1;
inline constexpr ActionType kUpdateNodeAllocatable = 1u << 2;
inline constexpr ActionType kUpdateNodeLabel = 1u << 3;
// Taints, or spec.unschedulable turned off.
inline constexpr ActionType kUpdateNodeTaint = 1u << 4;
inline constexpr ActionType kUpdateNodeCondition = 1u << 5;
inline constexpr ActionType kUpdateNodeAnnotation = 1u << 6;
inline constexpr ActionType kUpdateNodeDeclaredFeature = 1u << 7;
inline constexpr ActionType kUpdatePodLabel = 1u << 8;
// Some resource request went down or disappeared.
inline constexpr ActionType kUpdatePodScaleDown = 1u << 9;
// A toleration was added (the API only allows adding).
inline constexpr ActionType kUpdatePodToleration = 1u << 10;
// The last scheduling gate was removed.
inline constexpr ActionType kUpdatePodSchedulingGatesEliminated = 1u << 11;
inline constexpr ActionType kUpdatePodGeneratedResourceClaim = 1u << 12;
inline constexpr ActionType kAll = (1u << 13) - 1;
inline constexpr ActionType kUpdate = kAll & ~(kAdd | kDelete);
}  // namespace action

// ActionType.String(): the name of a single bit, "Update", "All", or "" for
// other combinations.
std::string_view ActionTypeName(ActionType a);

// The kind of object an event is about (fwk.EventResource). kAssignedPod and
// kUnschedulablePod are only ever on incoming events; plugins register kPod,
// which matches both.
enum class EventResource : uint8_t {
  kWildCard,
  kPod,
  kAssignedPod,
  kUnschedulablePod,
  kNode,
  kPersistentVolume,
  kPersistentVolumeClaim,
  kStorageClass,
  kCSINode,
  kCSIDriver,
  kCSIStorageCapacity,
  kVolumeAttachment,
  kResourceClaim,
  kResourceSlice,
  kDeviceClass,  // last: ClusterEvent::Label's table ends with it
};

// Upstream's resource string ("Pod", "storage.k8s.io/CSINode", "*", ...).
std::string_view EventResourceName(EventResource r);

struct ClusterEvent {
  EventResource resource = EventResource::kWildCard;
  ActionType action = action::kAll;
  // Replaces Label() for special events (e.g. "UnschedulableTimeout").
  std::string_view custom_label;

  // "<Resource><Action>" (e.g. "NodeAdd"), or custom_label when set.
  // Static storage: building it allocates nothing.
  std::string_view Label() const;
  bool IsWildCard() const {
    return resource == EventResource::kWildCard && action == action::kAll;
  }
  // MatchClusterEvents(*this, incoming): `incoming` is the same as or more
  // specific than this registered event (Node/Update matches an incoming
  // Node/UpdateNodeLabel; Node/UpdateNodeLabel does not match an incoming
  // Node/Update).
  bool Matches(const ClusterEvent& incoming) const;
};

// The events the queue itself raises or reacts to (framework/events.go).
namespace events {
inline constexpr ClusterEvent kNodeAdd{EventResource::kNode, action::kAdd, {}};
inline constexpr ClusterEvent kNodeDelete{EventResource::kNode, action::kDelete, {}};
inline constexpr ClusterEvent kAssignedPodAdd{EventResource::kAssignedPod, action::kAdd, {}};
inline constexpr ClusterEvent kAssignedPodUpdate{EventResource::kAssignedPod, action::kUpdate, {}};
inline constexpr ClusterEvent kAssignedPodDelete{EventResource::kAssignedPod, action::kDelete, {}};
inline constexpr ClusterEvent kUnscheduledPodAdd{EventResource::kUnschedulablePod, action::kAdd, {}};
inline constexpr ClusterEvent kUnscheduledPodUpdate{EventResource::kUnschedulablePod,
                                                    action::kUpdate, {}};
inline constexpr ClusterEvent kUnschedulableTimeout{EventResource::kWildCard, action::kAll,
                                                    "UnschedulableTimeout"};
// Labels of queue moves that are not cluster events.
inline constexpr std::string_view kScheduleAttemptFailure = "ScheduleAttemptFailure";
inline constexpr std::string_view kBackoffComplete = "BackoffComplete";
}  // namespace events

// NodeSchedulingPropertiesChange: one Node event per kind of change from
// `old_node` to `new_node`, in upstream's order (unschedulable turned off and
// taints both give UpdateNodeTaint). Conditions and declared features are
// not in the model, and of the annotations only preferAvoidPods is (read by
// a Score plugin alone), so those kinds are never derived here.
std::vector<ClusterEvent> NodeSchedulingPropertiesChange(const Node& new_node,
                                                         const Node& old_node);

// PodSchedulingPropertiesChange: the events for an update of a pod (resource
// kAssignedPod when new_pod is bound, else kUnschedulablePod): label change,
// scale down, scheduling gates eliminated, toleration added; a general
// Update when none of those applies.
std::vector<ClusterEvent> PodSchedulingPropertiesChange(const Pod& new_pod, const Pod& old_pod);

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_CLUSTER_EVENT_H_
