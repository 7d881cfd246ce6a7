#include "libsched/state/affinity_term_index.h"

#include "libsched/model/pod_signer.h"

namespace sched {
namespace {

// Equal for equal (term, weight), distinct otherwise.
std::string EntryKey(const AffinityTerm& t, int32_t weight) {
  PodSigner s;
  s.Add(int64_t{weight});
  s.Add(t);
  return std::string(s.bytes());
}

}  // namespace

void AffinityTermIndex::Update(Kind kind, const AffinityTerm& term, int32_t weight,
                               const Node* node, int64_t delta, UndoLog* log) {
  Entries& entries = entries_[static_cast<int>(kind)];
  const std::string key = EntryKey(term, weight);
  auto it = entries.find(key);
  if (it == entries.end()) {
    if (delta < 0) return;  // Remove without Add: nothing to undo
    it = undo::TryEmplace(log, entries, key, Entry{term, weight, {}, 0}).first;
  }
  Entry& e = it->second;
  if (node != nullptr) {
    if (const std::optional<Atom> v = node->labels.Get(term.topology_key)) {
      undo::AddCount(log, e.counts, *v, delta);
    }
  }
  undo::Save(log, e.held);
  if ((e.held += delta) <= 0) undo::Erase(log, entries, it);
}

void AffinityTermIndex::Apply(const Pod& pod, const Node* node, int64_t delta, UndoLog* log) {
  const PodAffinityTerms& a = pod.pod_affinity;
  for (const AffinityTerm& t : a.required_affinity) {
    Update(Kind::kRequiredAffinity, t, 0, node, delta, log);
  }
  for (const AffinityTerm& t : a.required_anti_affinity) {
    Update(Kind::kRequiredAntiAffinity, t, 0, node, delta, log);
  }
  for (const WeightedAffinityTerm& t : a.preferred_affinity) {
    Update(Kind::kPreferredAffinity, t.term, t.weight, node, delta, log);
  }
  for (const WeightedAffinityTerm& t : a.preferred_anti_affinity) {
    Update(Kind::kPreferredAntiAffinity, t.term, t.weight, node, delta, log);
  }
}

}  // namespace sched
