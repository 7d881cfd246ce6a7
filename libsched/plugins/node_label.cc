#include "libsched/plugins/node_label.h"

#include <memory>

namespace sched {
namespace {

// The args' keys as interned ids; kNoAtom for a key no object has used,
// which no node can have.
struct KeysState final : StateData {
  std::vector<Atom> present;
  std::vector<Atom> absent;
};

std::vector<Atom> Find(const std::vector<std::string>& keys, const Interner& in) {
  std::vector<Atom> out;
  out.reserve(keys.size());
  for (const std::string& k : keys) out.push_back(in.Find(k));
  return out;
}

bool HasKey(const NodeInfo& node, Atom key) {
  return key != kNoAtom && node.node()->labels.Has(key);
}

}  // namespace

Status NodeLabel::PreFilter(CycleState& state, const Pod& /*pod*/, const ClusterState& snapshot,
                            PreFilterResult* /*result*/) const {
  if (args_.present_labels.empty() && args_.absent_labels.empty()) return Status(Code::kSkip);
  auto s = std::make_shared<KeysState>();
  s->present = Find(args_.present_labels, snapshot.interner());
  s->absent = Find(args_.absent_labels, snapshot.interner());
  state.Write(slot(), std::move(s));
  return Status();
}

Status NodeLabel::Filter(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node) const {
  const auto* s = state.Read<KeysState>(slot());
  if (s == nullptr)
    return Status::Error("reading \"PreFilterNodeLabel\" from cycleState: not found");
  for (Atom k : s->present) {
    if (!HasKey(node, k))
      return Status(Code::kUnschedulableAndUnresolvable, kReasonPresenceViolated);
  }
  for (Atom k : s->absent) {
    if (HasKey(node, k))
      return Status(Code::kUnschedulableAndUnresolvable, kReasonPresenceViolated);
  }
  return Status();
}

Status NodeLabel::PreScore(CycleState& state, const Pod& /*pod*/,
                           std::span<const NodeInfo* const> /*feasible*/,
                           const ClusterState& snapshot) const {
  if (args_.present_labels_preference.empty() && args_.absent_labels_preference.empty()) {
    return Status(Code::kSkip);
  }
  auto s = std::make_shared<KeysState>();
  s->present = Find(args_.present_labels_preference, snapshot.interner());
  s->absent = Find(args_.absent_labels_preference, snapshot.interner());
  state.Write(slot(), std::move(s));
  return Status();
}

Status NodeLabel::Score(const CycleState& state, const Pod& /*pod*/, const NodeInfo& node,
                        int64_t* score) const {
  const auto* s = state.Read<KeysState>(slot());
  if (s == nullptr)
    return Status::Error("reading \"PreScoreNodeLabel\" from cycleState: not found");
  int64_t sum = 0;
  for (Atom k : s->present) {
    if (HasKey(node, k)) sum += kMaxNodeScore;
  }
  for (Atom k : s->absent) {
    if (!HasKey(node, k)) sum += kMaxNodeScore;
  }
  // The average over the keys keeps the score within MaxNodeScore.
  *score = sum / static_cast<int64_t>(s->present.size() + s->absent.size());
  return Status();
}

}  // namespace sched
