#include "libsched/plugins/selector_spread.h"

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "libsched/plugins/helper/default_selector.h"
#include "libsched/state/node_tree.h"

namespace sched {
namespace {

// zoneWeighting: 2/3 of the score from the zone, 1/3 from the node.
constexpr double kZoneWeighting = 2.0 / 3.0;

// preScoreState, plus each feasible node's zone as a dense index (-1: no
// zone key).
struct PreScoreState final : StateData {
  LabelSelector selector;
  const Interner* interner = nullptr;
  std::vector<int> zone_of_node;
  size_t num_zones = 0;
};

constexpr const char* kStateMissing =
    "reading \"PreScoreSelectorSpread\" from cycleState: not found";

}  // namespace

Status SelectorSpread::PreScore(CycleState& state, const Pod& pod,
                                std::span<const NodeInfo* const> feasible,
                                const ClusterState& snapshot) const {
  // skipSelectorSpread: the pod's own constraints (not the default ones).
  if (!pod.topology_spread_constraints.empty()) return Status(Code::kSkip);
  auto s = std::make_shared<PreScoreState>();
  s->selector = DefaultSelector(pod, snapshot, state.class_memo(slot()));
  s->interner = &snapshot.interner();
  std::unordered_map<std::string, int> zones;
  s->zone_of_node.reserve(feasible.size());
  for (const NodeInfo* n : feasible) {
    const std::string key = ZoneKey(*n->node(), snapshot.interner());
    s->zone_of_node.push_back(
        key.empty() ? -1 : zones.try_emplace(key, static_cast<int>(zones.size())).first->second);
  }
  s->num_zones = zones.size();
  state.Write(slot(), std::move(s));
  return Status();
}

Status SelectorSpread::Score(const CycleState& state, const Pod& pod, const NodeInfo& node,
                             int64_t* score) const {
  *score = 0;
  const auto* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kStateMissing);
  *score = CountMatchingPods(node, s->selector, pod.ns, *s->interner);
  return Status();
}

Status SelectorSpread::NormalizeScore(const CycleState& state, const Pod& /*pod*/,
                                      std::span<int64_t> scores) const {
  const auto* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) return Status::Error(kStateMissing);
  std::vector<int64_t> counts_by_zone(s->num_zones, 0);
  int64_t max_by_node = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    max_by_node = std::max(max_by_node, scores[i]);
    if (s->zone_of_node[i] >= 0) counts_by_zone[s->zone_of_node[i]] += scores[i];
  }
  int64_t max_by_zone = 0;
  for (int64_t c : counts_by_zone) max_by_zone = std::max(max_by_zone, c);
  const double max_score = static_cast<double>(kMaxNodeScore);
  for (size_t i = 0; i < scores.size(); ++i) {
    double f = max_score;
    if (max_by_node > 0) {
      f = max_score *
          (static_cast<double>(max_by_node - scores[i]) / static_cast<double>(max_by_node));
    }
    if (s->zone_of_node[i] >= 0) {
      double zone_score = max_score;
      if (max_by_zone > 0) {
        zone_score =
            max_score * (static_cast<double>(max_by_zone - counts_by_zone[s->zone_of_node[i]]) /
                         static_cast<double>(max_by_zone));
      }
      f = (f * (1.0 - kZoneWeighting)) + (kZoneWeighting * zone_score);
    }
    scores[i] = static_cast<int64_t>(f);
  }
  return Status();
}

}  // namespace sched
