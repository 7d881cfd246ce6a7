// The sched_engine_nodes document: per-node allocatable and requested
// resources (Engine::Session::Nodes).
#ifndef CAPI_NODES_JSON_H_
#define CAPI_NODES_JSON_H_

#include <string>
#include <vector>

#include "libsched/engine/reports.h"

namespace sched::capi {

// {"nodes":[{"name":"n1","labels":{"k":"v",...},"allocatable":<resource>,
//  "requested":<resource>,"nonZeroRequested":{"milliCPU":N,"memory":N},
//  "podCount":N},...]}, nodes in the given order, labels and scalar
// resources sorted by name; <resource> is {"milliCPU":N,"memory":N,
// "ephemeralStorage":N,"allowedPodNumber":N,"scalarResources":{"name":N}}
// (framework.Resource's fields).
std::string NodesJson(const std::vector<NodeReport>& nodes);

}  // namespace sched::capi

#endif  // CAPI_NODES_JSON_H_
