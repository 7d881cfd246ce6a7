#include "libsched/engine/capacity.h"

#include <map>
#include <memory>
#include <string_view>
#include <utility>

#include "libsched/plugins/dynamic_resources.h"
#include "libsched/plugins/volume_binding.h"

namespace sched {

CapacityResult Capacity(Scheduler& scheduler, ClusterState& state, const PodNominator* nominator,
                        const Pod& tmpl, int64_t max_replicas) {
  CapacityResult out;
  Mt19937_64::Mark rng;
  scheduler.rng().Save(&rng);
  const size_t start = scheduler.next_start_node_index();
  {
    // Never committed: the assumed replicas go when it closes.
    ClusterState::Batch batch(state);
    try {
      for (int64_t i = 0; i < max_replicas; ++i) {
        auto replica = std::make_shared<Pod>(tmpl);
        const std::string suffix = "-capacity-" + std::to_string(i);
        replica->name += suffix;
        replica->uid += suffix;
        const ScheduleResult r = scheduler.Schedule(*replica, state, nominator);
        state.SnapshotTaken();
        if (r.node.empty()) {
          out.message = r.message;
          break;
        }
        out.placements.push_back(r.node);
        replica->node_name = r.node;
        AssumePodVolumes(*replica, r.node, &state);
        AssumePodClaims(*replica, r.node, &state);
        state.AssumePod(std::move(replica));
      }
    } catch (...) {
      scheduler.Rewind(rng, start);
      throw;
    }
  }
  scheduler.Rewind(rng, start);
  out.replicas = static_cast<int64_t>(out.placements.size());
  out.capped = out.replicas == max_replicas;
  std::map<std::string_view, int64_t> per_node;
  for (const std::string& n : out.placements) ++per_node[n];
  for (const auto& [n, k] : per_node) out.nodes.emplace_back(std::string(n), k);
  return out;
}

}  // namespace sched
