// DaemonSets as the DaemonSet controller runs them (pkg/controller/daemon):
// one pod per eligible node, pinned to it.
#ifndef TOOLS_SCHEDSIM_DAEMONSETS_H_
#define TOOLS_SCHEDSIM_DAEMONSETS_H_

#include <memory>
#include <string>
#include <vector>

#include "input.h"
#include "json.h"
#include "workloads.h"

namespace schedsim {

// Which nodes a pod may run on by its nodeSelector, required node affinity
// and NoSchedule/NoExecute taints alone: the DaemonSet controller's
// NodeShouldRunDaemonPod predicates, which are the scheduler's NodeAffinity
// and TaintToleration filters. Answered by an engine of its own holding
// only the nodes, with only those two plugins, every node evaluated.
class NodeFilter {
 public:
  explicit NodeFilter(const std::vector<const cJSON*>& nodes);
  ~NodeFilter();
  // The names of the nodes `pod` passes, in input order.
  std::vector<std::string> Eligible(const cJSON* pod);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The pods the DaemonSet `ds` (namespace `ns`, name `name`) still makes:
// for each node `filter` finds eligible for its template plus the
// tolerations the controller adds (util.AddOrUpdateDaemonPodTolerations:
// not-ready and unreachable NoExecute; disk-, memory-, pid-pressure and
// unschedulable NoSchedule; network-unavailable NoSchedule with
// hostNetwork), and that runs none of its pods yet (`owned`), a pod named
// <name>-<suffix> whose required node affinity is replaced by the node's
// name (util.ReplaceDaemonSetPodNodeNameNodeAffinity: matchFields
// metadata.name In [node]). The pods own their specs.
std::vector<JsonPtr> ExpandDaemonSet(const InputObject& ds, const std::string& ns,
                                     const std::string& name, const Owned& owned,
                                     NodeFilter& filter);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_DAEMONSETS_H_
