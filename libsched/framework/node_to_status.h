// NodeToStatus: the Filter verdicts of one cycle as PostFilter reads them
// (framework.NodeToStatus / fwk.NodeToStatusReader in
// pkg/scheduler/framework/types.go): the nodes a Filter rejected, each with
// its status, and one status for every node not listed.
//
// Thread-safety: immutable after construction.
#ifndef LIBSCHED_FRAMEWORK_NODE_TO_STATUS_H_
#define LIBSCHED_FRAMEWORK_NODE_TO_STATUS_H_

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "libsched/framework/status.h"
#include "libsched/state/node_info.h"

namespace sched {

// A node a Filter plugin rejected, with the first failing plugin's status.
struct NodeFailure {
  const NodeInfo* node;
  Status status;
};

class NodeToStatus {
 public:
  // `absent` is the status of nodes not in `failures`; null means
  // UnschedulableAndUnresolvable (NewDefaultNodeToStatus).
  NodeToStatus(std::span<const NodeFailure> failures, const Status* absent);

  // The code of `node`'s status (NodeToStatusReader.Get(...).Code()).
  Code CodeFor(const NodeInfo* node) const;
  // The nodes of `all` whose status has `code`, in `all`'s order
  // (NodesForStatusCode).
  std::vector<const NodeInfo*> NodesForStatusCode(std::span<const NodeInfo* const> all,
                                                  Code code) const;

 private:
  // By NodeInfo::index() (a snapshot's nodes have distinct ones), with
  // the node, to tell it from a copy with the same index. A NodeInfo
  // without an index, or whose index another one took, is in `others_`.
  struct Entry {
    const NodeInfo* node = nullptr;
    Code code = Code::kSuccess;
  };
  std::vector<Entry> by_index_;
  std::unordered_map<const NodeInfo*, Code> others_;
  Code absent_;
};

// The reasons part of a FitError (framework.FitError.Error): " <count>
// <reason>, ..." sorted as strings, then "."; the nodes not in `failures`
// count under `absent`'s reasons (null: none). Empty when there are no
// reasons.
std::string ReasonsHistogram(int64_t num_all_nodes, std::span<const NodeFailure> failures,
                             const Status* absent);

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_NODE_TO_STATUS_H_
