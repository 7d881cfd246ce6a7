#include "capi/engine.h"

#include <cstdio>
#include <utility>

#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/result_json.h"
#include "libsched/plugins/registry.h"
#include "sched/sched.h"

namespace sched::capi {
namespace {

constexpr uint32_t kKnownScheduleFlags =
    SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

}  // namespace

ApiStatus Engine::Create(std::string_view config_json, std::unique_ptr<Engine>* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(config_json, &doc));
  EngineConfig config;
  CAPI_RETURN_IF_ERROR(DecodeConfig(doc.get(), &config));
  out->reset(new Engine(config));
  return ApiStatus();
}

Engine::Engine(const EngineConfig& config) {
  for (const ProfileConfig& p : config.profiles) {
    Profile profile = NewDefaultProfile(p.scheduler_name, p.plugin_args);
    profile.set_percentage_of_nodes_to_score(p.percentage_of_nodes_to_score);
    schedulers_.emplace(p.scheduler_name,
                        std::make_unique<Scheduler>(std::move(profile), config.seed));
  }
}

ApiStatus Engine::Apply(std::string_view json, MallocString* summary) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  std::lock_guard<std::mutex> lock(mu_);
  ChangeSet changes;
  CAPI_RETURN_IF_ERROR(DecodeChanges(doc.get(), state_.interner(), &changes));
  // Allocate the output before mutating, so a failure leaves no trace.
  if (summary != nullptr) *summary = NewCString(ApplySummaryJson(changes.summary));
  Commit(changes);
  return ApiStatus();
}

void Engine::Commit(const ChangeSet& changes) {
  ClusterState::Batch batch(state_);
  for (const Change& c : changes.changes) {
    switch (c.op) {
      case Change::Op::kUpsertNode:
        state_.UpsertNode(c.node);
        break;
      case Change::Op::kRemoveNode:
        state_.RemoveNode(c.key);  // an unknown node is a no-op
        break;
      case Change::Op::kUpsertPod:
        state_.UpsertPod(c.pod);
        break;
      case Change::Op::kRemovePod:
        state_.RemovePod(c.key);  // an unknown pod is a no-op
        break;
      case Change::Op::kUpsertPdb:
        state_.UpsertPdb(c.pdb);
        break;
      case Change::Op::kRemovePdb:
        state_.RemovePdb(c.key);  // an unknown PDB is a no-op
        break;
      case Change::Op::kUpsertWorkload:
        state_.UpsertWorkload(c.workload);
        break;
      case Change::Op::kRemoveWorkload:
        state_.RemoveWorkload(c.workload_kind, c.key);  // unknown: a no-op
        break;
    }
  }
}

ApiStatus Engine::Schedule(std::string_view pod_json, uint32_t flags, MallocString* result) {
  if (const uint32_t unknown = flags & ~kKnownScheduleFlags; unknown != 0) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(unknown));
    return ApiStatus::InvalidCall(std::string("unknown flag bits ") + hex +
                                  " in sched_engine_schedule flags");
  }
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(pod_json, &doc));
  const JsonPath root;
  if (cJSON_IsObject(doc.get())) {
    std::string_view kind;
    CAPI_RETURN_IF_ERROR(GetString(doc.get(), "kind", root, &kind));
    if (!kind.empty() && kind != "Pod") return Unsupported(root.Child("kind"), kind, {"Pod"});
  }

  std::lock_guard<std::mutex> lock(mu_);
  DecodedPod decoded;
  CAPI_RETURN_IF_ERROR(DecodePod(doc.get(), root, state_.interner(), &decoded));
  std::shared_ptr<Pod>& pod = decoded.pod;
  const auto it = schedulers_.find(pod->scheduler_name);
  if (it == schedulers_.end()) {
    std::string msg = "no profile for schedulerName ";
    AppendJsonString(msg, pod->scheduler_name);
    return ApiStatus::Invalid(root.Child("spec").Child("schedulerName"), msg);
  }
  const ScheduleResult r = it->second->Schedule(*pod, state_);
  const bool assume = (flags & SCHED_SCHEDULE_ASSUME) && !r.node.empty();
  // Render and allocate before assuming: r points into the state, and a
  // failed allocation must leave the state unchanged.
  *result = NewCString(ScheduleResultJson(*pod, r, state_, flags, assume));
  if (assume) {
    pod->node_name = r.node;
    state_.AssumePod(std::move(pod));
  }
  return ApiStatus();
}

}  // namespace sched::capi
