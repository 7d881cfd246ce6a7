#include "libsched/engine/drain.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "libsched/plugins/dynamic_resources.h"
#include "libsched/plugins/volume_binding.h"

namespace sched {
namespace {

// A pod to schedule again, with what orders it in the queue.
struct Mover {
  std::shared_ptr<const Pod> pod;
  size_t node_index;  // into `nodes`
  std::string key;
};

// Marks the moves of node `n` that a PDB with no disruption left covers
// (CanRemovePods); false when one is blocked.
bool CheckPdbs(const ClusterState& state, const std::map<std::string, int64_t, std::less<>>& left,
               const std::vector<std::pair<const Pod*, DrainMove*>>& moves) {
  bool ok = true;
  for (const auto& [key, pdb] : state.pdbs()) {
    if (left.at(key) >= 1) continue;
    for (const auto& [pod, move] : moves) {
      if (move->blocking_pdb.empty() && pdb->Covers(*pod, state.interner())) {
        move->blocking_pdb = key;
        ok = false;
      }
    }
  }
  return ok;
}

}  // namespace

DrainResult Drain(std::span<const std::string> nodes, ClusterState& state,
                  const PodNominator* nominator, const SchedulerLookup& scheduler_for) {
  DrainResult out;
  std::vector<Mover> movers;
  for (size_t i = 0; i < nodes.size(); ++i) {
    out.nodes.emplace_back().node = nodes[i];
    std::vector<std::shared_ptr<const Pod>> pods = state.FindNode(nodes[i])->pods();
    std::sort(pods.begin(), pods.end(),
              [](const auto& a, const auto& b) { return PodKey(*a) < PodKey(*b); });
    for (std::shared_ptr<const Pod>& p : pods) {
      if (p->mirror || p->controller_ref_kind == "DaemonSet") {
        out.left.push_back(
            {PodKey(*p), nodes[i],
             p->mirror ? DrainLeft::Reason::kMirrorPod : DrainLeft::Reason::kDaemonSet});
        ++out.nodes[i].left;
        continue;
      }
      std::string key = PodKey(*p);
      movers.push_back({std::move(p), i, std::move(key)});
    }
  }
  // The queue's order (PrioritySort): priority, then arrival, taken as the
  // order the nodes were given, then pod key.
  std::stable_sort(movers.begin(), movers.end(), [](const Mover& a, const Mover& b) {
    return a.pod->priority > b.pod->priority;
  });

  {
    // Never committed: the nodes, their pods and the moved pods come back
    // when it closes.
    ClusterState::Batch batch(state);
    {
      // Committed into `batch`, which undoes it: the commit rebuilds the
      // node list the cycles walk.
      ClusterState::Batch removal(state);
      for (const std::string& n : nodes) {
        std::vector<std::shared_ptr<const Pod>> pods = state.FindNode(n)->pods();
        for (const auto& p : pods) state.RemovePod(PodKey(*p));
        state.RemoveNode(n);
      }
      removal.Commit();
    }
    for (const Mover& m : movers) {
      DrainMove move;
      move.pod = m.key;
      move.from = nodes[m.node_index];
      auto pod = std::make_shared<Pod>(*m.pod);
      pod->node_name.clear();
      pod->nominated_node_name.clear();
      Scheduler* scheduler = scheduler_for(pod->scheduler_name);
      if (scheduler == nullptr) {
        move.message = "no profile for schedulerName \"" + pod->scheduler_name + "\"";
      } else {
        const ScheduleResult r = scheduler->Schedule(*pod, state, nominator);
        state.SnapshotTaken();
        move.node = r.node;
        if (r.node.empty()) {
          move.message = r.message;
        } else {
          pod->node_name = r.node;
          AssumePodVolumes(*pod, r.node, &state);
          AssumePodClaims(*pod, r.node, &state);
          state.AssumePod(std::move(pod));
        }
      }
      out.moves.push_back(std::move(move));
    }
  }

  // PDBs, node by node in the order given (RemainingPdbTracker).
  std::map<std::string, int64_t, std::less<>> budget;
  for (const auto& [key, pdb] : state.pdbs()) budget.emplace(key, pdb->disruptions_allowed);
  out.removable = true;
  for (size_t i = 0; i < nodes.size(); ++i) {
    DrainNode& node = out.nodes[i];
    std::vector<std::pair<const Pod*, DrainMove*>> moves;
    for (size_t k = 0; k < movers.size(); ++k) {
      if (movers[k].node_index != i) continue;
      moves.emplace_back(movers[k].pod.get(), &out.moves[k]);
      ++node.moved;
      if (out.moves[k].node.empty()) ++node.pending;
    }
    const bool evictable = CheckPdbs(state, budget, moves);
    for (const auto& [pod, move] : moves) node.blocked += move->blocking_pdb.empty() ? 0 : 1;
    node.removable = evictable && node.pending == 0;
    out.removable = out.removable && node.removable;
    if (!node.removable) continue;
    for (const auto& [key, pdb] : state.pdbs()) {
      for (const auto& [pod, move] : moves) {
        if (pdb->Covers(*pod, state.interner())) --budget.at(key);
      }
    }
  }
  return out;
}

}  // namespace sched
