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
  Key& key = keys_[k];
  const uint32_t d = key.DomainOf(node_index);
  if (d == TopologyDomains::kNone) return false;
  if (d >= key.counts.size()) key.counts.resize(d + 1, 0);
  int64_t& c = key.counts[d];
  const bool was_zero = c == 0;
  c += delta;
  if (was_zero && c != 0) ++nonzero_;
  if (!was_zero && c == 0) --nonzero_;
  return true;
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
