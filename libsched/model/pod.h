// Pod: the parts of a core/v1 Pod the scheduler reads, decoded once at the
// boundary (requests summed, selectors compiled, strings interned).
#ifndef LIBSCHED_MODEL_POD_H_
#define LIBSCHED_MODEL_POD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libsched/model/dra.h"
#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/pod_affinity.h"
#include "libsched/model/pod_volume.h"
#include "libsched/model/resource.h"
#include "libsched/model/taint.h"

namespace sched {

enum class Protocol : uint8_t { kTCP, kUDP, kSCTP };

// A requested host port (ports[].hostPort > 0 of containers and restartable
// init containers). ip is "0.0.0.0" when hostIP was empty.
struct HostPort {
  std::string ip;
  Protocol protocol = Protocol::kTCP;
  int32_t port = 0;
  bool operator==(const HostPort& o) const = default;
};

// v1.NodeInclusionPolicy of a topology spread constraint.
enum class NodeInclusionPolicy : uint8_t { kHonor, kIgnore };

// v1.TopologySpreadConstraint as decoded. matchLabelKeys are already merged
// into `selector` (`key In (pod's value)` for each key the pod has), as the
// API server does on create and the PodTopologySpread plugin does again
// (pkg/registry/core/pod/strategy.go, podtopologyspread/common.go).
struct TopologySpreadConstraint {
  int32_t max_skew = 1;
  Atom topology_key = kNoAtom;
  bool do_not_schedule = true;  // whenUnsatisfiable: DoNotSchedule, else ScheduleAnyway
  // labelSelector; nullopt (nil) matches no pod. An empty selector matches
  // every pod but counts none (countPodsMatchSelector).
  std::optional<LabelSelector> selector;
  int32_t min_domains = 1;  // nil means 1
  NodeInclusionPolicy node_affinity_policy = NodeInclusionPolicy::kHonor;
  NodeInclusionPolicy node_taints_policy = NodeInclusionPolicy::kIgnore;
};

// The kind of a pod's controller (metav1.GetControllerOf) that
// helper.DefaultSelector reads; kOther for any other owner or none.
enum class ControllerKind : uint8_t { kOther, kReplicationController, kReplicaSet, kStatefulSet };

// DRAExtendedResource: what one container (init containers first, then
// containers) requests of names that IsDraExtendedResourceName accepts,
// as createRequestsAndMappings reads container.resources.requests.
struct ContainerExtendedRequests {
  struct Entry {
    Atom name = kNoAtom;  // the resource, interned (pinned, as requests')
    int64_t count = 0;    // the request's Quantity.Value()
    // Its index among all the container's request names sorted bytewise
    // (cpu and memory included): the "request-<index>" of the device
    // request's name.
    int32_t index = 0;
    bool operator==(const Entry&) const = default;
  };
  int32_t container = 0;     // index in initContainers + containers
  bool short_lived = false;  // an init container that is not a sidecar
  std::vector<Entry> entries;
  bool operator==(const ContainerExtendedRequests&) const = default;
};

struct Pod {
  std::string ns;  // metadata.namespace ("default" when empty)
  Atom ns_atom = kNoAtom;  // ns, interned (affinity terms list namespaces as ids)
  std::string name;
  std::string uid;
  std::string node_name;       // spec.nodeName
  std::string scheduler_name;  // spec.schedulerName ("default-scheduler")
  // status.nominatedNodeName: where preemption made room for this pod; the
  // next cycle tries this node first (schedule_one.go evaluateNominatedNode).
  std::string nominated_node_name;
  int32_t priority = 0;        // spec.priority
  std::string creation_timestamp;  // RFC 3339, as serialized
  LabelSet labels;

  // spec.nodeSelector as requirements (key In {value}); empty when unset.
  std::vector<Requirement> node_selector;
  // spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution
  std::optional<NodeSelector> required_node_affinity;
  // ...preferredDuringSchedulingIgnoredDuringExecution
  std::vector<PreferredSchedulingTerm> preferred_node_affinity;
  std::vector<Toleration> tolerations;
  // spec.affinity.podAffinity / podAntiAffinity (InterPodAffinity).
  PodAffinityTerms pod_affinity;

  // Actual requests per PodRequests (containers, init/sidecar rule,
  // pod-level resources, overhead): what Filter and Requested use.
  Resource requests;
  // Requests with 100m / 200MiB for each container missing a cpu / memory
  // request: only milli_cpu and memory are meaningful (NonZeroRequested).
  Resource non_zero_requests;
  // PodNonZeroContainerRequests: like non_zero_requests but ignoring
  // pod-level requests; only NodeResourcesFit's score reads it.
  Resource non_zero_container_requests;

  std::vector<HostPort> host_ports;
  // Images of init containers then containers, normalized with ":latest"
  // when untagged (imagelocality.normalizedImageName).
  std::vector<Atom> images;
  int32_t num_containers = 0;  // len(initContainers) + len(containers)
  // Containers that request extended resources, in container order.
  std::vector<ContainerExtendedRequests> extended_requests;

  bool terminating = false;  // metadata.deletionTimestamp set
  // metadata.annotations has kubernetes.io/config.mirror: the API server's
  // copy of a kubelet's static pod (no plugin reads it; drain leaves it).
  bool mirror = false;

  // spec.topologySpreadConstraints, in order.
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  // metadata.ownerReferences: the first with controller: true, when it is a
  // v1 ReplicationController or an apps/v1 ReplicaSet / StatefulSet.
  ControllerKind controller_kind = ControllerKind::kOther;
  std::string controller_name;  // its name, when controller_kind != kOther
  // That first controller ownerReference's kind and uid as written, whatever
  // its apiVersion (metav1.GetControllerOf); empty when there is none.
  // NodePreferAvoidPods matches them against the node's preferAvoidPods.
  std::string controller_ref_kind;
  std::string controller_uid;

  // status.startTime in Unix nanoseconds; unset means "now" to upstream
  // (util.GetPodStartTime), i.e. later than any recorded start.
  std::optional<int64_t> start_time;
  // spec.preemptionPolicy is Never: the pod may not preempt others.
  bool preempt_never = false;
  // A DisruptionTarget condition with status True and reason
  // PreemptionByScheduler (defaultpreemption podTerminatingByPreemption
  // also needs `terminating`).
  bool disruption_target_by_scheduler = false;
  // spec.schedulingGates[].name, in order: while any is left the queue keeps
  // the pod out of activeQ (SchedulingGates PreEnqueue).
  std::vector<std::string> scheduling_gates;
  // spec.resourceClaims, in order, with the generated claim names of
  // status.resourceClaimStatuses (DynamicResources).
  std::vector<PodResourceClaim> resource_claims;
  // spec.volumes that the volume plugins read, in order (see PodVolume).
  std::vector<PodVolume> volumes;
  // References to the interned ids of this object and its copies
  // (libsched/model/interner.h); set by the decoder.
  AtomHold atoms;
};

// Whether `a` and `b` are the same pod object: by UID when both have one,
// else by namespace and name (upstream compares UIDs; test pods may lack one).
inline bool SamePod(const Pod& a, const Pod& b) {
  if (!a.uid.empty() && !b.uid.empty()) return a.uid == b.uid;
  return a.ns == b.ns && a.name == b.name;
}

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_H_
