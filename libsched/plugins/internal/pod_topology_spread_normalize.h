// PodTopologySpread's NormalizeScore arithmetic (podtopologyspread/
// scoring.go): scores reversed into [0, kMaxNodeScore] by the others'
// minimum and maximum, ignored nodes at 0. Internal to the plugin.
#ifndef LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_NORMALIZE_H_
#define LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_NORMALIZE_H_

#include <cstdint>
#include <span>

namespace sched::pts_internal {

// Every score s of a node not ignored becomes
// kMaxNodeScore * (max + min - s) / max over the scores of the nodes not
// ignored (kMaxNodeScore when max is 0); an ignored node's becomes 0.
// `ignored`: empty (no node ignored) or parallel to `scores`, 1 = ignored.
// When the scores span fewer values than there are nodes, each value is
// divided once into a table, not once per node.
void ReverseNormalize(std::span<int64_t> scores, std::span<const uint8_t> ignored);

}  // namespace sched::pts_internal

#endif  // LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_NORMALIZE_H_
