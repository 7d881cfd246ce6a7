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
  Data& d = data_.Mutable(log_);
  JournalChange(d, node);
  undo::InsertOrAssign(log_, d.pod_to_node, PodKey(*pod), node);
  NodeNominations& on = undo::TryEmplace(log_, d.nominated_pods, node).first->second;
  undo::PushBack(log_, on.pods, std::move(pod));
  Touch(on);
}

void Nominator::JournalChange(Data& d, const std::string& node) {
  if (log_ != nullptr) {
    log_->Reserve();
    log_->Record([&journal = d.journal]() noexcept { journal.Renew(); });
  }
  // Past twice the lists, a reader's walk of every list costs less.
  if (d.journal.names.size() >= 2 * d.nominated_pods.size() + 64) d.journal.Renew();
  d.journal.names.push_back(node);
}

void Nominator::Touch(NodeNominations& n) {
  undo::Save(log_, n.version);
  n.version = NewNominationsVersion();
}

void Nominator::UpdateNominatedPod(const Pod& old_pod, std::shared_ptr<const Pod> new_pod) {
  std::optional<std::string> keep;
  // Neither version names a node: the nomination came from this scheduler
  // (status not yet written back), so it survives the update.
  if (old_pod.nominated_node_name.empty() && new_pod->nominated_node_name.empty()) {
    auto it = data_->pod_to_node.find(PodKey(old_pod));
    if (it != data_->pod_to_node.end()) keep = it->second;
  }
  DeleteNominatedPodIfExists(old_pod);
  AddNominatedPod(std::move(new_pod), keep);
}

void Nominator::DeleteNominatedPodIfExists(const Pod& pod) {
  // Most often nothing is nominated: no key to build (every queued pod
  // passes here).
  if (data_->pod_to_node.empty()) return;
  const std::string key = PodKey(pod);
  if (!data_->pod_to_node.contains(key)) return;  // no write: shared stays shared
  Data& d = data_.Mutable(log_);
  auto it = d.pod_to_node.find(key);
  auto node = d.nominated_pods.find(it->second);
  if (node != d.nominated_pods.end()) {
    JournalChange(d, node->first);
    auto& pods = node->second.pods;
    const auto pos =
        std::find_if(pods.begin(), pods.end(), [&](const auto& p) { return PodKey(*p) == key; });
    undo::EraseAt(log_, pods, static_cast<size_t>(pos - pods.begin()));
    if (pods.empty()) {
      undo::Erase(log_, d.nominated_pods, node);
    } else {
      Touch(node->second);
    }
  }
  undo::Erase(log_, d.pod_to_node, it);
}

std::span<const std::shared_ptr<const Pod>> Nominator::NominatedPodsOn(
    std::string_view node_name) const {
  auto it = data_->nominated_pods.find(node_name);
  if (it == data_->nominated_pods.end()) return {};
  return it->second.pods;
}

void Nominator::ForEachNominatedNode(const NominationsFn& fn) const {
  for (const auto& [node, n] : data_->nominated_pods) fn(node, n.pods, n.version);
}

bool Nominator::ForEachNominatedNodeSince(Mark* mark, const NominationsFn& fn) const {
  const Data& d = *data_;
  const Mark was = *mark;
  *mark = {d.journal.id, d.journal.names.size()};
  if (was.journal != d.journal.id) return false;
  for (size_t k = was.seen; k < d.journal.names.size(); ++k) {
    const std::string& name = d.journal.names[k];
    auto it = d.nominated_pods.find(name);
    if (it == d.nominated_pods.end()) {
      fn(name, {}, 0);
    } else {
      fn(name, it->second.pods, it->second.version);
    }
  }
  return true;
}

std::string Nominator::NominatedNodeFor(const Pod& pod) const {
  auto it = data_->pod_to_node.find(PodKey(pod));
  return it == data_->pod_to_node.end() ? std::string() : it->second;
}

}  // namespace sched
