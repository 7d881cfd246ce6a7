#include "libsched/plugins/internal/pod_topology_spread_buffers.h"

#include <algorithm>

#include "libsched/state/node_index_room.h"

namespace sched::pts_internal {

std::shared_ptr<NodeBuffers> TakeBuffers(std::shared_ptr<NodeBuffers>* kept, size_t bound,
                                         size_t num_hostname) {
  std::shared_ptr<NodeBuffers> b;
  if (kept != nullptr && *kept != nullptr && kept->use_count() == 1) {
    b = *kept;
    for (std::vector<int64_t>& counts : b->host_counts) {
      for (const uint32_t index : b->counted) {
        if (index < counts.size()) counts[index] = 0;  // else never counted into
      }
    }
    b->counted.clear();
  } else {
    b = std::make_shared<NodeBuffers>();
    if (kept != nullptr) *kept = b;
  }
  b->host_counts.resize(std::max(b->host_counts.size(), num_hostname));
  for (size_t h = 0; h < b->host_counts.size(); ++h) {
    std::vector<int64_t>& counts = b->host_counts[h];
    if (h < num_hostname && counts.size() < bound) {
      counts.resize(bound);
    } else if (FarAboveNodeIndexBound(counts.size(), bound)) {
      TrimTo(counts, bound);  // the cluster scaled down
    }
  }
  return b;
}

}  // namespace sched::pts_internal
