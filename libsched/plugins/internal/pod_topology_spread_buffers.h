// PodTopologySpread scoring's scratch by node index, kept across an
// equivalence class's cycles and cut when the cluster scales down
// (libsched/state/node_index_room.h). Internal to the plugin.
#ifndef LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_BUFFERS_H_
#define LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_BUFFERS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace sched::pts_internal {

struct NodeBuffers {
  // Per hostname constraint: its matching pods by node index. Zero except
  // at `counted`, the node indexes the last PreScore added to, which the
  // next one clears: a cycle touches the matching pods' nodes, not every
  // feasible node.
  std::vector<std::vector<int64_t>> host_counts;
  std::vector<uint32_t> counted;
  std::vector<uint8_t> seen;  // by domain id: PreScore's scratch
};

// Buffers with `num_hostname` zeroed count arrays of at least `bound`
// entries: `*kept` when no earlier cycle's state still holds it (cleared
// where the last cycle counted, its arrays cut to `bound` when far above
// it), else new ones, kept in *kept. `kept` may be null (no class).
std::shared_ptr<NodeBuffers> TakeBuffers(std::shared_ptr<NodeBuffers>* kept, size_t bound,
                                         size_t num_hostname);

}  // namespace sched::pts_internal

#endif  // LIBSCHED_PLUGINS_INTERNAL_POD_TOPOLOGY_SPREAD_BUFFERS_H_
