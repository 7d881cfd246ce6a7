#include "libsched/model/workload.h"

namespace sched {

std::string_view WorkloadKindName(WorkloadKind k) {
  switch (k) {
    case WorkloadKind::kService:
      return "Service";
    case WorkloadKind::kReplicationController:
      return "ReplicationController";
    case WorkloadKind::kReplicaSet:
      return "ReplicaSet";
    case WorkloadKind::kStatefulSet:
      return "StatefulSet";
  }
  return "";
}

}  // namespace sched
