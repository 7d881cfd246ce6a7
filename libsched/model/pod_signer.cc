#include "libsched/model/pod_signer.h"

#include <algorithm>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace sched {

void PodSigner::Grow(size_t n) {
  buf_.resize(std::max(2 * buf_.size(), len_ + n + 256));
}

void PodSigner::Add(std::string_view s) {
  Add(static_cast<int64_t>(s.size()));
  if (!s.empty()) std::memcpy(Room(s.size()), s.data(), s.size());
}

void PodSigner::Add(const Resource& r) {
  Add(r.milli_cpu);
  Add(r.memory);
  Add(r.ephemeral_storage);
  Add(r.allowed_pods);
  Add(static_cast<int64_t>(r.scalar.size()));
  for (const auto& [name, v] : r.scalar) {
    Add(static_cast<int64_t>(name));
    Add(v);
  }
}

void PodSigner::Add(const Requirement& r) {
  Add(static_cast<int64_t>(r.key));
  Add(static_cast<int64_t>(r.op));
  Add(static_cast<int64_t>(r.values.size()));
  for (Atom v : r.values) Add(static_cast<int64_t>(v));
  Add(r.number);
  Add(static_cast<int64_t>(r.valid));
}

void PodSigner::Add(const NodeSelectorTerm& t) {
  AddAll(std::span<const Requirement>(t.match_expressions));
  AddAll(std::span<const Requirement>(t.match_fields));
  Add(static_cast<int64_t>(t.valid));
}

void PodSigner::Add(const std::optional<NodeSelector>& s) {
  Add(static_cast<int64_t>(s.has_value()));
  if (s) AddAll(std::span<const NodeSelectorTerm>(s->terms));
}

void PodSigner::Add(const PreferredSchedulingTerm& t) {
  Add(static_cast<int64_t>(t.weight));
  Add(t.preference);
}

void PodSigner::Add(const Toleration& t) {
  Add(static_cast<int64_t>(t.key));
  Add(static_cast<int64_t>(t.op));
  Add(static_cast<int64_t>(t.value));
  Add(static_cast<int64_t>(t.effect));
}

void PodSigner::Add(const HostPort& p) {
  Add(p.ip);
  Add(static_cast<int64_t>(p.protocol));
  Add(static_cast<int64_t>(p.port));
}

void PodSigner::Add(const LabelSelector& s) {
  AddAll(std::span<const Requirement>(s.requirements));
  Add(static_cast<int64_t>(s.valid));
}

void PodSigner::Add(const AffinityTerm& t) {
  AddAll(std::span<const Atom>(t.namespaces));
  for (const std::optional<LabelSelector>* sel : {&t.selector, &t.namespace_selector}) {
    Add(static_cast<int64_t>(sel->has_value()));
    if (sel->has_value()) Add(**sel);
  }
  Add(static_cast<int64_t>(t.topology_key));
}

uint64_t PodSigner::Finish() const { return XXH3_64bits(buf_.data(), len_); }

}  // namespace sched
