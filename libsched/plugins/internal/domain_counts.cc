#include "libsched/plugins/internal/domain_counts.h"

namespace sched::interpodaffinity {

size_t DomainCounts::For(Atom key) {
  for (size_t k = 0; k < keys_.size(); ++k) {
    if (keys_[k].key == key) return k;
  }
  Key& k = keys_.emplace_back();
  k.key = key;
  k.domains = domains_->Find(key);
  if (k.domains != nullptr) k.counts.assign(k.domains->bound(), 0);
  return keys_.size() - 1;
}

bool DomainCounts::Add(size_t k, uint32_t node_index, int64_t delta) {
  const uint32_t d = keys_[k].DomainOf(node_index);
  if (d == TopologyDomains::kNone) return false;
  AddToDomain(k, d, delta);
  return true;
}

bool DomainCounts::AddValue(size_t k, Atom value, int64_t delta) {
  const TopologyDomains::Key* domains = keys_[k].domains;
  const uint32_t d = domains == nullptr ? TopologyDomains::kNone : domains->Find(value);
  if (d == TopologyDomains::kNone) return false;
  AddToDomain(k, d, delta);
  return true;
}

bool DomainCounts::AddGroup(size_t k, const PodLabelIndex::Group& group, int64_t weight) {
  const Key& key = keys_[k];
  bool counted = false;
  if (key.domains != nullptr && !key.domains->OneNodePerDomain()) {
    // ClusterState keeps the group's pairs of every such key.
    for (const auto& [pair, count] : group.pairs) {
      if (PodLabelIndex::PairKey(pair) != key.key) continue;
      AddToDomain(k, key.domains->Find(PodLabelIndex::PairValue(pair)), weight * count);
      counted = true;
    }
    return counted;
  }
  for (const auto& [index, count] : group.nodes) {
    if (Add(k, index, weight * count)) counted = true;
  }
  return counted;
}

void DomainCounts::AddToDomain(size_t k, uint32_t d, int64_t delta) {
  Key& key = keys_[k];
  if (d >= key.counts.size()) key.counts.resize(d + 1, 0);
  int64_t& c = key.counts[d];
  const bool was_zero = c == 0;
  c += delta;
  if (was_zero && c != 0) ++nonzero_;
  if (!was_zero && c == 0) --nonzero_;
}

const DomainCounts::Key* DomainCounts::Find(Atom key) const {
  for (const Key& k : keys_) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

bool DomainCounts::operator==(const DomainCounts& o) const {
  if (nonzero_ != o.nonzero_) return false;
  for (const Key& k : keys_) {
    const Key* ok = o.Find(k.key);
    for (size_t d = 0; d < k.counts.size(); ++d) {
      if (k.counts[d] == 0) continue;
      if (ok == nullptr || d >= ok->counts.size() || ok->counts[d] != k.counts[d]) return false;
    }
  }
  return true;
}

}  // namespace sched::interpodaffinity
