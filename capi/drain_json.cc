#include "capi/drain_json.h"

#include <utility>

#include "capi/json_writer.h"

namespace sched::capi {

std::string DrainJson(const DrainResult& r) {
  JsonWriter w;
  w.BeginObject();
  w.Key("removable").Bool(r.removable);
  w.Key("nodes").BeginArray();
  for (const DrainNode& n : r.nodes) {
    w.BeginObject();
    w.Key("node").String(n.node);
    w.Key("removable").Bool(n.removable);
    w.Key("moved").Int(n.moved);
    w.Key("pending").Int(n.pending);
    w.Key("blocked").Int(n.blocked);
    w.Key("left").Int(n.left);
    w.EndObject();
  }
  w.EndArray();
  w.Key("pods").BeginArray();
  for (const DrainMove& m : r.moves) {
    w.BeginObject();
    w.Key("pod").String(m.pod);
    w.Key("from").String(m.from);
    if (m.node.empty()) {
      w.Key("node").Null();
      w.Key("message").String(m.message);
    } else {
      w.Key("node").String(m.node);
    }
    if (!m.blocking_pdb.empty()) w.Key("blockingPDB").String(m.blocking_pdb);
    w.EndObject();
  }
  w.EndArray();
  w.Key("left").BeginArray();
  for (const DrainLeft& l : r.left) {
    w.BeginObject();
    w.Key("pod").String(l.pod);
    w.Key("from").String(l.from);
    w.Key("reason").String(l.reason == DrainLeft::Reason::kMirrorPod ? "MirrorPod" : "DaemonSet");
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::move(w).str();
}

}  // namespace sched::capi
