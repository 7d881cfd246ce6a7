#include "libsched/engine/engine.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>
#include <thread>
#include <utility>

#include "libsched/framework/same_views.h"
#include "libsched/plugins/dynamic_resources.h"
#include "libsched/plugins/registry.h"
#include "libsched/plugins/volume_binding.h"

namespace sched {
namespace {

// config.parallelism, defaulted and capped.
int Threads(int32_t parallelism) {
  const int hardware = static_cast<int>(std::thread::hardware_concurrency());
  const int wanted = parallelism > 0 ? parallelism : std::max(hardware, 1);
  return std::min(wanted, kMaxParallelismThreads);
}

// Diagnosis.UnschedulablePlugins: the plugins whose PreFilterResult left
// nodes out and those whose rejections the cycle recorded. Empty for an
// error.
std::set<std::string, std::less<>> RejectingPlugins(const ScheduleResult& r) {
  std::set<std::string, std::less<>> out;
  if (r.error) return out;
  out.insert(r.restricting_plugins.begin(), r.restricting_plugins.end());
  // Thousands of failures name a few plugins, mostly in long runs of one
  // (SameView of the plugin's name): the set is searched (then added to: a
  // node built only for a new name) only where the view changes.
  std::string_view last;
  auto add = [&out, &last](const Status& st) {
    const std::string_view p = st.plugin();
    if (!st.IsRejected() || p.empty() || SameView(p, last)) return;
    last = p;
    if (!out.contains(p)) out.emplace(p);
  };
  for (const NodeFailure& f : r.failures) add(f.status);
  if (r.absent_status) add(*r.absent_status);
  return out;
}

// The object stored under `key` as an event's old object; none if unknown.
template <typename T>
EventObject Known(const ClusterState::ByName<T>& objects, std::string_view key) {
  const auto it = objects.find(key);
  if (it == objects.end()) return {};
  return it->second;
}

}  // namespace

void Engine::Configure(const EngineConfig& config) {
  parallelizer_ = std::make_shared<Parallelizer>(Threads(config.parallelism));
  config_ = std::make_shared<const EngineConfig>(config);
  Build();
}

void Engine::Build() {
  const EngineConfig& config = *config_;
  QueueingHintMapPerProfile hints;
  for (const ProfileConfig& p : config.profiles) {
    Profile profile = BuildProfile(p.scheduler_name, p.plugins, p.plugin_args);
    profile.set_percentage_of_nodes_to_score(p.percentage_of_nodes_to_score);
    profile.set_run_all_filters(p.run_all_filters);
    auto s = std::make_unique<Scheduler>(std::move(profile), config.seed, parallelizer_.get());
    s->set_equivalence_cache(config.equivalence_cache);
    // The scheduler owns the profile, so hint functions may point into it.
    hints.emplace(p.scheduler_name, BuildProfileQueueingHints(s->profile(), *state_));
    schedulers_.emplace(p.scheduler_name, std::move(s));
  }
  QueueOptions options;
  options.pod_initial_backoff = std::chrono::seconds(config.pod_initial_backoff_seconds);
  options.pod_max_backoff = std::chrono::seconds(config.pod_max_backoff_seconds);
  queue_ = std::make_unique<PriorityQueue>(clock_, std::move(hints), options);
  // DynamicResources' binding timeout reads this engine's clock.
  state_->set_clock([this] { return clock_.Now(); });
}

Engine::~Engine() {
  if (building_fork_) return;  // Fork's caller holds the lock; nothing is open
  {
    Session s(*this);
    while (s.Revert()) {
    }
  }
  // The members go under the family's lock: freeing objects releases
  // strings of the interner a sibling may be using.
  dying_lock_ = std::unique_lock<std::mutex>(*mu_);
}

std::unique_ptr<Engine> Engine::Session::Fork() const {
  if (intern_mark_) throw std::logic_error("Engine::Session::Fork after interner()");
  const Engine& e = e_;
  std::unique_ptr<Engine> child(new Engine(e.mu_));
  child->building_fork_ = true;  // until it is whole: we hold its lock
  child->parallelizer_ = e.parallelizer_;
  child->config_ = e.config_;
  child->state_ = e.state_->Clone();
  child->Build();
  for (const auto& [name, s] : e.schedulers_) {
    child->schedulers_.at(name)->Rewind(s->rng(), s->next_start_node_index());
  }
  child->clock_.Step(e.clock_.Now() - child->clock_.Now());
  child->queue_->ForkFrom(*e.queue_);
  e.state_->interner().Share();
  child->building_fork_ = false;
  return child;
}

Engine::Session::Session(Engine& e) : e_(e), lock_(*e.mu_) {}

Interner& Engine::Session::interner() {
  Interner& in = e_.state_->interner();
  if (!intern_mark_) intern_mark_ = in.Checkpoint();
  return in;
}

// A session whose calls failed drops what it decoded, so nothing holds
// their ids; one that kept objects frees on its way out the strings
// nothing holds any more.
Engine::Session::~Session() {
  if (!intern_mark_) return;
  Interner& in = e_.state_->interner();
  if (!keep_interned_) {
    in.Rollback(*intern_mark_);
  } else {
    in.Accept(*intern_mark_);
    // Not while a transaction's checkpoint is open: Revert may still
    // forget its strings.
    if (e_.transactions_.empty()) in.Collect();
  }
}

void Engine::MarkSchedulers(std::vector<SchedulerMark>* marks) const {
  // Fields assigned in the storage's marks: one copy of each 2.5 KB mark
  // of a random source, where a pushed temporary would be copied and then
  // moved (a copy).
  marks->resize(schedulers_.size());
  size_t i = 0;
  for (const auto& [name, s] : schedulers_) {
    SchedulerMark& m = (*marks)[i++];
    m.scheduler = s.get();
    s->rng().Save(&m.rng);
    m.next_start_node_index = s->next_start_node_index();
  }
}

void Engine::Rewind(const std::vector<SchedulerMark>& marks) {
  for (const SchedulerMark& m : marks) m.scheduler->Rewind(m.rng, m.next_start_node_index);
}

void Engine::Session::Begin() {
  if (intern_mark_) throw std::logic_error("Engine::Session::Begin after interner()");
  Engine& e = e_;
  Transaction t;
  e.MarkSchedulers(&t.schedulers);
  t.clock = e.clock_.Now();
  e.transactions_.reserve(e.transactions_.size() + 1);  // push_back below cannot throw
  t.state = std::make_unique<ClusterState::Batch>(*e.state_);
  t.queue = std::make_unique<PriorityQueue::Batch>(*e.queue_);
  t.intern_mark = e.state_->interner().Checkpoint();
  e.transactions_.push_back(std::move(t));
}

bool Engine::Session::Commit() {
  if (intern_mark_) throw std::logic_error("Engine::Session::Commit after interner()");
  Engine& e = e_;
  if (e.transactions_.empty()) return false;
  Transaction& t = e.transactions_.back();
  // Every call inside rebuilt the node list when it committed, so this
  // cannot fail.
  t.state->Commit();
  t.queue->Commit();
  Interner& in = e.state_->interner();
  in.Accept(t.intern_mark);
  e.transactions_.pop_back();
  if (e.transactions_.empty()) in.Collect();
  return true;
}

bool Engine::Session::Revert() {
  if (intern_mark_) throw std::logic_error("Engine::Session::Revert after interner()");
  Engine& e = e_;
  if (e.transactions_.empty()) return false;
  Transaction& t = e.transactions_.back();
  t.queue.reset();  // rolls back, newest first
  t.state.reset();
  Rewind(t.schedulers);
  e.clock_.Step(t.clock - e.clock_.Now());
  // Nothing in the engine holds the transaction's strings any more.
  e.state_->interner().Rollback(t.intern_mark);
  e.transactions_.pop_back();
  return true;
}

// One unit: out of memory part-way undoes the state's and the queue's
// changes (their Batches), so the call changes nothing.
void Engine::Session::Apply(std::span<const Change> changes) {
  ClusterState::Batch batch(*e_.state_);
  PriorityQueue::Batch queue_batch(*e_.queue_);
  for (const Change& c : changes) e_.CommitOne(c);
  batch.Commit();  // may fail (rebuilding the node list): then both undo
  queue_batch.Commit();
  keep_interned_ = true;  // the state holds what was decoded
}

// The informer handlers of pkg/scheduler/eventhandlers.go with queueing
// hints on: each cache change becomes the cluster events the queue expects.
void Engine::CommitOne(const Change& c) {
  switch (c.op) {
    case Change::Op::kUpsertNode: {
      const NodeInfo* old = state_->FindNode(c.node->name);
      const std::shared_ptr<const Node> old_node = old ? old->shared_node() : nullptr;
      state_->UpsertNode(c.node);
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
      const NodeInfo* old = state_->FindNode(c.key);
      if (old != nullptr) {
        queue_->MoveAllToActiveOrBackoffQueue(events::kNodeDelete, old->shared_node(), {});
      }
      state_->RemoveNode(c.key);  // an unknown node is a no-op
      break;
    }
    case Change::Op::kUpsertPod: {
      const std::shared_ptr<const Pod> old = state_->GetPod(PodKey(*c.pod));
      state_->UpsertPod(c.pod);
      queue_->Delete(*c.pod);  // bound: no longer pending
      if (old == nullptr) {
        queue_->AssignedPodAdded(c.pod);
      } else {
        queue_->AssignedPodUpdated(old, c.pod);
      }
      break;
    }
    case Change::Op::kRemovePod: {
      const std::shared_ptr<const Pod> old = state_->GetPod(c.key);
      state_->RemovePod(c.key);  // an unknown pod is a no-op
      DropAssumedExtendedClaim(c.pod->ns, c.pod->name, state_.get());
      queue_->Delete(*c.pod);
      if (old != nullptr) queue_->AssignedPodDeleted(old);
      break;
    }
    case Change::Op::kQueuePod: {
      // Only pods of this engine's profiles; an assumed pod is not pending.
      if (!schedulers_.contains(c.pod->scheduler_name)) break;
      std::string key = PodKey(*c.pod);
      if (!state_->HasPod(key)) queue_->Add(c.pod, std::move(key));
      break;
    }
    case Change::Op::kUpsertPdb:
      state_->UpsertPdb(c.pdb);
      break;
    case Change::Op::kRemovePdb:
      state_->RemovePdb(c.key);  // an unknown PDB is a no-op
      break;
    case Change::Op::kUpsertNamespace:
      state_->UpsertNamespace(c.ns);
      break;
    case Change::Op::kRemoveNamespace:
      state_->RemoveNamespace(c.key);  // an unknown namespace is a no-op
      break;
    case Change::Op::kUpsertWorkload:
      state_->UpsertWorkload(c.workload);
      break;
    case Change::Op::kRemoveWorkload:
      state_->RemoveWorkload(c.workload_kind, c.key);  // unknown: a no-op
      break;
    case Change::Op::kUpsertPersistentVolume:
      VolumeEvent(EventResource::kPersistentVolume, Known(state_->persistent_volumes(), c.key),
                  c.pv);
      state_->UpsertPersistentVolume(c.pv);
      break;
    case Change::Op::kRemovePersistentVolume:
      // No plugin registers for deletions of volume objects.
      state_->RemovePersistentVolume(c.key);
      break;
    case Change::Op::kUpsertPersistentVolumeClaim:
      VolumeEvent(EventResource::kPersistentVolumeClaim,
                  Known(state_->persistent_volume_claims(), c.pvc->ns + "/" + c.pvc->name), c.pvc);
      state_->UpsertPersistentVolumeClaim(c.pvc);
      break;
    case Change::Op::kRemovePersistentVolumeClaim:
      state_->RemovePersistentVolumeClaim(c.key);
      break;
    case Change::Op::kUpsertStorageClass:
      VolumeEvent(EventResource::kStorageClass, Known(state_->storage_classes(), c.key),
                  c.storage_class);
      state_->UpsertStorageClass(c.storage_class);
      break;
    case Change::Op::kRemoveStorageClass:
      state_->RemoveStorageClass(c.key);
      break;
    case Change::Op::kUpsertCSINode:
      VolumeEvent(EventResource::kCSINode, Known(state_->csi_nodes(), c.key), c.csi_node);
      state_->UpsertCSINode(c.csi_node);
      break;
    case Change::Op::kRemoveCSINode:
      state_->RemoveCSINode(c.key);
      break;
    case Change::Op::kUpsertCSIDriver:
      VolumeEvent(EventResource::kCSIDriver, Known(state_->csi_drivers(), c.key), c.csi_driver);
      state_->UpsertCSIDriver(c.csi_driver);
      break;
    case Change::Op::kRemoveCSIDriver:
      state_->RemoveCSIDriver(c.key);
      break;
    case Change::Op::kUpsertCSIStorageCapacity:
      VolumeEvent(EventResource::kCSIStorageCapacity,
                  Known(state_->csi_storage_capacities(), c.key), c.csi_storage_capacity);
      state_->UpsertCSIStorageCapacity(c.csi_storage_capacity);
      break;
    case Change::Op::kRemoveCSIStorageCapacity:
      state_->RemoveCSIStorageCapacity(c.key);
      break;
    case Change::Op::kUpsertVolumeAttachment:
      state_->UpsertVolumeAttachment(c.volume_attachment);  // no plugin registers Add/Update
      break;
    case Change::Op::kUpsertResourceClaim: {
      // Upsert first: the hints read the claims as the listers then hold them.
      EventObject old = Known(state_->resource_claims(), c.key);
      // The caller's claim for a pod's extended resources replaces the one
      // AssumePodClaims assumed.
      if (c.resource_claim->extended_resource_claim) {
        DropAssumedExtendedClaim(c.resource_claim->ns, c.resource_claim->controller_name,
                                 state_.get());
      }
      state_->UpsertResourceClaim(c.resource_claim);
      VolumeEvent(EventResource::kResourceClaim, std::move(old), c.resource_claim);
      break;
    }
    case Change::Op::kRemoveResourceClaim:
      // DynamicResources registers no deletions.
      state_->RemoveResourceClaim(c.key);
      break;
    case Change::Op::kUpsertResourceClaimTemplate:
      state_->UpsertResourceClaimTemplate(c.resource_claim_template);  // no plugin registers it
      break;
    case Change::Op::kRemoveResourceClaimTemplate:
      state_->RemoveResourceClaimTemplate(c.key);
      break;
    case Change::Op::kUpsertDeviceClass: {
      EventObject old = Known(state_->device_classes(), c.key);
      state_->UpsertDeviceClass(c.device_class);
      VolumeEvent(EventResource::kDeviceClass, std::move(old), c.device_class);
      break;
    }
    case Change::Op::kRemoveDeviceClass:
      state_->RemoveDeviceClass(c.key);
      break;
    case Change::Op::kUpsertResourceSlice: {
      EventObject old = Known(state_->resource_slices(), c.key);
      state_->UpsertResourceSlice(c.resource_slice);
      VolumeEvent(EventResource::kResourceSlice, std::move(old), c.resource_slice);
      break;
    }
    case Change::Op::kRemoveResourceSlice:
      state_->RemoveResourceSlice(c.key);
      break;
    case Change::Op::kRemoveVolumeAttachment: {
      EventObject old = Known(state_->volume_attachments(), c.key);
      if (state_->RemoveVolumeAttachment(c.key)) {
        queue_->MoveAllToActiveOrBackoffQueue(
            ClusterEvent{EventResource::kVolumeAttachment, action::kDelete, {}}, old, {});
      }
      break;
    }
  }
}

// The informer handlers of a volume object kind: an add, or an update when
// the object was known; the event carries the old and new objects to the
// plugins' hints.
void Engine::VolumeEvent(EventResource resource, EventObject old_obj, EventObject new_obj) {
  const ActionType a =
      std::holds_alternative<std::monostate>(old_obj) ? action::kAdd : action::kUpdate;
  queue_->MoveAllToActiveOrBackoffQueue(ClusterEvent{resource, a, {}}, old_obj, new_obj);
}

PodResult Engine::Session::Schedule(std::shared_ptr<Pod> pod, const ScheduleOptions& options,
                                    const ResultsHook& before_commit) {
  Engine& e = e_;
  Scheduler& scheduler = *e.schedulers_.at(pod->scheduler_name);
  Mt19937_64::Mark rng;
  scheduler.rng().Save(&rng);
  const size_t start = scheduler.next_start_node_index();
  PodResult result;
  try {
    ScheduleResult r = scheduler.Schedule(*pod, *e.state_, e.queue_.get(), ScoresFor(options));
    const bool assume = options.assume && !r.node.empty();
    // Before assuming: r points into the state.
    result = MakePodResult(PodKey(*pod), r, *e.state_, options, assume);
    if (before_commit) before_commit(std::span<const PodResult>(&result, 1));
    ClusterState::Batch batch(*e.state_);
    PriorityQueue::Batch queue_batch(*e.queue_);
    if (assume) {
      e.queue_->Delete(*pod);  // an assumed pod is no longer pending
      pod->node_name = r.node;
      AssumePodVolumes(*pod, r.node, e.state_.get());
      AssumePodClaims(*pod, r.node, e.state_.get());
      e.state_->AssumePod(std::move(pod));
    }
    // The cycle took its snapshot of the node list (undoable: inside a
    // transaction a later Revert puts it back).
    e.state_->SnapshotTaken();
    batch.Commit();
    queue_batch.Commit();
    scheduler.Recycle(std::move(r));
  } catch (...) {  // out of memory, or a broken invariant (SCHED_INTERNAL)
    scheduler.Rewind(rng, start);
    throw;
  }
  keep_interned_ = true;  // the state may hold the pod (assume) and its ids
  return result;
}

std::vector<PodResult> Engine::Session::Run(uint32_t max_cycles, const ScheduleOptions& options,
                                            const ResultsHook& before_commit) {
  Engine& e = e_;
  // One unit, as Apply's; the schedulers' random sources and start
  // indexes go back too.
  const CallMarks rewind(e);
  std::vector<PodResult> results;
  try {
    ClusterState::Batch batch(*e.state_);
    PriorityQueue::Batch queue_batch(*e.queue_);
    results = e.RunCycles(max_cycles, options);
    if (before_commit) before_commit(results);
    batch.Commit();
    queue_batch.Commit();
  } catch (...) {
    rewind.Rewind();
    throw;
  }
  return results;
}

std::vector<PodResult> Engine::RunCycles(uint32_t max_cycles, const ScheduleOptions& options) {
  queue_->Flush();
  std::vector<PodResult> results;
  // Without a bound, stop when activeQ is empty: Pop would otherwise take
  // backoffQ's head, and a pod that keeps failing there would spin forever.
  for (uint32_t n = 0; max_cycles == 0 ? queue_->NumActive() > 0 : n < max_cycles; ++n) {
    std::shared_ptr<QueuedPodInfo> p = queue_->Pop();
    if (p == nullptr) break;
    // Only pods of a profile are queued (CommitOne).
    Scheduler& scheduler = *schedulers_.at(p->pod->scheduler_name);
    ScheduleResult r = scheduler.Schedule(*p->pod, *state_, queue_.get(), ScoresFor(options));
    state_->SnapshotTaken();
    results.push_back(MakePodResult(p->key, r, *state_, options, !r.node.empty()));
    if (r.node.empty()) {
      if (!r.nominated_node.empty()) Nominate(*p, r.nominated_node);
      // Undone by Pop's records (undo::SaveMember of attempts, pod and
      // unschedulable_plugins): a field written here after Pop must be one.
      p->unschedulable_plugins = RejectingPlugins(r);
      // The pod was in flight, so it is in no queue: this cannot fail.
      (void)queue_->AddUnschedulableIfNotPresent(std::move(p));
    } else {
      auto assumed = std::make_shared<Pod>(*p->pod);
      assumed->node_name = r.node;
      queue_->DeleteNominatedPodIfExists(*p->pod);
      queue_->Done(*p);
      AssumePodVolumes(*assumed, r.node, state_.get());
      AssumePodClaims(*assumed, r.node, state_.get());
      state_->AssumePod(std::move(assumed));
    }
    scheduler.Recycle(std::move(r));
  }
  return results;
}

// The preemption executor's bookkeeping (framework/preemption/executor.go
// and preemption.go prepareCandidate), minus the API calls: the pod is
// nominated to the node, and lower-priority pods nominated there lose their
// nomination. Victims stay until the caller deletes them (Apply), whose
// pod-delete events then move the pod.
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

bool Engine::Session::AdvanceClock(uint64_t millis) {
  Engine& e = e_;
  if (millis > kMaxClockMillis ||
      e.clock_.Now().count() / 1'000'000 > static_cast<int64_t>(kMaxClockMillis - millis)) {
    return false;
  }
  e.clock_.Step(std::chrono::milliseconds(millis));
  try {
    PriorityQueue::Batch queue_batch(*e.queue_);
    e.queue_->Flush();
    queue_batch.Commit();
  } catch (...) {
    e.clock_.Step(-std::chrono::milliseconds(millis));  // the queue is back: the clock too
    throw;
  }
  return true;
}

Explanation Engine::Session::Explain(const Pod& pod) const {
  return e_.schedulers_.at(pod.scheduler_name)->Explain(pod, *e_.state_, e_.queue_.get());
}

CapacityResult Engine::Session::Capacity(const Pod& tmpl, int64_t max_replicas) {
  return sched::Capacity(*e_.schedulers_.at(tmpl.scheduler_name), *e_.state_, e_.queue_.get(), tmpl,
                         max_replicas);
}

ScheduleResult Engine::Session::PrioritizeNodes(const Pod& pod,
                                                std::span<const std::string> nodes) {
  Scheduler& scheduler = *e_.schedulers_.at(pod.scheduler_name);
  ScheduleResult r;
  try {
    std::vector<const NodeInfo*> infos;
    infos.reserve(nodes.size());
    for (const std::string& name : nodes) infos.push_back(e_.state_->FindNode(name));
    r = scheduler.PrioritizeNodes(pod, *e_.state_, std::move(infos));
  } catch (...) {
    // The equivalence cache may hold entries keyed by ids the failed
    // call's rollback frees: dropped, as after a failed Schedule.
    scheduler.Rewind(scheduler.rng(), scheduler.next_start_node_index());
    throw;
  }
  // The cache's entry for the pod's class is keyed by its ids: kept, as
  // Schedule keeps them (released with the pod, reused only after
  // Collect moves the interner's reuse epoch).
  keep_interned_ = true;
  return r;
}

bool Engine::Session::HasNode(std::string_view name) const {
  const NodeInfo* n = e_.state_->FindNode(name);
  return n != nullptr && n->node() != nullptr;
}

DrainResult Engine::Session::Drain(std::span<const std::string> nodes) {
  Engine& e = e_;
  const CallMarks rewind(e);
  DrainResult out;
  try {
    out = sched::Drain(nodes, *e.state_, e.queue_.get(), [&](std::string_view name) -> Scheduler* {
      auto it = e.schedulers_.find(name);
      return it == e.schedulers_.end() ? nullptr : it->second.get();
    });
  } catch (...) {
    rewind.Rewind();
    throw;
  }
  rewind.Rewind();
  return out;
}

// Schedule's cycle and report, inside a Batch never committed (the cycle
// may note its snapshot of the node list) and with the random source and
// start index put back.
PodResult Engine::Session::Preempt(const Pod& pod) {
  Engine& e = e_;
  Scheduler& scheduler = *e.schedulers_.at(pod.scheduler_name);
  Mt19937_64::Mark rng;
  scheduler.rng().Save(&rng);
  const size_t start = scheduler.next_start_node_index();
  PodResult result;
  try {
    ClusterState::Batch batch(*e.state_);
    const ScheduleOptions options;
    const ScheduleResult r = scheduler.Schedule(pod, *e.state_, e.queue_.get(), ScoresFor(options));
    result = MakePodResult(PodKey(pod), r, *e.state_, options, false);
  } catch (...) {
    scheduler.Rewind(rng, start);
    throw;
  }
  scheduler.Rewind(rng, start);
  return result;
}

ScaleUpResult Engine::Session::ScaleUp(std::span<const std::shared_ptr<const Pod>> pods,
                                       std::span<const NodeTemplate> templates) {
  const CallMarks rewind(e_);
  auto scheduler_for = [&](const Pod& p) -> Scheduler& {
    return *e_.schedulers_.at(p.scheduler_name);
  };
  try {
    ScaleUpResult r = sched::ScaleUp(scheduler_for, *e_.state_, e_.queue_.get(), pods, templates);
    rewind.Rewind();
    return r;
  } catch (...) {
    rewind.Rewind();
    throw;
  }
}

QueueReport Engine::Session::Queue() const {
  return {e_.clock_.Now(), e_.queue_->SchedulingCycle(), e_.queue_->Snapshot()};
}

EngineStats Engine::Session::Stats() const {
  EngineStats out;
  for (const auto& [name, s] : e_.schedulers_) {
    const EcacheStats* st = s->equivalence_cache_stats();
    if (st == nullptr) continue;
    out.ecache_enabled = true;
    out.ecache.hits += st->hits;
    out.ecache.misses += st->misses;
    out.ecache.bypasses += st->bypasses;
    out.ecache.score_bypasses += st->score_bypasses;
    out.ecache.repairs += st->repairs;
    out.ecache.reused += st->reused;
    out.ecache.parked += st->parked;
  }
  const Interner& in = e_.state_->interner();
  out.interner_strings = static_cast<int64_t>(in.held());
  out.interner_bytes = static_cast<int64_t>(in.held_bytes());
  out.interner_released = static_cast<int64_t>(in.size() - in.held());
  return out;
}

std::vector<NodeReport> Engine::Session::Nodes(const NodeQuery& q) const {
  std::vector<NodeReport> out;
  for (const NodeInfo* ni : QueryNodes(*e_.state_, q)) {
    out.push_back(MakeNodeReport(*ni, e_.state_->interner()));
  }
  return out;
}

uint64_t Engine::Session::Digest(DigestScope scope) const {
  std::vector<const Scheduler*> schedulers;
  for (const auto& [name, s] : e_.schedulers_) schedulers.push_back(s.get());
  return sched::StateDigest(*e_.state_, schedulers, e_.queue_.get(), e_.clock_.Now(), scope);
}

}  // namespace sched
