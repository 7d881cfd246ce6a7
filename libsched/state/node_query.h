// QueryNodes: the nodes a caller asks about (by name and label selector),
// with their NodeInfo aggregates, for reports of per-node state
// (sched_engine_nodes). Read-only; the NodeInfos are the ones the cycles
// read, so "requested" is exactly what NodeResourcesFit compares against
// (framework.NodeInfo.Requested, assumed pods included).
//
// Thread-safety: as ClusterState's const methods.
#ifndef LIBSCHED_STATE_NODE_QUERY_H_
#define LIBSCHED_STATE_NODE_QUERY_H_

#include <optional>
#include <string>
#include <vector>

#include "libsched/model/labels.h"
#include "libsched/state/cluster_state.h"
#include "libsched/state/node_info.h"

namespace sched {

struct NodeQuery {
  // Only these nodes (names absent from the state are skipped); every
  // node when empty.
  std::vector<std::string> names;
  // Only nodes whose labels it matches. REQUIRES: valid.
  std::optional<LabelSelector> selector;
};

// The NodeInfos of nodes that exist (have a Node object) and match `q`,
// sorted by node name, each once. Pods bound to a node without a Node
// object are on no node here, as upstream's snapshot lists no such node.
std::vector<const NodeInfo*> QueryNodes(const ClusterState& state, const NodeQuery& q);

}  // namespace sched

#endif  // LIBSCHED_STATE_NODE_QUERY_H_
