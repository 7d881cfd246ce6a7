#include "libsched/plugins/taint_toleration.h"

#include <memory>
#include <vector>

#include "libsched/plugins/helper/node_match.h"
#include "libsched/plugins/helper/normalize_score.h"

namespace sched {
namespace {

struct PreScoreState : StateData {
  std::vector<Toleration> prefer_no_schedule;  // effect empty or PreferNoSchedule
};

bool Tolerated(std::span<const Toleration> tolerations, const Taint& taint) {
  for (const Toleration& t : tolerations) {
    if (t.Tolerates(taint)) return true;
  }
  return false;
}

}  // namespace

Status TaintToleration::Filter(const CycleState& /*state*/, const Pod& pod,
                               const NodeInfo& node) const {
  if (HasUntoleratedDoNotScheduleTaint(*node.node(), pod.tolerations)) {
    return Status(Code::kUnschedulableAndUnresolvable, kReasonUntolerated);
  }
  return Status();
}

std::vector<ClusterEventWithHint> TaintToleration::EventsToRegister(
    const ClusterState& /*cluster*/) const {
  auto node_changed = [](const Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
    const Node* old_node = AsNode(old_obj);
    const Node* new_node = AsNode(new_obj);
    if (new_node == nullptr) return QueueingHint::kQueue;
    const bool was_untolerated =
        old_node == nullptr || HasUntoleratedDoNotScheduleTaint(*old_node, pod.tolerations);
    const bool is_untolerated = HasUntoleratedDoNotScheduleTaint(*new_node, pod.tolerations);
    return was_untolerated && !is_untolerated ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  };
  auto toleration_added = [](const Pod& pod, const EventObject& /*old_obj*/,
                             const EventObject& new_obj) {
    const Pod* modified = AsPod(new_obj);
    if (modified == nullptr) return QueueingHint::kQueue;
    return SamePod(pod, *modified) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  };
  return {
      {{EventResource::kNode, action::kAdd | action::kUpdateNodeTaint, {}}, node_changed},
      {{EventResource::kPod, action::kUpdatePodToleration, {}}, toleration_added},
  };
}

Status TaintToleration::PreScore(CycleState& state, const Pod& pod,
                                 std::span<const NodeInfo* const> /*feasible*/,
                                 const ClusterState& /*snapshot*/) const {
  auto s = std::make_shared<PreScoreState>();
  for (const Toleration& t : pod.tolerations) {
    // An empty effect matches every effect, PreferNoSchedule included.
    if (t.effect == TaintEffect::kNone || t.effect == TaintEffect::kPreferNoSchedule) {
      s->prefer_no_schedule.push_back(t);
    }
  }
  state.Write(slot(), std::move(s));
  return Status();
}

Status TaintToleration::Score(const CycleState& state, const Pod& /*pod*/,
                              const NodeInfo& node, int64_t* score) const {
  const auto* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) {
    return Status::Error("failed to read \"PreScoreTaintToleration\" from cycleState: not found");
  }
  int64_t count = 0;
  for (const Taint& taint : node.node()->taints) {
    if (taint.effect == TaintEffect::kPreferNoSchedule &&
        !Tolerated(s->prefer_no_schedule, taint)) {
      ++count;
    }
  }
  *score = count;
  return Status();
}

Status TaintToleration::NormalizeScore(const CycleState& /*state*/, const Pod& /*pod*/,
                                       std::span<int64_t> scores) const {
  return DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
}

bool TaintToleration::NormalizesZeroColumnTo(int64_t* normalized) const {
  *normalized = DefaultNormalizedZero(kMaxNodeScore, /*reverse=*/true);
  return true;
}

void TaintToleration::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.AddAll(std::span<const Toleration>(pod.tolerations));
}

}  // namespace sched
