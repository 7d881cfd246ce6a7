#include "libsched/plugins/internal/domain_counts.h"

#include <algorithm>

namespace sched::interpodaffinity {

std::vector<int64_t> DomainCounts::Key::Dense() const {
  std::vector<int64_t> dense = counts;
  if (domains == nullptr) return dense;
  dense.resize(std::max(dense.size(), domains->bound()), 0);
  for (const auto& [group, weight] : groups) {
    for (const auto& [index, count] : group->nodes) {
      const uint32_t d = domains->DomainOf(index);
      if (d != TopologyDomains::kNone) dense[d] += weight * count;
    }
  }
  return dense;
}

int64_t DomainCounts::Key::GroupsOn(uint32_t node_index) const {
  int64_t sum = 0;
  for (const auto& [group, weight] : groups) sum += weight * group->CountOn(node_index);
  return sum;
}

size_t DomainCounts::For(Atom key) {
  for (size_t k = 0; k < keys_.size(); ++k) {
    if (keys_[k].key == key) return k;
  }
  Key& k = keys_.emplace_back();
  k.key = key;
  k.domains = domains_->Find(key);
  // A key of one node per domain fills its counts only if it must (AddGroup).
  if (k.domains != nullptr && !k.domains->OneNodePerDomain()) {
    k.counts.assign(k.domains->bound(), 0);
  }
  return keys_.size() - 1;
}

bool DomainCounts::Add(size_t k, uint32_t node_index, int64_t delta) {
  const uint32_t d = keys_[k].DomainOf(node_index);
  if (d == TopologyDomains::kNone) return false;
  Materialize(k);
  AddToDomain(k, d, delta);
  return true;
}

bool DomainCounts::AddValue(size_t k, Atom value, int64_t delta) {
  const TopologyDomains::Key* domains = keys_[k].domains;
  const uint32_t d = domains == nullptr ? TopologyDomains::kNone : domains->Find(value);
  if (d == TopologyDomains::kNone) return false;
  Materialize(k);
  AddToDomain(k, d, delta);
  return true;
}

bool DomainCounts::AddGroup(size_t k, const PodLabelIndex::Group& group, int64_t weight) {
  Key& key = keys_[k];
  if (key.domains == nullptr) return false;
  if (!key.domains->OneNodePerDomain()) {
    // ClusterState keeps the group's pairs of every such key.
    bool counted = false;
    for (const auto& [pair, count] : group.pairs) {
      if (PodLabelIndex::PairKey(pair) != key.key) continue;
      AddToDomain(k, key.domains->Find(PodLabelIndex::PairValue(pair)), weight * count);
      counted = true;
    }
    return counted;
  }
  const bool counted = std::any_of(group.nodes.begin(), group.nodes.end(), [&](const auto& n) {
    return key.domains->DomainOf(n.first) != TopologyDomains::kNone;
  });
  if (!counted || weight == 0) return counted;
  // Kept while no sum can cancel to zero, so that empty() stays exact.
  const bool same_sign = key.groups.empty() || (key.groups[0].second > 0) == (weight > 0);
  if (key.counts.empty() && same_sign && key.groups.size() < kMaxKeptGroups) {
    if (key.groups.empty()) ++keys_with_groups_;
    key.groups.emplace_back(&group, weight);
    return true;
  }
  Materialize(k);
  for (const auto& [index, count] : group.nodes) {
    const uint32_t d = key.DomainOf(index);
    if (d != TopologyDomains::kNone) AddToDomain(k, d, weight * count);
  }
  return true;
}

void DomainCounts::Materialize(size_t k) {
  Key& key = keys_[k];
  if (key.groups.empty()) return;
  std::vector<int64_t> dense = key.Dense();
  key.groups.clear();
  --keys_with_groups_;
  key.counts.assign(dense.size(), 0);
  for (uint32_t d = 0; d < dense.size(); ++d) {
    if (dense[d] != 0) AddToDomain(k, d, dense[d]);
  }
}

void DomainCounts::AddToDomain(size_t k, uint32_t d, int64_t delta) {
  Key& key = keys_[k];
  if (d >= key.counts.size()) key.counts.resize(std::max<size_t>(d + 1, key.domains->bound()), 0);
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

bool DomainCounts::Covers(const DomainCounts& a, const DomainCounts& b) {
  for (const Key& k : a.keys_) {
    const std::vector<int64_t> mine = k.Dense();
    const Key* other = b.Find(k.key);
    const std::vector<int64_t> theirs = other == nullptr ? std::vector<int64_t>() : other->Dense();
    for (size_t d = 0; d < mine.size(); ++d) {
      if (mine[d] != 0 && (d >= theirs.size() || theirs[d] != mine[d])) return false;
    }
  }
  return true;
}

bool DomainCounts::operator==(const DomainCounts& o) const {
  return Covers(*this, o) && Covers(o, *this);
}

}  // namespace sched::interpodaffinity
