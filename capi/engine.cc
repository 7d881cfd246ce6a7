#include "capi/engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "capi/capacity_json.h"
#include "capi/explain_json.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"
#include "capi/queue_json.h"
#include "capi/limits.h"
#include "capi/nodes_json.h"
#include "capi/result_json.h"
#include "libsched/plugins/registry.h"
#include "libsched/plugins/volume_binding.h"
#include "libsched/whatif/capacity.h"
#include "sched/sched.h"

namespace sched::capi {
namespace {

constexpr uint32_t kKnownScheduleFlags =
    SCHED_SCHEDULE_ASSUME | SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;
constexpr uint32_t kKnownRunFlags = SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES;

ApiStatus CheckFlags(uint32_t flags, uint32_t known, const char* function) {
  if (const uint32_t unknown = flags & ~known; unknown != 0) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%x", static_cast<unsigned>(unknown));
    return ApiStatus::InvalidCall(std::string("unknown flag bits ") + hex + " in " + function +
                                  " flags");
  }
  return ApiStatus();
}

// Diagnosis.UnschedulablePlugins: the plugins whose rejections the cycle
// recorded. Empty for an error, and when only a PreFilterResult excluded
// nodes (ScheduleResult does not name the restricting plugins).
std::set<std::string, std::less<>> RejectingPlugins(const ScheduleResult& r) {
  std::set<std::string, std::less<>> out;
  if (r.error) return out;
  for (const NodeFailure& f : r.failures) {
    if (f.status.IsRejected() && !f.status.plugin().empty()) out.emplace(f.status.plugin());
  }
  if (r.absent_status && r.absent_status->IsRejected() && !r.absent_status->plugin().empty()) {
    out.emplace(r.absent_status->plugin());
  }
  return out;
}

// Forgets, unless Keep() is called, the strings interned while it lives: a
// call that fails drops what it decoded, so nothing holds their ids, and a
// hostile caller cannot grow the interner with rejected input. A call that
// succeeds frees on its way out the strings nothing holds any more
// (declared before the call's objects, it ends after them).
class InternScope {
 public:
  explicit InternScope(Interner& in) : in_(in), mark_(in.Checkpoint()) {}
  ~InternScope() {
    if (!keep_) {
      in_.Rollback(mark_);
    } else {
      in_.Accept(mark_);
      in_.Collect();
    }
  }
  InternScope(const InternScope&) = delete;
  InternScope& operator=(const InternScope&) = delete;
  void Keep() { keep_ = true; }

 private:
  Interner& in_;
  const size_t mark_;
  bool keep_ = false;
};

}  // namespace

ApiStatus Engine::Create(std::string_view config_json, std::unique_ptr<Engine>* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(config_json, &doc));
  // Plugin args intern into the new engine's interner; a config that fails
  // to decode discards the engine.
  std::unique_ptr<Engine> engine(new Engine());
  EngineConfig config;
  CAPI_RETURN_IF_ERROR(DecodeConfig(doc.get(), engine->state_.interner(), &config));
  engine->Configure(config);
  *out = std::move(engine);
  return ApiStatus();
}

namespace {

// config.parallelism, defaulted and capped (capi/limits.h).
int Threads(int32_t parallelism) {
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  const int wanted = parallelism > 0 ? parallelism : std::max(hardware, 1);
  return std::min(wanted, kMaxParallelismThreads);
}

}  // namespace

void Engine::Configure(const EngineConfig& config) {
  parallelizer_ = std::make_unique<Parallelizer>(Threads(config.parallelism));
  QueueingHintMapPerProfile hints;
  for (const ProfileConfig& p : config.profiles) {
    Profile profile = BuildProfile(p.scheduler_name, p.plugins, p.plugin_args);
    profile.set_percentage_of_nodes_to_score(p.percentage_of_nodes_to_score);
    profile.set_run_all_filters(p.run_all_filters);
    auto s = std::make_unique<Scheduler>(std::move(profile), config.seed, parallelizer_.get());
    s->set_equivalence_cache(config.equivalence_cache);
    // The scheduler owns the profile, so hint functions may point into it.
    hints.emplace(p.scheduler_name, BuildProfileQueueingHints(s->profile(), state_.interner()));
    schedulers_.emplace(p.scheduler_name, std::move(s));
  }
  QueueOptions options;
  options.pod_initial_backoff = std::chrono::seconds(config.pod_initial_backoff_seconds);
  options.pod_max_backoff = std::chrono::seconds(config.pod_max_backoff_seconds);
  queue_ = std::make_unique<PriorityQueue>(clock_, std::move(hints), options);
}

