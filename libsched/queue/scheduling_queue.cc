#include "libsched/queue/scheduling_queue.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <utility>

namespace sched {
namespace {

// PrioritySort's Less: higher priority first, then the earlier queued.
PodHeap::OrderKey ActiveOrder(const QueuedPodInfo& p) {
  return {-int64_t{p.pod->priority}, p.timestamp.count(), 0};
}

// A new owner id (PriorityQueue::owner_), never reused: queues of different
// engines may be built on different threads.
uint64_t NewOwner() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace

PriorityQueue::PriorityQueue(const Clock& clock, QueueingHintMapPerProfile hints,
                             QueueOptions options)
    : clock_(clock),
      hints_(std::move(hints)),
      options_(options),
      owner_(NewOwner()),
      active_q_(ActiveOrder, &undo_),
      backoff_q_(clock, options.pod_initial_backoff, options.pod_max_backoff,
                 options.pop_from_backoff_q, ActiveOrder, &undo_),
      nominator_(&undo_) {}

void PriorityQueue::ForkFrom(const PriorityQueue& other) {
  if (!other.in_flight_.empty() || active_q_.Len() != 0 || !unschedulable_pods_->empty() ||
      undo_.recording()) {
    throw std::logic_error("PriorityQueue::ForkFrom: pods in flight, or not a new queue");
  }
  // From now on neither side writes in place a QueuedPodInfo held now.
  other.owner_ = NewOwner();
  active_q_.ShareFrom(other.active_q_);
  backoff_q_.ShareFrom(other.backoff_q_);
  unschedulable_pods_ = other.unschedulable_pods_;
  nominator_.ShareFrom(other.nominator_);
  scheduling_cycle_ = other.scheduling_cycle_;
  if (!other.undo_.recording()) return;
  // Records of `other`'s open Batch name the containers and
  // QueuedPodInfos it holds, and its rollback writes them: keep none.
  auto copy = [this](const QueuedPodInfo& p) {
    auto c = std::make_shared<QueuedPodInfo>(p);
    c->owner = owner_;
    return c;
  };
  active_q_.UnshareAll(copy);
  backoff_q_.UnshareAll(copy);
  for (auto& [key, p] : unschedulable_pods_.Mutable(nullptr)) p = copy(*p);
  nominator_.UnshareAll();
}

void PriorityQueue::Own(std::shared_ptr<QueuedPodInfo>& p) const {
  if (p->owner == owner_) return;
  auto c = std::make_shared<QueuedPodInfo>(*p);
  c->owner = owner_;
  p = std::move(c);
}

std::shared_ptr<QueuedPodInfo>& PriorityQueue::OwnUnschedulable(std::string_view key) {
  std::shared_ptr<QueuedPodInfo>& slot = unschedulable_pods_.Mutable(&undo_).find(key)->second;
  if (slot->owner != owner_) {
    std::shared_ptr<QueuedPodInfo> p = slot;
    Own(p);
    undo::Save(&undo_, slot);
    slot = std::move(p);
  }
  return slot;
}

std::shared_ptr<QueuedPodInfo> PriorityQueue::NewQueuedPodInfo(std::shared_ptr<const Pod> pod,
                                                               std::string key,
                                                               size_t key_hash) const {
  auto p = std::make_shared<QueuedPodInfo>();
  p->key = std::move(key);
  p->key_hash = key_hash;
  p->pod = std::move(pod);
  p->timestamp = clock_.Now();
  p->owner = owner_;
  return p;
}

const ProfileQueueingHints* PriorityQueue::HintsFor(const Pod& pod) const {
  auto it = hints_.find(pod.scheduler_name);
  return it == hints_.end() ? nullptr : &it->second;
}

void PriorityQueue::RunPreEnqueuePlugins(std::shared_ptr<QueuedPodInfo>& shared) {
  // `shared` is owned and saved only when it changes: a pod that passes and
  // was not gated (most) is left as it is, with no copy for the undo log.
  auto writable = [&]() -> QueuedPodInfo& {
    Own(shared);
    undo::SaveShared(&undo_, shared);
    return *shared;
  };
  const QueuedPodInfo& p = *shared;
  const ProfileQueueingHints* h = HintsFor(*p.pod);
  if (h != nullptr) {
    // The plugin that gated the pod last time runs first (pass 0): it most
    // likely still does. The others follow in order (pass 1).
    for (int pass = 0; pass < 2; ++pass) {
      for (const PreEnqueuePlugin* pl : h->pre_enqueue) {
        if ((pl->Name() == p.gating_plugin) != (pass == 0)) continue;
        if (pl->PreEnqueue(*p.pod, *h->cluster).IsSuccess()) continue;
        const std::string name(pl->Name());
        QueuedPodInfo& w = writable();
        w.unschedulable_plugins.insert(name);
        auto events = h->plugin_events.find(name);
        w.gating_plugin_events =
            events == h->plugin_events.end() ? std::vector<ClusterEvent>{} : events->second;
        w.gating_plugin = name;
        return;
      }
    }
  }
  if (p.gating_plugin.empty() && p.gating_plugin_events.empty()) return;
  QueuedPodInfo& w = writable();
  w.gating_plugin.clear();
  w.gating_plugin_events.clear();
}

bool PriorityQueue::IsEventOfInterest(const ClusterEvent& event) const {
  if (event.IsWildCard()) return true;
  for (const auto& [name, h] : hints_) {
    for (const QueueingHintFunction& f : h.hints) {
      if (f.event.Matches(event)) return true;
    }
  }
  return false;
}

PriorityQueue::Strategy PriorityQueue::IsPodWorthRequeuing(const QueuedPodInfo& p,
                                                           const ClusterEvent& event,
                                                           const EventObject& old_obj,
                                                           const EventObject& new_obj) const {
  // Rejected by no plugin: something unexpected failed; any event may help.
  if (p.unschedulable_plugins.empty()) return Strategy::kAfterBackoff;
  if (event.IsWildCard()) {
    // A wildcard event carrying a pod is meant for that pod only.
    const Pod* target = AsPod(new_obj);
    if (target != nullptr && !SamePod(*target, *p.pod)) return Strategy::kSkip;
    return Strategy::kAfterBackoff;
  }
  const ProfileQueueingHints* h = HintsFor(*p.pod);
  if (h == nullptr) return Strategy::kAfterBackoff;
  for (const QueueingHintFunction& f : h->hints) {
    if (!f.event.Matches(event) || !p.unschedulable_plugins.contains(f.plugin)) continue;
    if (!f.hint || f.hint(*p.pod, old_obj, new_obj) == QueueingHint::kQueue) {
      return Strategy::kAfterBackoff;
    }
  }
  return Strategy::kSkip;
}

PriorityQueue::Strategy PriorityQueue::SchedulingHintForInFlightPod(
    const QueuedPodInfo& p, std::list<InFlightEntry>::const_iterator marker) const {
  for (auto it = std::next(marker); it != in_flight_.end(); ++it) {
    const auto* e = std::get_if<InFlightEvent>(&*it);
    if (e == nullptr) continue;
    if (IsPodWorthRequeuing(p, e->event, e->old_obj, e->new_obj) == Strategy::kAfterBackoff) {
      return Strategy::kAfterBackoff;
    }
  }
  return Strategy::kSkip;
}

void PriorityQueue::AddToUnschedulable(std::shared_ptr<QueuedPodInfo> p) {
  std::string key = p->key;
  undo::InsertOrAssign(&undo_, unschedulable_pods_.Mutable(&undo_), std::move(key), std::move(p));
}

std::string_view PriorityQueue::MoveToActiveQ(std::shared_ptr<QueuedPodInfo> p,
                                              std::string_view event) {
  // PreEnqueue already ran when the pod entered backoffQ.
  const bool from_backoff = event == events::kBackoffComplete;
  if (!(options_.pop_from_backoff_q && from_backoff)) RunPreEnqueuePlugins(p);
  if (p->Gated()) {
    AddToUnschedulable(std::move(p));
    return kUnschedulableQ;
  }
  EraseUnschedulable(p->key);
  backoff_q_.Delete(p->hashed_key());
  const bool new_or_updated = event == events::kUnscheduledPodAdd.Label() ||
                              event == events::kUnscheduledPodUpdate.Label();
  if (new_or_updated) nominator_.AddNominatedPod(p->pod);
  active_q_.AddOrUpdate(std::move(p));
  return kActiveQ;
}

std::string_view PriorityQueue::MoveToBackoffQ(std::shared_ptr<QueuedPodInfo> p,
                                               std::string_view /*event*/) {
  // With pop-from-backoffQ a pod may leave backoffQ for scheduling directly,
  // so PreEnqueue runs on the way in.
  if (options_.pop_from_backoff_q) {
    RunPreEnqueuePlugins(p);
    if (p->Gated()) {
      AddToUnschedulable(std::move(p));
      return kUnschedulableQ;
    }
  }
  EraseUnschedulable(p->key);
  backoff_q_.Add(std::move(p));
  return kBackoffQ;
}

std::string_view PriorityQueue::Requeue(std::shared_ptr<QueuedPodInfo> p, Strategy strategy,
                                        std::string_view event) {
  if (strategy == Strategy::kSkip) {
    AddToUnschedulable(std::move(p));
    return kUnschedulableQ;
  }
  Own(p);  // IsPodBackingoff fills its cache
  if (backoff_q_.IsPodBackingoff(*p)) return MoveToBackoffQ(std::move(p), event);
  return MoveToActiveQ(std::move(p), event);
}

void PriorityQueue::EraseUnschedulable(std::string_view key) {
  if (!unschedulable_pods_->contains(key)) return;  // no write: shared stays shared
  UnschedulablePods& m = unschedulable_pods_.Mutable(&undo_);
  undo::Erase(&undo_, m, m.find(key));
}

void PriorityQueue::Add(std::shared_ptr<const Pod> pod, std::string key) {
  // The key, hashed once, serves the lookups, then the new pod's
  // QueuedPodInfo (built only for a pod not known already: an update needs
  // none).
  const HashedKey hashed(key);
  std::shared_ptr<const Pod> known;
  if (const QueuedPodInfo* p = active_q_.Get(hashed)) known = p->pod;
  if (const QueuedPodInfo* p = backoff_q_.Get(hashed)) known = p->pod;
  if (auto it = unschedulable_pods_->find(key); it != unschedulable_pods_->end()) {
    known = it->second->pod;
  }
  if (auto it = in_flight_pods_.find(hashed); it != in_flight_pods_.end()) {
    known = std::get<InFlightPod>(*it->second).pod;
  }
  if (known != nullptr) {
    Update(*known, std::move(pod));
    return;
  }
  MoveToActiveQ(NewQueuedPodInfo(std::move(pod), std::move(key), hashed.hash),
                events::kUnscheduledPodAdd.Label());
}

void PriorityQueue::Update(const Pod& old_pod, std::shared_ptr<const Pod> new_pod) {
  std::string key = PodKey(*new_pod);
  const HashedKey hashed(key);
  const std::vector<ClusterEvent> changes = PodSchedulingPropertiesChange(*new_pod, old_pod);
  const EventObject old_obj = std::make_shared<const Pod>(old_pod);
  const EventObject new_obj = new_pod;

  // In flight: record the update; it is replayed if the pod comes back.
  if (auto it = in_flight_pods_.find(hashed); it != in_flight_pods_.end()) {
    std::shared_ptr<const Pod>& newest = std::get<InFlightPod>(*it->second).pod;
    undo::Save(&undo_, newest);
    newest = new_pod;
    for (const ClusterEvent& e : changes) {
      undo::ListPushBack(&undo_, in_flight_, InFlightEvent{e, old_obj, new_obj});
    }
    return;
  }
  if (auto p = active_q_.Delete(hashed)) {
    Own(p);
    undo::SaveMember<&QueuedPodInfo::pod>(&undo_, p);
    p->pod = new_pod;
    active_q_.AddOrUpdate(std::move(p));
    nominator_.UpdateNominatedPod(old_pod, std::move(new_pod));
    return;
  }
  if (auto p = backoff_q_.Delete(hashed)) {
    Own(p);
    undo::SaveMember<&QueuedPodInfo::pod>(&undo_, p);
    p->pod = new_pod;
    backoff_q_.Add(std::move(p));  // back in the same order: its failure did not change
    nominator_.UpdateNominatedPod(old_pod, std::move(new_pod));
    return;
  }
  if (unschedulable_pods_->contains(key)) {
    std::shared_ptr<QueuedPodInfo>& slot = OwnUnschedulable(key);
    undo::SaveMember<&QueuedPodInfo::pod>(&undo_, slot);
    slot->pod = new_pod;
    nominator_.UpdateNominatedPod(old_pod, new_pod);
    for (const ClusterEvent& e : changes) {
      UnschedulablePods& m = unschedulable_pods_.Mutable(&undo_);
      auto found = m.find(key);
      const Strategy s = IsPodWorthRequeuing(*found->second, e, old_obj, new_obj);
      std::shared_ptr<QueuedPodInfo> p = found->second;
      undo::Erase(&undo_, m, found);
      if (Requeue(std::move(p), s, e.Label()) != kUnschedulableQ) break;
    }
    return;
  }
  MoveToActiveQ(NewQueuedPodInfo(std::move(new_pod), std::move(key), hashed.hash),
                events::kUnscheduledPodUpdate.Label());
}

void PriorityQueue::Delete(const Pod& pod) {
  const std::string key = PodKey(pod);
  const HashedKey hashed(key);
  nominator_.DeleteNominatedPodIfExists(pod);
  active_q_.Delete(hashed);
  backoff_q_.Delete(hashed);
  EraseUnschedulable(key);
  if (auto it = in_flight_pods_.find(hashed); it != in_flight_pods_.end()) {
    bool& deleted = std::get<InFlightPod>(*it->second).deleted;
    undo::Save(&undo_, deleted);
    deleted = true;
  }
}

std::shared_ptr<QueuedPodInfo> PriorityQueue::Pop() {
  std::shared_ptr<QueuedPodInfo> p = active_q_.Pop();
  if (p == nullptr && options_.pop_from_backoff_q) p = backoff_q_.PopBackoff();
  if (p == nullptr) return nullptr;
  Own(p);
  // Field by field: attempts here; pod and unschedulable_plugins, which the
  // engine's cycle writes before the pod comes back (Nominate, a failure).
  undo::SaveMember<&QueuedPodInfo::attempts>(&undo_, p);
  undo::SaveMember<&QueuedPodInfo::pod>(&undo_, p);
  undo::SaveMember<&QueuedPodInfo::unschedulable_plugins>(&undo_, p);
  ++p->attempts;
  undo::Save(&undo_, scheduling_cycle_);
  ++scheduling_cycle_;
  undo::ListPushBack(&undo_, in_flight_, InFlightPod{p->pod, false});
  undo::InsertOrAssign(&undo_, in_flight_pods_, p->key, std::prev(in_flight_.end()));
  return p;
}

void PriorityQueue::Done(const QueuedPodInfo& p) {
  auto it = in_flight_pods_.find(p.hashed_key());
  if (it == in_flight_pods_.end()) return;
  undo::ListErase(&undo_, in_flight_, it->second);
  undo::Erase(&undo_, in_flight_pods_, it);
  // Events older than every remaining in-flight pod concern no one now.
  while (!in_flight_.empty() && std::holds_alternative<InFlightEvent>(in_flight_.front())) {
    undo::ListErase(&undo_, in_flight_, in_flight_.begin());
  }
}

Status PriorityQueue::AddUnschedulableIfNotPresent(std::shared_ptr<QueuedPodInfo> p) {
  const std::string key = p->key;
  std::string_view present;
  if (unschedulable_pods_->contains(key)) present = "unschedulable";
  if (backoff_q_.Has(p->hashed_key())) present = "backoff";
  if (active_q_.Has(p->hashed_key())) present = "active";
  if (!present.empty()) {
    Done(*p);
    return Status::Error("Pod " + key + " is already present in the " + std::string(present) +
                         " queue");
  }
  auto marker = in_flight_pods_.find(p->hashed_key());
  if (marker != in_flight_pods_.end()) {
    const InFlightPod& f = std::get<InFlightPod>(*marker->second);
    if (f.deleted) {  // gone while it was being scheduled
      Done(*p);
      return Status();
    }
  }
  Own(p);
  // Each field this changes (backoff_expiration: Requeue fills it again).
  undo::SaveMember<&QueuedPodInfo::pod>(&undo_, p);
  undo::SaveMember<&QueuedPodInfo::unschedulable_count>(&undo_, p);
  undo::SaveMember<&QueuedPodInfo::consecutive_errors_count>(&undo_, p);
  undo::SaveMember<&QueuedPodInfo::timestamp>(&undo_, p);
  undo::SaveMember<&QueuedPodInfo::backoff_expiration>(&undo_, p);
  if (marker != in_flight_pods_.end()) {
    p->pod = std::get<InFlightPod>(*marker->second).pod;  // the newest, as upstream re-reads
  }

  if (p->unschedulable_plugins.empty()) {
    ++p->consecutive_errors_count;
  } else {
    ++p->unschedulable_count;
    p->consecutive_errors_count = 0;
  }
  p->timestamp = clock_.Now();
  p->backoff_expiration.reset();

  // Only events that the pod's rejecting plugins' hints accept count; an
  // event that moves nothing leaves the pod unschedulable.
  Strategy s = Strategy::kAfterBackoff;
  if (!p->unschedulable_plugins.empty() && marker != in_flight_pods_.end()) {
    s = SchedulingHintForInFlightPod(*p, marker->second);
  }
  Done(*p);
  Requeue(std::move(p), s, events::kScheduleAttemptFailure);
  return Status();
}

void PriorityQueue::MovePodsToActiveOrBackoffQueue(const std::vector<std::string>& keys,
                                                   const ClusterEvent& event,
                                                   const EventObject& old_obj,
                                                   const EventObject& new_obj) {
  if (!IsEventOfInterest(event)) return;
  const std::string_view label = event.Label();
  for (const std::string& key : keys) {
    auto it = unschedulable_pods_->find(key);
    if (it == unschedulable_pods_->end()) continue;
    QueuedPodInfo& p = *it->second;
    if (p.Gated() && std::none_of(p.gating_plugin_events.begin(), p.gating_plugin_events.end(),
                                  [&](const ClusterEvent& e) { return e.Matches(event); })) {
      continue;  // no event its gating plugin ignores can ungate it
    }
    const Strategy s = IsPodWorthRequeuing(p, event, old_obj, new_obj);
    if (s == Strategy::kSkip) continue;
    std::shared_ptr<QueuedPodInfo> moved = it->second;
    UnschedulablePods& m = unschedulable_pods_.Mutable(&undo_);
    undo::Erase(&undo_, m, m.find(key));
    Requeue(std::move(moved), s, label);
  }
  if (!in_flight_pods_.empty()) {
    undo::ListPushBack(&undo_, in_flight_, InFlightEvent{event, old_obj, new_obj});
  }
}

void PriorityQueue::MoveAllToActiveOrBackoffQueue(const ClusterEvent& event,
                                                  const EventObject& old_obj,
                                                  const EventObject& new_obj,
                                                  const PreEnqueueCheck& pre_check) {
  if (!IsEventOfInterest(event)) return;
  std::vector<std::string> keys;
  for (const auto& [key, p] : *unschedulable_pods_) {
    if (!pre_check || pre_check(*p->pod)) keys.push_back(key);
  }
  MovePodsToActiveOrBackoffQueue(keys, event, old_obj, new_obj);
}

void PriorityQueue::AssignedPodAdded(std::shared_ptr<const Pod> pod) {
  MoveAllToActiveOrBackoffQueue(events::kAssignedPodAdd, {}, std::move(pod));
}

void PriorityQueue::AssignedPodUpdated(std::shared_ptr<const Pod> old_pod,
                                       std::shared_ptr<const Pod> new_pod) {
  for (const ClusterEvent& e : PodSchedulingPropertiesChange(*new_pod, *old_pod)) {
    MoveAllToActiveOrBackoffQueue(e, old_pod, new_pod);
  }
}

void PriorityQueue::AssignedPodDeleted(std::shared_ptr<const Pod> pod) {
  MoveAllToActiveOrBackoffQueue(events::kAssignedPodDelete, std::move(pod), {});
}

void PriorityQueue::Flush() {
  FlushBackoffQCompleted();
  FlushUnschedulablePodsLeftover();
}

void PriorityQueue::FlushBackoffQCompleted() {
  for (auto& p : backoff_q_.PopAllBackoffCompleted()) {
    MoveToActiveQ(std::move(p), events::kBackoffComplete);
  }
}

void PriorityQueue::FlushUnschedulablePodsLeftover() {
  const Time now = clock_.Now();
  std::vector<std::string> keys;
  for (const auto& [key, p] : *unschedulable_pods_) {
    if (now - p->timestamp > options_.pod_max_in_unschedulable_pods) keys.push_back(key);
  }
  if (!keys.empty()) {
    MovePodsToActiveOrBackoffQueue(keys, events::kUnschedulableTimeout, {}, {});
  }
}

std::vector<QueuedPodView> PriorityQueue::Snapshot() const {
  std::vector<QueuedPodView> out;
  auto view = [&](const QueuedPodInfo& p, std::string_view queue) {
    QueuedPodView v;
    v.pod = p.pod;
    v.queue = queue;
    v.attempts = p.attempts;
    v.unschedulable_plugins.assign(p.unschedulable_plugins.begin(), p.unschedulable_plugins.end());
    v.gating_plugin = p.gating_plugin;
    v.timestamp = p.timestamp;
    const Time expiry = p.backoff_expiration.value_or(backoff_q_.ComputeBackoffTime(p));
    if (expiry != Time::min()) v.backoff_expiration = expiry;
    if (nominator_.HasNominatedPods()) v.nominated_node_name = nominator_.NominatedNodeFor(*p.pod);
    out.push_back(std::move(v));
  };
  for (const QueuedPodInfo* p : active_q_.List()) view(*p, kActiveQ);
  for (const QueuedPodInfo* p : backoff_q_.List()) view(*p, kBackoffQ);
  for (const auto& [key, p] : *unschedulable_pods_) view(*p, kUnschedulableQ);
  for (const InFlightEntry& e : in_flight_) {
    if (const auto* f = std::get_if<InFlightPod>(&e)) {
      QueuedPodView v;
      v.pod = f->pod;
      v.queue = kInFlight;
      out.push_back(std::move(v));
    }
  }
  return out;
}

}  // namespace sched
