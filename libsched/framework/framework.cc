#include "libsched/framework/framework.h"

#include <string>

namespace sched {

Status Framework::RunFilterPlugins(const CycleState& state, const Pod& pod,
                                   const NodeInfo& node) const {
  Status merged;
  for (const FilterPlugin* p : profile_.filter()) {
    if (state.skip_filter(p->slot())) continue;
    Status s = p->Filter(state, pod, node);
    if (s.IsSuccess()) continue;
    s.set_plugin(p->Name());
    // An error ends the node's evaluation even when running all filters.
    if (!profile_.run_all_filters() || s.code() == Code::kError) return s;
    if (merged.IsSuccess()) {
      merged = std::move(s);
    } else {
      merged.MergeRejection(s);
    }
  }
  return merged;
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                                    const NodeInfo& node) const {
  if (nominator_ != nullptr) {
    const auto nominated = nominator_->NominatedPodsForNode(node.node()->name);
    if (!nominated.empty()) {
      // addGENominatedPods: only pods the pod must yield to.
      NodeInfo node_with = node;
      CycleState state_with = state.Clone();
      bool added = false;
      for (const auto& np : nominated) {
        if (np->priority < pod.priority || SamePod(*np, pod)) continue;
        node_with.AddPod(np, node.generation());
        Status s = RunPreFilterExtensionAddPod(state_with, pod, *np, node_with);
        if (!s.IsSuccess()) return s;
        added = true;
      }
      if (added) {
        Status s = RunFilterPlugins(state_with, pod, node_with);
        if (!s.IsSuccess()) return s;
      }
    }
  }
  return RunFilterPlugins(state, pod, node);
}

Status Framework::RunPreFilterExtensionAddPod(CycleState& state, const Pod& pod,
                                              const Pod& other, const NodeInfo& node) const {
  for (const PreFilterPlugin* p : profile_.pre_filter()) {
    if (!p->HasPreFilterExtensions() || state.skip_filter(p->slot())) continue;
    Status s = p->AddPod(state, pod, other, node);
    if (!s.IsSuccess()) {
      return Status::Error("running AddPod on PreFilter plugin \"" + std::string(p->Name()) +
                           "\": " + s.Message());
    }
  }
  return Status();
}

Status Framework::RunPreFilterExtensionRemovePod(CycleState& state, const Pod& pod,
                                                 const Pod& other, const NodeInfo& node) const {
  for (const PreFilterPlugin* p : profile_.pre_filter()) {
    if (!p->HasPreFilterExtensions() || state.skip_filter(p->slot())) continue;
    Status s = p->RemovePod(state, pod, other, node);
    if (!s.IsSuccess()) {
      return Status::Error("running RemovePod on PreFilter plugin \"" + std::string(p->Name()) +
                           "\": " + s.Message());
    }
  }
  return Status();
}

}  // namespace sched