ApiStatus Engine::Apply(std::string_view json, MallocString* summary) {
  ApplyDocument doc;
  CAPI_RETURN_IF_ERROR(ApplyDocument::Parse(json, &doc));
  std::lock_guard<std::mutex> lock(mu_);
  InternScope interned(state_.interner());
  ChangeSet changes;
  CAPI_RETURN_IF_ERROR(DecodeChanges(doc, state_.interner(), &changes));
  // Allocate the output before mutating, so a failure leaves no trace.
  if (summary != nullptr) *summary = NewCString(ApplySummaryJson(changes.summary));
  Commit(changes);
  interned.Keep();  // the state holds what was decoded
  return ApiStatus();
}

// One unit: out of memory part-way undoes the state's and the queue's
// changes (their Batches), so the call changes nothing.
void Engine::Commit(const ChangeSet& changes) {
  ClusterState::Batch batch(state_);
  PriorityQueue::Batch queue_batch(*queue_);
  for (const Change& c : changes.changes) CommitOne(c);
  batch.Commit();  // may fail (rebuilding the node list): then both undo
  queue_batch.Commit();
}

// The informer handlers of pkg/scheduler/eventhandlers.go with queueing
// hints on: each cache change becomes the cluster events the queue expects.
void Engine::CommitOne(const Change& c) {
  switch (c.op) {
    case Change::Op::kUpsertNode: {
      const NodeInfo* old = state_.FindNode(c.node->name);
      const std::shared_ptr<const Node> old_node = old ? old->shared_node() : nullptr;
      state_.UpsertNode(c.node);
      if (old_node == nullptr) {
        queue_->MoveAllToActiveOrBackoffQueue(events::kNodeAdd, {}, c.node);
      } else {
        for (const ClusterEvent& e : NodeSchedulingPropertiesChange(*c.node, *old_node)) {
          queue_->MoveAllToActiveOrBackoffQueue(e, old_node, c.node);
        }
      }
      break;
    }
    case Change::Op::kRemoveNode: {
      const NodeInfo* old = state_.FindNode(c.key);
      if (old != nullptr) {
        queue_->MoveAllToActiveOrBackoffQueue(events::kNodeDelete, old->shared_node(), {});
      }
      state_.RemoveNode(c.key);  // an unknown node is a no-op
      break;
    }
    case Change::Op::kUpsertPod: {
      const std::shared_ptr<const Pod> old = state_.GetPod(PodKey(*c.pod));
      state_.UpsertPod(c.pod);
      queue_->Delete(*c.pod);  // bound: no longer pending
      if (old == nullptr) {
        queue_->AssignedPodAdded(c.pod);
      } else {
        queue_->AssignedPodUpdated(old, c.pod);
      }
      break;
    }
    case Change::Op::kRemovePod: {
      const std::shared_ptr<const Pod> old = state_.GetPod(c.key);
      state_.RemovePod(c.key);  // an unknown pod is a no-op
      queue_->Delete(*c.pod);
      if (old != nullptr) queue_->AssignedPodDeleted(old);
      break;
    }
    case Change::Op::kQueuePod:
      // Only pods of this engine's profiles; an assumed pod is not pending.
      if (schedulers_.contains(c.pod->scheduler_name) && !state_.HasPod(PodKey(*c.pod))) {
        queue_->Add(c.pod);
      }
      break;
    case Change::Op::kUpsertPdb:
      state_.UpsertPdb(c.pdb);
      break;
    case Change::Op::kRemovePdb:
      state_.RemovePdb(c.key);  // an unknown PDB is a no-op
      break;
    case Change::Op::kUpsertNamespace:
      state_.UpsertNamespace(c.ns);
      break;
    case Change::Op::kRemoveNamespace:
      state_.RemoveNamespace(c.key);  // an unknown namespace is a no-op
      break;
    case Change::Op::kUpsertWorkload:
      state_.UpsertWorkload(c.workload);
      break;
    case Change::Op::kRemoveWorkload:
      state_.RemoveWorkload(c.workload_kind, c.key);  // unknown: a no-op
      break;
    case Change::Op::kUpsertPersistentVolume:
      VolumeEvent(EventResource::kPersistentVolume,
                  state_.FindPersistentVolume(c.key) != nullptr);
      state_.UpsertPersistentVolume(c.pv);
      break;
    case Change::Op::kRemovePersistentVolume:
      // No plugin registers for deletions of volume objects.
      state_.RemovePersistentVolume(c.key);
      break;
    case Change::Op::kUpsertPersistentVolumeClaim:
      VolumeEvent(EventResource::kPersistentVolumeClaim,
                  state_.FindPersistentVolumeClaim(c.pvc->ns, c.pvc->name) != nullptr);
      state_.UpsertPersistentVolumeClaim(c.pvc);
      break;
    case Change::Op::kRemovePersistentVolumeClaim:
      state_.RemovePersistentVolumeClaim(c.key);
      break;
    case Change::Op::kUpsertStorageClass:
      VolumeEvent(EventResource::kStorageClass, state_.FindStorageClass(c.key) != nullptr);
      state_.UpsertStorageClass(c.storage_class);
      break;
    case Change::Op::kRemoveStorageClass:
      state_.RemoveStorageClass(c.key);
      break;
    case Change::Op::kUpsertCSINode:
      VolumeEvent(EventResource::kCSINode, state_.FindCSINode(c.key) != nullptr);
      state_.UpsertCSINode(c.csi_node);
      break;
    case Change::Op::kRemoveCSINode:
      state_.RemoveCSINode(c.key);
      break;
  }
}

