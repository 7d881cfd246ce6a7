#include "capi/nodes_json.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "capi/json_writer.h"

namespace sched::capi {
namespace {

// Writes (name, value) pairs of interned names sorted by name, so the
// output does not depend on the order strings were interned in.
template <class Pairs, class Write>
void SortedByName(JsonWriter& w, const Pairs& pairs, const Interner& in, Write&& write) {
  std::vector<std::pair<std::string_view, size_t>> order;
  order.reserve(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) order.emplace_back(in.Str(pairs[i].first), i);
  std::sort(order.begin(), order.end());
  w.BeginObject();
  for (const auto& [name, i] : order) write(w.Key(name), pairs[i].second);
  w.EndObject();
}

void WriteResource(JsonWriter& w, const Resource& r, const Interner& in) {
  w.BeginObject();
  w.Key("milliCPU").Int(r.milli_cpu);
  w.Key("memory").Int(r.memory);
  w.Key("ephemeralStorage").Int(r.ephemeral_storage);
  w.Key("allowedPodNumber").Int(r.allowed_pods);
  w.Key("scalarResources");
  SortedByName(w, r.scalar, in, [](JsonWriter& w, int64_t v) { w.Int(v); });
  w.EndObject();
}

}  // namespace

std::string NodesJson(const std::vector<const NodeInfo*>& nodes, const Interner& interner) {
  JsonWriter w;
  w.BeginObject().Key("nodes").BeginArray();
  for (const NodeInfo* ni : nodes) {
    const Node& node = *ni->node();
    w.BeginObject();
    w.Key("name").String(node.name);
    w.Key("labels");
    SortedByName(w, node.labels.entries(), interner,
                 [&](JsonWriter& w, Atom value) { w.String(interner.Str(value)); });
    w.Key("allocatable");
    WriteResource(w, node.allocatable, interner);
    w.Key("requested");
    WriteResource(w, ni->requested(), interner);
    w.Key("nonZeroRequested").BeginObject();
    w.Key("milliCPU").Int(ni->non_zero_requested().milli_cpu);
    w.Key("memory").Int(ni->non_zero_requested().memory);
    w.EndObject();
    w.Key("podCount").Int(static_cast<int64_t>(ni->pods().size()));
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.str();
}

}  // namespace sched::capi
