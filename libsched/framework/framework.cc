#include "libsched/framework/framework.h"

#include <algorithm>
#include <string>

namespace sched {

Status Framework::RunFilterPlugins(const CycleState& state, const Pod& pod,
                                   const NodeInfo& node) const {
  size_t failed_at = 0;
  return RunFilterPlugins(state, pod, node, {}, &failed_at);
}

Status Framework::RunFilterPlugins(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                   std::span<const uint8_t> except, size_t* failed_at) const {
  const std::vector<const FilterPlugin*>& filters = profile_.filter();
  *failed_at = filters.size();
  Status merged;
  for (size_t k = 0; k < filters.size(); ++k) {
    const FilterPlugin* p = filters[k];
    if (state.skip_filter(p->slot()) || (!except.empty() && except[k])) continue;
    Status s = p->Filter(state, pod, node);
    if (s.IsSuccess()) continue;
    s.set_plugin(p->Name());
    if (*failed_at == filters.size()) *failed_at = k;
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

namespace {

// The nominated-pods pass's copy of the node and clone of the state, one
// per thread and reused: copy-assigning keeps the vectors' storage, so a
// warm pass allocates nothing. Reset when the pass ends, so it holds no
// pod, node or slot data between passes.
struct NominatedScratch {
  NodeInfo node;
  CycleState state{0};
};

class ScratchLease {
 public:
  ScratchLease(const NodeInfo& node, const CycleState& state) : s_(Get()) {
    s_.node = node;
    s_.state.CopyFrom(state);
  }
  ~ScratchLease() {
    s_.node.Reset();
    s_.state.Reset();
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  NodeInfo& node() { return s_.node; }
  CycleState& state() { return s_.state; }

 private:
  static NominatedScratch& Get() {
    thread_local NominatedScratch scratch;
    return scratch;
  }
  NominatedScratch& s_;
};

}  // namespace

YieldedNominations Framework::YieldedOn(const NodeInfo& node, const Pod& pod,
                                        NominatedKey pod_key,
                                        std::vector<uint32_t>* positions) const {
  if (by_node_ != nullptr) return by_node_->Yielded(node, pod, pod_key, positions);
  return UnversionedYielded(NominatedPodsOn(node), pod, positions);
}

NominatedPodsByNode::Pods Framework::NominatedPodsOn(const NodeInfo& node) const {
  if (by_node_ != nullptr) return by_node_->On(node);
  if (nominator_ == nullptr) return {};
  return nominator_->NominatedPodsOn(node.node()->name);
}

Status Framework::RunNominatedPass(const CycleState& state, const Pod& pod, const NodeInfo& node,
                                   NominatedPodsByNode::Pods nominated) const {
  auto first = std::find_if(nominated.begin(), nominated.end(),
                            [&](const auto& np) { return YieldsToNominated(*np, pod); });
  if (first == nominated.end()) return Status();
  ScratchLease with(node, state);
  for (auto it = first; it != nominated.end(); ++it) {
    if (it != first && !YieldsToNominated(**it, pod)) continue;
    with.node().AddPod(*it, node.generation());
    Status s = RunPreFilterExtensionAddPod(with.state(), pod, **it, with.node());
    if (!s.IsSuccess()) return s;
  }
  return RunFilterPlugins(with.state(), pod, with.node());
}

Status Framework::RunFilterPluginsWithNominatedPods(const CycleState& state, const Pod& pod,
                                                    const NodeInfo& node) const {
  const NominatedPodsByNode::Pods nominated = NominatedPodsOn(node);
  if (!nominated.empty()) {
    Status s = RunNominatedPass(state, pod, node, nominated);
    if (!s.IsSuccess()) return s;
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
