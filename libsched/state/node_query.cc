#include "libsched/state/node_query.h"

#include <algorithm>

namespace sched {

std::vector<const NodeInfo*> QueryNodes(const ClusterState& state, const NodeQuery& q) {
  std::vector<const NodeInfo*> out;
  auto add = [&](const NodeInfo* ni) {
    if (!q.selector || q.selector->Matches(ni->node()->labels, state.interner())) {
      out.push_back(ni);
    }
  };
  if (q.names.empty()) {
    for (const NodeInfo* ni : state.NodeList()) add(ni);
  } else {
    for (const std::string& name : q.names) {
      if (const NodeInfo* ni = state.FindNode(name)) add(ni);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const NodeInfo* a, const NodeInfo* b) { return a->node()->name < b->node()->name; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace sched