// The informer handlers of a volume object kind: an add, or an update when
// the object was known. The event carries no objects (the model's
// EventObject holds Nodes and Pods), so hints of these events queue.
void Engine::VolumeEvent(EventResource resource, bool known) {
  queue_->MoveAllToActiveOrBackoffQueue(
      ClusterEvent{resource, known ? action::kUpdate : action::kAdd, {}}, {}, {});
}

namespace {

// A pod object's "kind", if any, must be "Pod".
ApiStatus CheckPodKind(const cJSON* v, const JsonPath& at) {
  if (cJSON_IsObject(v)) {
    std::string_view kind;
    CAPI_RETURN_IF_ERROR(GetString(v, "kind", at, &kind));
    if (!kind.empty() && kind != "Pod") return Unsupported(at.Child("kind"), kind, {"Pod"});
  }
  return ApiStatus();
}

// Parses a document that is a pod.
ApiStatus ParsePodJson(std::string_view pod_json, JsonDoc* doc) {
  CAPI_RETURN_IF_ERROR(ParseJson(pod_json, doc));
  return CheckPodKind(doc->get(), JsonPath());
}

}  // namespace

ApiStatus Engine::DecodePodFor(const cJSON* v, const JsonPath& at, DecodedPod* decoded,
                               Scheduler** scheduler) {
  CAPI_RETURN_IF_ERROR(DecodePod(v, at, state_.interner(), decoded));
  const auto it = schedulers_.find(decoded->pod->scheduler_name);
  if (it == schedulers_.end()) {
    std::string msg = "no profile for schedulerName ";
    AppendJsonString(msg, decoded->pod->scheduler_name);
    return ApiStatus::Invalid(at.Child("spec").Child("schedulerName"), msg);
  }
  *scheduler = it->second.get();
  return ApiStatus();
}

