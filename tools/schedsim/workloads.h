// Workload expansion: the pods a Deployment, ReplicaSet, StatefulSet or Job
// controller would create from its pod template.
#ifndef TOOLS_SCHEDSIM_WORKLOADS_H_
#define TOOLS_SCHEDSIM_WORKLOADS_H_

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
// own, created at the workload's creationTimestamp. Each pod's spec refers
// to the template's spec (not a copy), so the template must outlive them.
std::vector<JsonPtr> ExpandWorkload(const InputObject& workload, const std::string& ns,
                                    const std::string& name);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_WORKLOADS_H_
