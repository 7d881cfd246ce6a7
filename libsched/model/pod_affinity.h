// Inter-pod (anti-)affinity terms, processed once when a pod is decoded,
// mirroring fwk.AffinityTerm / fwk.WeightedAffinityTerm and the term lists
// of framework.PodInfo (staging/src/k8s.io/kube-scheduler/framework/types.go,
// pkg/scheduler/framework/types.go).
//
// Thread-safety: plain values; const methods may be called concurrently.
#ifndef LIBSCHED_MODEL_POD_AFFINITY_H_
#define LIBSCHED_MODEL_POD_AFFINITY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "libsched/model/interner.h"
#include "libsched/model/labels.h"

namespace sched {

struct Pod;

// v1.PodAffinityTerm after newAffinityTerm: `namespaces` is the term's list,
// or the owning pod's namespace when the term has neither namespaces nor a
// namespaceSelector (getNamespacesFromPodAffinityTerm). A nil labelSelector
// or namespaceSelector is nullopt and matches nothing
// (metav1.LabelSelectorAsSelector(nil) is labels.Nothing()); an empty one
// ({}) matches everything. matchLabelKeys / mismatchLabelKeys are already
// merged into `selector` (see capi/decode_pod_affinity.cc).
struct AffinityTerm {
  std::vector<Atom> namespaces;  // sorted, unique namespace names
  std::optional<LabelSelector> selector;
  std::optional<LabelSelector> namespace_selector;
  Atom topology_key = kNoAtom;

  // AffinityTerm.Matches: `pod` is in one of `namespaces`, or its
  // namespace's labels `ns_labels` (empty when the Namespace is unknown)
  // match namespace_selector; and its labels match selector.
  bool Matches(const Pod& pod, const LabelSet& ns_labels, const Interner& interner) const;
  // namespace_selector is `{}` (labels.Selector.Empty(): it selects every
  // namespace without a lookup).
  bool NamespaceSelectorIsEmpty() const {
    return namespace_selector && namespace_selector->requirements.empty() &&
           namespace_selector->valid;
  }
};

// v1.WeightedPodAffinityTerm processed (fwk.WeightedAffinityTerm).
struct WeightedAffinityTerm {
  AffinityTerm term;
  int32_t weight = 0;
};

// spec.affinity.podAffinity / podAntiAffinity as PodInfo holds them.
struct PodAffinityTerms {
  std::vector<AffinityTerm> required_affinity;       // RequiredAffinityTerms
  std::vector<AffinityTerm> required_anti_affinity;  // RequiredAntiAffinityTerms
  std::vector<WeightedAffinityTerm> preferred_affinity;
  std::vector<WeightedAffinityTerm> preferred_anti_affinity;
  // podAffinity or podAntiAffinity is set, even if empty (podWithAffinity in
  // framework/types.go): the pod goes to NodeInfo's PodsWithAffinity.
  bool has_pod_affinity = false;
  // podAntiAffinity.requiredDuringScheduling... is non-empty
  // (podWithRequiredAntiAffinity): the pod goes to
  // PodsWithRequiredAntiAffinity. Set from the spec, so it stays true when
  // the terms failed to parse and were dropped, as upstream.
  bool has_required_anti_affinity = false;
  // Why some term list failed to parse (a selector LabelSelectorAsSelector
  // rejects), as PodInfo.Update's aggregated error; empty when all parsed.
  // The failing list is left empty, as upstream leaves it nil.
  std::string parse_error;
  // A required list failed to parse (GetAffinityTerms of the queueing
  // hints fails on it; the preferred lists they do not read).
  bool required_parse_failed = false;
};

}  // namespace sched

#endif  // LIBSCHED_MODEL_POD_AFFINITY_H_