ApiStatus Engine::Schedule(std::string_view pod_json, uint32_t flags, MallocString* result) {
  CAPI_RETURN_IF_ERROR(CheckFlags(flags, kKnownScheduleFlags, "sched_engine_schedule"));
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParsePodJson(pod_json, &doc));

  std::lock_guard<std::mutex> lock(mu_);
  InternScope interned(state_.interner());
  DecodedPod decoded;
  Scheduler* found = nullptr;
  CAPI_RETURN_IF_ERROR(DecodePodFor(doc.get(), JsonPath(), &decoded, &found));
  std::shared_ptr<Pod>& pod = decoded.pod;
  Scheduler& scheduler = *found;
  const std::mt19937_64 rng = scheduler.rng();
  const size_t start = scheduler.next_start_node_index();
  try {
    const ScheduleResult r = scheduler.Schedule(*pod, state_, queue_.get());
    const bool assume = (flags & SCHED_SCHEDULE_ASSUME) && !r.node.empty();
    // Render and allocate before assuming: r points into the state.
    *result = NewCString(ScheduleResultJson(*pod, r, state_, flags, assume));
    if (assume) {
      ClusterState::Batch batch(state_);
      PriorityQueue::Batch queue_batch(*queue_);
      queue_->Delete(*pod);  // an assumed pod is no longer pending
      pod->node_name = r.node;
      AssumePodVolumes(*pod, r.node, &state_);
      state_.AssumePod(std::move(pod));
      batch.Commit();
      queue_batch.Commit();
    }
  } catch (...) {  // out of memory, or a broken invariant (SCHED_INTERNAL)
    scheduler.Rewind(rng, start);
    throw;
  }
  // After the call can no longer fail: the cycle took its snapshot of the
  // node list (outside a Batch, so it records nothing and cannot throw).
  state_.SnapshotTaken();
  interned.Keep();  // the state may hold the pod (assume) and its ids
  return ApiStatus();
}

ApiStatus Engine::Explain(std::string_view pod_json, MallocString* result) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParsePodJson(pod_json, &doc));
  std::lock_guard<std::mutex> lock(mu_);
  // Never kept: the pod's strings go when the call ends (after `decoded`).
  InternScope interned(state_.interner());
  DecodedPod decoded;
  Scheduler* scheduler = nullptr;
  CAPI_RETURN_IF_ERROR(DecodePodFor(doc.get(), JsonPath(), &decoded, &scheduler));
  const Explanation e = scheduler->Explain(*decoded.pod, state_, queue_.get());
  *result = NewCString(ExplainJson(*decoded.pod, e));
  return ApiStatus();
}

ApiStatus Engine::Capacity(std::string_view request_json, MallocString* result) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(request_json, &doc));
  const JsonPath root;
  CAPI_RETURN_IF_ERROR(CheckFields(doc.get(), root, {"pod", "maxReplicas"}));
  const cJSON* pod_json = nullptr;
  CAPI_RETURN_IF_ERROR(Member(doc.get(), "pod", root, &pod_json));
  if (pod_json == nullptr) return Required(root.Child("pod"));
  CAPI_RETURN_IF_ERROR(CheckPodKind(pod_json, root.Child("pod")));
  int64_t max_replicas = kMaxCapacityReplicas;
  if (const cJSON* m = cJSON_GetObjectItemCaseSensitive(doc.get(), "maxReplicas");
      m != nullptr && !cJSON_IsNull(m)) {
    CAPI_RETURN_IF_ERROR(AsInt(m, root.Child("maxReplicas"), 1, kMaxCapacityReplicas,
                               &max_replicas));
  }
  std::lock_guard<std::mutex> lock(mu_);
  InternScope interned(state_.interner());  // never kept
  DecodedPod decoded;
  Scheduler* scheduler = nullptr;
  CAPI_RETURN_IF_ERROR(DecodePodFor(pod_json, root.Child("pod"), &decoded, &scheduler));
  if (!decoded.pod->node_name.empty()) {
    return ApiStatus::Invalid(root.Child("pod").Child("spec").Child("nodeName"),
                              "must be empty: a template of pending replicas");
  }
  const CapacityResult r =
      sched::Capacity(*scheduler, state_, queue_.get(), *decoded.pod, max_replicas);
  *result = NewCString(CapacityJson(*decoded.pod, r));
  return ApiStatus();
}

