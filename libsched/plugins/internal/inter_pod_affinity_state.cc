// Helpers shared by InterPodAffinity's filtering and scoring
// (interpodaffinity/plugin.go and filtering.go).
#include <algorithm>

#include "libsched/model/pod.h"
#include "libsched/plugins/internal/inter_pod_affinity_state.h"

namespace sched::interpodaffinity {

void MergeNamespaces(const ClusterState& snapshot, AffinityTerm* term) {
  if (term->NamespaceSelectorIsEmpty()) return;
  if (term->namespace_selector) {
    for (const auto& [name, ns] : snapshot.namespaces()) {
      if (term->namespace_selector->Matches(ns->labels, snapshot.interner())) {
        term->namespaces.push_back(name);
      }
    }
    std::sort(term->namespaces.begin(), term->namespaces.end());
    term->namespaces.erase(std::unique(term->namespaces.begin(), term->namespaces.end()),
                           term->namespaces.end());
  }
  term->namespace_selector.reset();  // labels.Nothing()
}

bool MatchesAllTerms(const std::vector<AffinityTerm>& terms, const Pod& pod,
                     const Interner& interner) {
  if (terms.empty()) return false;
  static const LabelSet kNoLabels;  // merged terms need no namespace labels
  for (const AffinityTerm& t : terms) {
    if (!t.Matches(pod, kNoLabels, interner)) return false;
  }
  return true;
}

}  // namespace sched::interpodaffinity
