// Per-pool utilization: the nodes grouped by the value of one node label
// (the pool), and per pool the requests of the pods on its nodes against
// its allocatable, before the run (bound pods) and after it (placed pods
// too). The numbers are the engine's own (sched_engine_nodes: NodeInfo's
// Requested, with init containers, sidecars and overhead counted as the
// scheduler counts them); nothing here sums pod requests.
#ifndef TOOLS_SCHEDSIM_UTILIZATION_H_
#define TOOLS_SCHEDSIM_UTILIZATION_H_

#include <cjson/cJSON.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace schedsim {

// Node labels that name a node pool, in the order the default pool label
// is chosen from (docs/schedsim.md): the first one any node carries.
inline constexpr std::string_view kPoolLabels[] = {
    "cloud.google.com/gke-nodepool",     // GKE
    "eks.amazonaws.com/nodegroup",       // EKS managed node groups
    "kubernetes.azure.com/agentpool",    // AKS
    "karpenter.sh/nodepool",             // Karpenter
    "node.kubernetes.io/instance-type",  // well-known, set by cloud providers
};

// The pool of nodes without the pool label, and of every node when there
// is no pool label. Label values cannot contain parentheses.
inline constexpr std::string_view kNoPool = "(none)";
inline constexpr std::string_view kAllPool = "(all)";

// requested against allocatable, summed over a pool's nodes.
struct Amount {
  int64_t requested = 0;
  int64_t allocatable = 0;
  // requested / allocatable in tenths of a percent, rounded half up; none
  // when nothing is allocatable.
  std::optional<int64_t> PerMille() const;
};

// One resource of a pool: "cpu" (milli-CPU), "memory" (bytes), "pods"
// (count), or a scalar resource by name (its integer value).
struct ResourceUsage {
  std::string resource;
  Amount before;
  Amount after;
};

struct PoolUsage {
  std::string pool;
  int64_t nodes = 0;
  // cpu, memory and pods, then each scalar resource a node of the pool
  // has allocatable or requested, by name.
  std::vector<ResourceUsage> resources;
};

struct Utilization {
  std::string label;  // the pool label; "" when none
  // By pool name; kNoPool last.
  std::vector<PoolUsage> pools;
};

// The pool label: `flag` (--pool-label) when set, else the first of
// kPoolLabels a node of `nodes` (sched_engine_nodes' "nodes") carries, else "".
std::string ChoosePoolLabel(const cJSON* nodes, const std::string& flag);

// Groups `before` and `after` (sched_engine_nodes' "nodes" at the two
// moments; the same nodes) by the value of `label`.
Utilization PoolUtilization(const std::string& label, const cJSON* before, const cJSON* after);

}  // namespace schedsim

#endif  // TOOLS_SCHEDSIM_UTILIZATION_H_