ApiStatus Engine::Run(uint32_t max_cycles, uint32_t flags, MallocString* result) {
  CAPI_RETURN_IF_ERROR(CheckFlags(flags, kKnownRunFlags, "sched_engine_run"));
  std::lock_guard<std::mutex> lock(mu_);
  // One unit, as Apply's; the schedulers' random sources and start
  // indexes go back too.
  std::vector<std::pair<Scheduler*, std::pair<std::mt19937_64, size_t>>> rewind;
  for (const auto& [name, s] : schedulers_) {
    rewind.push_back({s.get(), {s->rng(), s->next_start_node_index()}});
  }
  try {
    ClusterState::Batch batch(state_);
    PriorityQueue::Batch queue_batch(*queue_);
    *result = RunCycles(max_cycles, flags);
    batch.Commit();
    queue_batch.Commit();
  } catch (...) {
    for (auto& [s, saved] : rewind) s->Rewind(saved.first, saved.second);
    throw;
  }
  return ApiStatus();
}

MallocString Engine::RunCycles(uint32_t max_cycles, uint32_t flags) {
  queue_->Flush();
  std::string out = "{\"results\":[";
  // Without a bound, stop when activeQ is empty: Pop would otherwise take
  // backoffQ's head, and a pod that keeps failing there would spin forever.
  for (uint32_t n = 0; max_cycles == 0 ? queue_->NumActive() > 0 : n < max_cycles; ++n) {
    std::shared_ptr<QueuedPodInfo> p = queue_->Pop();
    if (p == nullptr) break;
    // Only pods of a profile are queued (CommitOne).
    const ScheduleResult r =
        schedulers_.at(p->pod->scheduler_name)->Schedule(*p->pod, state_, queue_.get());
    state_.SnapshotTaken();
    if (n > 0) out += ',';
    out += ScheduleResultJson(*p->pod, r, state_, flags, !r.node.empty());
    if (r.node.empty()) {
      if (!r.nominated_node.empty()) Nominate(*p, r.nominated_node);
      p->unschedulable_plugins = RejectingPlugins(r);
      // The pod was in flight, so it is in no queue: this cannot fail.
      (void)queue_->AddUnschedulableIfNotPresent(std::move(p));
      continue;
    }
    auto assumed = std::make_shared<Pod>(*p->pod);
    assumed->node_name = r.node;
    queue_->DeleteNominatedPodIfExists(*p->pod);
    queue_->Done(*p->pod);
    AssumePodVolumes(*assumed, r.node, &state_);
    state_.AssumePod(std::move(assumed));
  }
  out += "]}";
  return NewCString(out);
}

// The preemption executor's bookkeeping (framework/preemption/executor.go
// and preemption.go prepareCandidate), minus the API calls: the pod is
// nominated to the node, and lower-priority pods nominated there lose their
// nomination. Victims stay until the caller deletes them (sched_engine_apply),
// whose pod-delete events then move the pod.
void Engine::Nominate(QueuedPodInfo& p, const std::string& node) {
  for (const std::shared_ptr<const Pod>& other : queue_->NominatedPodsForNode(node)) {
    if (other->priority >= p.pod->priority) continue;
    auto cleared = std::make_shared<Pod>(*other);
    cleared->nominated_node_name.clear();
    queue_->DeleteNominatedPodIfExists(*other);
    queue_->Update(*other, std::move(cleared));
  }
  auto nominated = std::make_shared<Pod>(*p.pod);
  nominated->nominated_node_name = node;
  queue_->AddNominatedPod(nominated, node);
  p.pod = std::move(nominated);
}

