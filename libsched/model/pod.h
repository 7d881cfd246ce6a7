// Pod: the parts of a core/v1 Pod the scheduler reads, decoded once at the
// boundary (requests summed, selectors compiled, strings interned).
#ifndef LIBSCHED_MODEL_POD_H_
#define LIBSCHED_MODEL_POD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"
#include "libsched/model/pod_affinity.h"
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

  bool terminating = false;  // metadata.deletionTimestamp set

  // status.startTime in Unix nanoseconds; unset means "now" to upstream
  // (util.GetPodStartTime), i.e. later than any recorded start.
  std::optional<int64_t> start_time;
  // spec.preemptionPolicy is Never: the pod may not preempt others.
  bool preempt_never = false;
  // A DisruptionTarget condition with status True and reason
  // PreemptionByScheduler (defaultpreemption podTerminatingByPreemption
  // also needs `terminating`).
  bool disruption_target_by_scheduler = false;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_H_
