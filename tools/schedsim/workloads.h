// Workload expansion: the pods a Deployment, ReplicaSet, StatefulSet or Job
// controller would create from its pod template.
#ifndef TOOLS_SCHEDSIM_WORKLOADS_H_
#define TOOLS_SCHEDSIM_WORKLOADS_H_

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "input.h"
#include "json.h"

namespace schedsim {

bool IsWorkload(std::string_view kind);

// The workload's spec.template, checked to be an object with a spec object.
cJSON* PodTemplate(const InputObject& workload);

// The pods, in namespace `ns`, of the workload named `name`:
// Deployment/ReplicaSet/StatefulSet spec.replicas (default 1); Job
// spec.parallelism (default 1) capped by spec.completions, none when
// suspended. Named as the controllers name them (StatefulSet name-0..n-1,
// Deployment name-<pod-template-hash>-<suffix>, ReplicaSet and Job
// name-<suffix>), labelled with the template's labels plus the controller's
// own, created at the workload's creationTimestamp, and owned (a controller
// ownerReference) by the workload, or for a Deployment by its ReplicaSet,
// as the engine's default spreading finds a pod's peers. Each pod's spec
// refers to the template's spec (not a copy), so the template must outlive
// them.
// What the input already holds of a workload (a cluster dump holds the
// pods and ReplicaSets controllers made): the objects whose controller
// ownerReference names it.
struct Owned {
  int64_t count = 0;
  std::set<std::string> names;
  std::set<std::string> nodes;  // the bound ones' spec.nodeName
};

struct Expansion {
  std::vector<JsonPtr> pods;
  // A Deployment's ReplicaSet (name-<pod-template-hash>, the Deployment's
  // selector plus the pod-template-hash label), for the engine; null for
  // other kinds.
  JsonPtr replica_set;
  // A StatefulSet's PersistentVolumeClaims from spec.volumeClaimTemplates,
  // <template>-<set>-<ordinal> for each pod made (whose volume of the
  // template's name uses it).
  std::vector<JsonPtr> claims;
};
// Only the pods the controller would still make are made: `owned` pods
// exist already (a StatefulSet makes the missing ordinals).
Expansion ExpandWorkload(const InputObject& workload, const std::string& ns,
                         const std::string& name, const Owned& owned);

// A controller ownerReference to `kind` (apiVersion `api_version`) `name`
// whose metadata is `meta`: its uid, or a made-up stable one without.
cJSON* ControllerRef(const char* api_version, const std::string& kind, const std::string& ns,
                     const std::string& name, const cJSON* meta);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_WORKLOADS_H_
