#include "libsched/queue/nominator.h"

#include <algorithm>
#include <utility>

#include "libsched/state/cluster_state.h"

namespace sched {

void Nominator::AddNominatedPod(std::shared_ptr<const Pod> pod,
                                const std::optional<std::string>& node_name) {
  DeleteNominatedPodIfExists(*pod);
  const std::string node = node_name ? *node_name : pod->nominated_node_name;
  // Upstream asks the pod lister whether the pod is bound; the pod we hold
  // is that newest version.
  if (node.empty() || !pod->node_name.empty()) return;
  undo::InsertOrAssign(log_, pod_to_node_, PodKey(*pod), node);
  auto& pods = undo::TryEmplace(log_, nominated_pods_, node).first->second;
  undo::PushBack(log_, pods, std::move(pod));
}

void Nominator::UpdateNominatedPod(const Pod& old_pod, std::shared_ptr<const Pod> new_pod) {
  std::optional<std::string> keep;
  // Neither version names a node: the nomination came from this scheduler
  // (status not yet written back), so it survives the update.
  if (old_pod.nominated_node_name.empty() && new_pod->nominated_node_name.empty()) {
    auto it = pod_to_node_.find(PodKey(old_pod));
    if (it != pod_to_node_.end()) keep = it->second;
  }
  DeleteNominatedPodIfExists(old_pod);
  AddNominatedPod(std::move(new_pod), keep);
}

void Nominator::DeleteNominatedPodIfExists(const Pod& pod) {
  const std::string key = PodKey(pod);
  auto it = pod_to_node_.find(key);
  if (it == pod_to_node_.end()) return;
  auto node = nominated_pods_.find(it->second);
  if (node != nominated_pods_.end()) {
    auto& pods = node->second;
    const auto pos =
        std::find_if(pods.begin(), pods.end(), [&](const auto& p) { return PodKey(*p) == key; });
    undo::EraseAt(log_, pods, static_cast<size_t>(pos - pods.begin()));
    if (pods.empty()) undo::Erase(log_, nominated_pods_, node);
  }
  undo::Erase(log_, pod_to_node_, it);
}

std::vector<std::shared_ptr<const Pod>> Nominator::NominatedPodsForNode(
    std::string_view node_name) const {
  auto it = nominated_pods_.find(node_name);
  if (it == nominated_pods_.end()) return {};
  return it->second;
}

std::string Nominator::NominatedNodeFor(const Pod& pod) const {
  auto it = pod_to_node_.find(PodKey(pod));
  return it == pod_to_node_.end() ? std::string() : it->second;
}

}  // namespace sched
