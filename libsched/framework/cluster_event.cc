#include "libsched/framework/cluster_event.h"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

namespace sched {

std::string_view ActionTypeName(ActionType a) {
  switch (a) {
    case action::kAdd:
      return "Add";
    case action::kDelete:
      return "Delete";
    case action::kUpdateNodeAllocatable:
      return "UpdateNodeAllocatable";
    case action::kUpdateNodeLabel:
      return "UpdateNodeLabel";
    case action::kUpdateNodeTaint:
      return "UpdateNodeTaint";
    case action::kUpdateNodeCondition:
      return "UpdateNodeCondition";
    case action::kUpdateNodeAnnotation:
      return "UpdateNodeAnnotation";
    case action::kUpdateNodeDeclaredFeature:
      return "UpdateNodeDeclaredFeature";
    case action::kUpdatePodLabel:
      return "UpdatePodLabel";
    case action::kUpdatePodScaleDown:
      return "UpdatePodScaleDown";
    case action::kUpdatePodToleration:
      return "UpdatePodToleration";
    case action::kUpdatePodSchedulingGatesEliminated:
      return "UpdatePodSchedulingGatesEliminated";
    case action::kUpdatePodGeneratedResourceClaim:
      return "UpdatePodGeneratedResourceClaim";
    case action::kAll:
      return "All";
    case action::kUpdate:
      return "Update";
    default:
      return "";
  }
}

std::string_view EventResourceName(EventResource r) {
  switch (r) {
    case EventResource::kWildCard:
      return "*";
    case EventResource::kPod:
      return "Pod";
    case EventResource::kAssignedPod:
      return "AssignedPod";
    case EventResource::kUnschedulablePod:
      return "UnschedulablePod";
    case EventResource::kNode:
      return "Node";
    case EventResource::kPersistentVolume:
      return "PersistentVolume";
    case EventResource::kPersistentVolumeClaim:
      return "PersistentVolumeClaim";
    case EventResource::kStorageClass:
      return "storage.k8s.io/StorageClass";
    case EventResource::kCSINode:
      return "storage.k8s.io/CSINode";
    case EventResource::kCSIDriver:
      return "storage.k8s.io/CSIDriver";
    case EventResource::kCSIStorageCapacity:
      return "storage.k8s.io/CSIStorageCapacity";
    case EventResource::kVolumeAttachment:
      return "storage.k8s.io/VolumeAttachment";
    case EventResource::kResourceClaim:
      return "resource.k8s.io/ResourceClaim";
    case EventResource::kResourceSlice:
      return "resource.k8s.io/ResourceSlice";
    case EventResource::kDeviceClass:
      return "resource.k8s.io/DeviceClass";
  }
  return "";
}

std::string_view ClusterEvent::Label() const {
  if (!custom_label.empty()) return custom_label;
  // Every resource with every named action, joined once (the queue labels
  // each move); the index is the resource and the action's bit (kNumBits
  // for "Update", kNumBits + 1 for "All").
  constexpr int kNumBits = std::countr_zero(action::kAll + 1);
  constexpr int kResources = static_cast<int>(EventResource::kDeviceClass) + 1;
  using Table = std::array<std::array<std::string, kNumBits + 2>, kResources>;
  static const Table labels = [] {
    Table t;
    for (int r = 0; r < kResources; ++r) {
      for (int b = 0; b < kNumBits + 2; ++b) {
        const ActionType a = b < kNumBits    ? 1u << b
                             : b == kNumBits ? action::kUpdate
                                             : action::kAll;
        t[r][b].append(EventResourceName(static_cast<EventResource>(r)));
        t[r][b].append(ActionTypeName(a));
      }
    }
    return t;
  }();
  const int b = action == action::kUpdate       ? kNumBits
                : action == action::kAll        ? kNumBits + 1
                : std::has_single_bit(action)   ? std::countr_zero(action)
                                                : -1;
  // Other combinations have no name: the resource's alone.
  if (b < 0) return EventResourceName(resource);
  return labels[static_cast<size_t>(resource)][static_cast<size_t>(b)];
}

bool ClusterEvent::Matches(const ClusterEvent& incoming) const {
  if (IsWildCard()) return true;
  const bool resource_matches =
      resource == EventResource::kWildCard || resource == incoming.resource ||
      (resource == EventResource::kPod && (incoming.resource == EventResource::kAssignedPod ||
                                           incoming.resource == EventResource::kUnschedulablePod));
  // Upstream's `incoming <= registered` rejects an incoming general Update
  // against a registration for one specific kind.
  return resource_matches && (action & incoming.action) != 0 && incoming.action <= action;
}

std::vector<ClusterEvent> NodeSchedulingPropertiesChange(const Node& new_node,
                                                         const Node& old_node) {
  std::vector<ClusterEvent> out;
  auto add = [&](ActionType a) { out.push_back({EventResource::kNode, a, {}}); };
  if (new_node.unschedulable != old_node.unschedulable && !new_node.unschedulable) {
    add(action::kUpdateNodeTaint);
  }
  if (!(new_node.allocatable == old_node.allocatable)) add(action::kUpdateNodeAllocatable);
  if (!(new_node.labels == old_node.labels)) add(action::kUpdateNodeLabel);
  if (new_node.taints != old_node.taints) add(action::kUpdateNodeTaint);
  return out;
}

namespace {

// extractPodScaleDown: some request of the old pod is lower, or gone, in the
// new one.
bool ScaledDown(const Resource& new_req, const Resource& old_req) {
  if (old_req.milli_cpu > new_req.milli_cpu || old_req.memory > new_req.memory ||
      old_req.ephemeral_storage > new_req.ephemeral_storage) {
    return true;
  }
  return std::any_of(old_req.scalar.begin(), old_req.scalar.end(),
                     [&](const auto& kv) { return kv.second > new_req.Scalar(kv.first); });
}

}  // namespace

std::vector<ClusterEvent> PodSchedulingPropertiesChange(const Pod& new_pod, const Pod& old_pod) {
  const EventResource r =
      new_pod.node_name.empty() ? EventResource::kUnschedulablePod : EventResource::kAssignedPod;
  std::vector<ClusterEvent> out;
  auto add = [&](ActionType a) { out.push_back({r, a, {}}); };
  if (!(new_pod.labels == old_pod.labels)) add(action::kUpdatePodLabel);
  if (ScaledDown(new_pod.requests, old_pod.requests)) add(action::kUpdatePodScaleDown);
  if (new_pod.scheduling_gates.empty() && !old_pod.scheduling_gates.empty()) {
    add(action::kUpdatePodSchedulingGatesEliminated);
  }
  if (new_pod.tolerations.size() != old_pod.tolerations.size()) {
    add(action::kUpdatePodToleration);
  }
  // extractPodGeneratedResourceClaimChange: status.resourceClaimStatuses.
  const auto& nc = new_pod.resource_claims;
  const auto& oc = old_pod.resource_claims;
  if (!std::equal(nc.begin(), nc.end(), oc.begin(), oc.end(),
                  [](const PodResourceClaim& a, const PodResourceClaim& b) {
                    return a.has_status == b.has_status && a.generated_name == b.generated_name;
                  })) {
    add(action::kUpdatePodGeneratedResourceClaim);
  }
  if (out.empty()) add(action::kUpdate);
  return out;
}

}  // namespace sched
