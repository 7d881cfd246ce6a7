#include "capi/state_digest.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sched::capi {
namespace {

// Appends fixed-width integers and length-prefixed strings, so that no two
// different states encode to the same bytes.
class Encoder {
 public:
  explicit Encoder(const Interner& in) : in_(in) {}

  const std::string& bytes() const { return out_; }

  void U64(uint64_t v) { out_.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void I64(int64_t v) { U64(static_cast<uint64_t>(v)); }
  void Str(std::string_view s) {
    U64(s.size());
    out_.append(s);
  }
  std::string_view Name(Atom a) const { return a == kNoAtom ? std::string_view() : in_.Str(a); }
  void AtomStr(Atom a) {
    U64(a == kNoAtom ? 0 : 1);
    Str(Name(a));
  }
  template <class T, class Fn>
  void List(const std::vector<T>& v, Fn&& fn) {
    U64(v.size());
    for (const T& e : v) fn(e);
  }
  // A set of strings: sorted, so that interning order does not show.
  void StrSet(std::vector<std::string_view> v) {
    std::sort(v.begin(), v.end());
    List(v, [&](std::string_view s) { Str(s); });
  }

  void Labels(const LabelSet& labels) {
    std::vector<std::pair<std::string_view, std::string_view>> kv;
    for (const auto& [k, v] : labels.entries()) kv.emplace_back(Name(k), Name(v));
    std::sort(kv.begin(), kv.end());
    List(kv, [&](const auto& e) {
      Str(e.first);
      Str(e.second);
    });
  }

  void Res(const Resource& r) {
    I64(r.milli_cpu);
    I64(r.memory);
    I64(r.ephemeral_storage);
    I64(r.allowed_pods);
    std::vector<std::pair<std::string_view, int64_t>> scalar;
    for (const auto& [name, v] : r.scalar) {
      if (v != 0) scalar.emplace_back(Name(name), v);
    }
    std::sort(scalar.begin(), scalar.end());
    List(scalar, [&](const auto& e) {
      Str(e.first);
      I64(e.second);
    });
  }

  void Req(const Requirement& r) {
    AtomStr(r.key);
    U64(static_cast<uint64_t>(r.op));
    std::vector<std::string_view> values;
    for (Atom v : r.values) values.push_back(Name(v));
    StrSet(std::move(values));
    I64(r.number);
    U64(r.valid);
  }

  void Term(const NodeSelectorTerm& t) {
    List(t.match_expressions, [&](const Requirement& r) { Req(r); });
    List(t.match_fields, [&](const Requirement& r) { Req(r); });
    U64(t.valid);
  }

  void PodFields(const Pod& p) {
    Str(p.ns);
    Str(p.name);
    Str(p.uid);
    Str(p.node_name);
    Str(p.scheduler_name);
    Str(p.nominated_node_name);
    I64(p.priority);
    Str(p.creation_timestamp);
    Labels(p.labels);
    List(p.node_selector, [&](const Requirement& r) { Req(r); });
    U64(p.required_node_affinity.has_value());
    if (p.required_node_affinity) {
      List(p.required_node_affinity->terms, [&](const NodeSelectorTerm& t) { Term(t); });
    }
    List(p.preferred_node_affinity, [&](const PreferredSchedulingTerm& t) {
      I64(t.weight);
      Term(t.preference);
    });
    List(p.tolerations, [&](const Toleration& t) {
      AtomStr(t.key);
      U64(static_cast<uint64_t>(t.op));
      AtomStr(t.value);
      U64(static_cast<uint64_t>(t.effect));
    });
    Res(p.requests);
    I64(p.non_zero_requests.milli_cpu);
    I64(p.non_zero_requests.memory);
    List(p.host_ports, [&](const HostPort& hp) { Port(hp); });
    List(p.images, [&](Atom a) { AtomStr(a); });
    I64(p.num_containers);
    U64(p.terminating);
  }

  void Port(const HostPort& hp) {
    Str(hp.ip);
    U64(static_cast<uint64_t>(hp.protocol));
    I64(hp.port);
  }

  void NodeFields(const Node& n, const ClusterState& state, const NodeInfo& info) {
    Str(n.name);
    Labels(n.labels);
    List(n.taints, [&](const Taint& t) {
      AtomStr(t.key);
      AtomStr(t.value);
      U64(static_cast<uint64_t>(t.effect));
    });
    U64(n.unschedulable);
    Res(n.allocatable);
    // With each image name, the aggregates derived from it.
    List(n.images, [&](const ContainerImage& img) {
      I64(img.size_bytes);
      List(img.names, [&](Atom a) {
        AtomStr(a);
        I64(info.ImageSize(a).value_or(-1));
        I64(state.ImageNumNodes(a));
      });
    });
  }

  void Info(const std::string& name, const NodeInfo& info, const ClusterState& state) {
    Str(name);
    U64(info.node() != nullptr);
    if (info.node() != nullptr) NodeFields(*info.node(), state, info);
    List(info.pods(), [&](const std::shared_ptr<const Pod>& p) { PodFields(*p); });
    Res(info.requested());
    I64(info.non_zero_requested().milli_cpu);
    I64(info.non_zero_requested().memory);
    List(info.used_ports(), [&](const HostPort& hp) { Port(hp); });
  }

 private:
  const Interner& in_;
  std::string out_;
};

}  // namespace

uint64_t StateDigest(const ClusterState& state, std::span<const Scheduler* const> schedulers,
                     DigestScope scope) {
  Encoder e(state.interner());
  e.U64(state.NumNodes());
  e.U64(state.NumPods());
  e.U64(state.generation());
  e.U64(state.interner().size());
  std::vector<const std::string*> names;
  for (const auto& [name, info] : state.node_infos()) names.push_back(&name);
  std::sort(names.begin(), names.end(), [](auto* a, auto* b) { return *a < *b; });
  e.List(names,
         [&](const std::string* name) { e.Info(*name, *state.node_infos().at(*name), state); });
  if (scope == DigestScope::kAll) {
    e.List(state.NodeList(), [&](const NodeInfo* n) { e.Str(n->node()->name); });
    e.U64(schedulers.size());
    for (const Scheduler* s : schedulers) {
      e.Str(s->profile().scheduler_name());
      e.I64(s->profile().percentage_of_nodes_to_score());
      std::ostringstream rng;  // the engine's full state, as the standard defines its text form
      rng << s->rng();
      e.Str(rng.str());
      e.U64(s->next_start_node_index());
    }
  }
  return XXH3_64bits(e.bytes().data(), e.bytes().size());
}

}  // namespace sched::capi