ApiStatus Engine::AdvanceClock(uint64_t millis) {
  // Beyond ~292 years of nanoseconds the clock would overflow.
  constexpr uint64_t kMaxMillis = 9'000'000'000'000ULL;
  std::lock_guard<std::mutex> lock(mu_);
  if (millis > kMaxMillis || clock_.Now().count() / 1'000'000 > static_cast<int64_t>(kMaxMillis - millis)) {
    return ApiStatus::InvalidCall("sched_engine_advance_clock: the clock would pass " +
                                  std::to_string(kMaxMillis) + " ms");
  }
  clock_.Step(std::chrono::milliseconds(millis));
  try {
    PriorityQueue::Batch queue_batch(*queue_);
    queue_->Flush();
    queue_batch.Commit();
  } catch (...) {
    clock_.Step(-std::chrono::milliseconds(millis));  // the queue is back: the clock too
    throw;
  }
  return ApiStatus();
}

ApiStatus Engine::QueueJson(MallocString* result) {
  std::lock_guard<std::mutex> lock(mu_);
  *result = NewCString(capi::QueueJson(*queue_, clock_.Now()));
  return ApiStatus();
}

ApiStatus Engine::StatsJson(MallocString* result) {
  std::lock_guard<std::mutex> lock(mu_);
  // Summed over the profiles' schedulers.
  EcacheStats sum;
  bool on = false;
  for (const auto& [name, s] : schedulers_) {
    const EcacheStats* st = s->equivalence_cache_stats();
    if (st == nullptr) continue;
    on = true;
    sum.hits += st->hits;
    sum.misses += st->misses;
    sum.bypasses += st->bypasses;
    sum.score_bypasses += st->score_bypasses;
    sum.repairs += st->repairs;
    sum.reused += st->reused;
    sum.parked += st->parked;
  }
  JsonWriter w;
  w.BeginObject().Key("equivalenceCache").BeginObject();
  w.Key("enabled").Bool(on);
  w.Key("hits").Int(static_cast<int64_t>(sum.hits));
  w.Key("misses").Int(static_cast<int64_t>(sum.misses));
  w.Key("bypasses").Int(static_cast<int64_t>(sum.bypasses));
  w.Key("scoreBypasses").Int(static_cast<int64_t>(sum.score_bypasses));
  w.Key("repairs").Int(static_cast<int64_t>(sum.repairs));
  w.Key("reused").Int(static_cast<int64_t>(sum.reused));
  w.Key("parked").Int(static_cast<int64_t>(sum.parked));
  w.EndObject();
  w.Key("interner").BeginObject();
  const Interner& in = state_.interner();
  w.Key("strings").Int(static_cast<int64_t>(in.held()));
  w.Key("bytes").Int(static_cast<int64_t>(in.held_bytes()));
  w.Key("released").Int(static_cast<int64_t>(in.size() - in.held()));
  w.EndObject().EndObject();
  *result = NewCString(w.str());
  return ApiStatus();
}

ApiStatus Engine::NodesJson(std::string_view query, MallocString* result) {
  JsonDoc doc;
  if (!query.empty()) CAPI_RETURN_IF_ERROR(ParseJson(query, &doc));
  std::lock_guard<std::mutex> lock(mu_);
  // Never kept: the selector's strings go when the call ends (after
  // `atoms`, declared later), so a query leaves the interner as it was.
  InternScope interned(state_.interner());
  NodeQuery q;
  AtomHold atoms;
  if (doc != nullptr) {
    CAPI_RETURN_IF_ERROR(DecodeNodeQuery(doc.get(), state_.interner(), &q, &atoms));
  }
  *result = NewCString(capi::NodesJson(QueryNodes(state_, q), state_.interner()));
  return ApiStatus();
}

uint64_t Engine::ClusterDigest() { return Digest(DigestScope::kCluster); }

uint64_t Engine::StateDigest() { return Digest(DigestScope::kAll); }

uint64_t Engine::Digest(DigestScope scope) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<const Scheduler*> schedulers;
  for (const auto& [name, s] : schedulers_) schedulers.push_back(s.get());
  return capi::StateDigest(state_, schedulers, queue_.get(), clock_.Now(), scope);
}

}  // namespace sched::capi
