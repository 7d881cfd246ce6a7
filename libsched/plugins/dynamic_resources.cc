#include "libsched/plugins/dynamic_resources.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>

#include "libsched/plugins/helper/dra_allocator.h"
#include "libsched/plugins/helper/dra_extended_resource.h"
#include "libsched/plugins/helper/normalize_score.h"

namespace sched {
namespace {

// A claim of the pod: the ResourceClaim, or an error in upstream's words.
struct ResolvedClaims {
  std::vector<std::shared_ptr<const ResourceClaim>> claims;  // nil names skipped
  std::string error;                                         // set: Unresolvable
};

// foreachPodResourceClaim with resourceclaim.Name and IsForPod.
ResolvedClaims ResolveClaims(const Pod& pod, const ClusterState& cluster) {
  ResolvedClaims out;
  // Built for an error only: most pods have no claim.
  const auto pod_ref = [&pod] { return pod.ns + "/" + pod.name; };
  for (const PodResourceClaim& rc : pod.resource_claims) {
    const std::string* name;
    bool check_owner = false;
    if (rc.claim_name) {
      name = &*rc.claim_name;
    } else if (rc.template_name) {
      if (!rc.has_status) {
        out.error = "pod \"" + pod_ref() + "\": ResourceClaim not created yet";
        return out;
      }
      if (!rc.generated_name) continue;  // intentionally not created
      name = &*rc.generated_name;
      check_owner = true;
    } else {
      out.error = "pod \"" + pod_ref() + "\", spec.resourceClaim \"" + rc.name +
                  "\": none of the supported fields are set";
      return out;
    }
    const std::string key = pod.ns + "/" + *name;
    auto it = cluster.resource_claims().find(key);
    if (it == cluster.resource_claims().end()) {
      out.error = "could not find ResourceClaim \"" + key + "\"";
      return out;
    }
    const ResourceClaim& claim = *it->second;
    if (claim.deleting) {
      out.error = "resourceclaim \"" + claim.name + "\" is being deleted";
      return out;
    }
    // IsForPod: metav1.IsControlledBy compares the controller's UID.
    if (check_owner && (claim.controller_uid.empty() || claim.controller_uid != pod.uid)) {
      out.error = "ResourceClaim " + claim.ns + "/" + claim.name + " was not created for Pod " +
                  pod_ref() + " (Pod is not owner)";
      return out;
    }
    out.claims.push_back(it->second);
  }
  return out;
}

// specialClaimInMemName: the special claim of DRAExtendedResource before
// it is created (intentionally not a valid name).
constexpr std::string_view kSpecialClaimName = "<extended-resources>";

// The name AssumePodClaims gives the special claim it assumed allocated
// (not a valid name either: the caller's claim never has it).
std::string AssumedExtendedClaimName(const std::string& pod_name) {
  return pod_name + "-extended-resources-<assumed>";
}

// preFilterExtendedResources' in-memory claim: the pod's, annotated, no
// requests. Upstream gives it a random UID; this one derives from the pod.
std::shared_ptr<const ResourceClaim> InMemoryExtendedClaim(const Pod& pod) {
  auto c = std::make_shared<ResourceClaim>();
  c->ns = pod.ns;
  c->name = kSpecialClaimName;
  c->uid = std::string(kSpecialClaimName) + pod.uid;
  c->controller_uid = pod.uid;
  c->controller_name = pod.name;
  c->extended_resource_claim = true;
  return c;
}

// findExtendedResourceClaim: the annotated claim the pod controls.
std::shared_ptr<const ResourceClaim> FindExtendedClaim(const Pod& pod,
                                                       const ClusterState& cluster) {
  for (const auto& [key, claim] : cluster.resource_claims()) {
    if (claim->extended_resource_claim && claim->controller_name == pod.name &&
        claim->controller_uid == pod.uid) {
      return claim;
    }
  }
  return nullptr;
}

// The pod's claims: its own (ResolveClaims), then the special claim of its
// extended resources backed by DRA, if any (claimStore).
struct PodClaims {
  ResolvedClaims resolved;  // resolved.claims: the user claims, then the special one
  bool has_extended = false;
  std::vector<std::pair<Atom, const DeviceClass*>> extended;  // DraExtendedResources
};

PodClaims GatherClaims(const Pod& pod, const ClusterState& cluster) {
  PodClaims out;
  out.resolved = ResolveClaims(pod, cluster);
  if (!out.resolved.error.empty()) return out;
  out.extended = DraExtendedResources(pod, cluster);
  if (out.extended.empty()) return out;
  std::shared_ptr<const ResourceClaim> claim = FindExtendedClaim(pod, cluster);
  out.resolved.claims.push_back(claim != nullptr ? std::move(claim) : InMemoryExtendedClaim(pod));
  out.has_extended = true;
  return out;
}

// filterExtendedResources on `node`: an error status when the node does
// not fit; else *node_claim, the special claim with the requests DRA must
// allocate there (left null when the claim is allocated), and *done when
// there is nothing left for the plugin to do on the node (no user claims,
// and the node's allocatable covers every extended resource).
std::optional<Status> ExtendedClaimOn(const Pod& pod, const ResourceClaim& special,
                                      const std::vector<std::pair<Atom, const DeviceClass*>>& ext,
                                      bool user_claims, const Node& node,
                                      std::shared_ptr<const ResourceClaim>* node_claim,
                                      bool* done) {
  *done = false;
  // A claim of an earlier cycle: PostFilter deletes it, the next cycle
  // starts anew.
  if (!special.spec.requests.empty()) {
    return Status(Code::kUnschedulableAndUnresolvable, "cannot schedule extended resource claim");
  }
  std::vector<std::pair<Atom, const DeviceClass*>> on_dra;
  for (const auto& [name, cls] : ext) {
    const auto& alloc = node.allocatable.scalar;
    auto it = std::lower_bound(alloc.begin(), alloc.end(), name,
                               [](const auto& e, Atom n) { return e.first < n; });
    const bool listed = it != alloc.end() && it->first == name;
    if (cls != nullptr && (!listed || it->second == 0)) {
      on_dra.emplace_back(name, cls);  // the node provides it through DRA
    } else if (!listed) {
      // Neither a device plugin nor a class provides it.
      return Status(Code::kUnschedulableAndUnresolvable, "cannot fit resource");
    }
  }
  // Allocated already: only the user claims are left to check.
  if ((!user_claims && on_dra.empty()) || special.allocation) {
    *done = !user_claims;
    return std::nullopt;
  }
  auto copy = std::make_shared<ResourceClaim>(special);
  copy->spec.requests = ExtendedResourceRequests(pod, on_dra);
  *node_claim = std::move(copy);
  return std::nullopt;
}

// The claims to allocate on a node: `to_allocate` with the special claim
// (last, when it needs allocation) replaced by the node's variant.
std::vector<const ResourceClaim*> ClaimsOn(std::vector<const ResourceClaim*> to_allocate,
                                           const ResourceClaim* node_claim) {
  if (node_claim != nullptr) to_allocate.back() = node_claim;
  return to_allocate;
}

struct DraState final : StateData {
  const Interner* interner = nullptr;
  std::vector<std::shared_ptr<const ResourceClaim>> claims;
  // DRAExtendedResource: claims.back() is the special claim, and the pod's
  // extended resources with the classes providing them.
  bool has_extended = false;
  std::vector<std::pair<Atom, const DeviceClass*>> extended;
  std::vector<const ResourceClaim*> to_allocate;  // in claims' order
  std::unique_ptr<DraAllocator> allocator;  // when some claim needs allocation
  // By claim: Filter found it unavailable on some node (upstream's
  // unavailableClaims, for PostFilter). Filter runs on many threads.
  std::unique_ptr<std::atomic<bool>[]> unavailable;
  // The engine's clock read as Unix nanoseconds, for the binding timeout;
  // unset without a clock (nothing times out).
  std::optional<int64_t> now;
  // Some claim has a firstAvailable request: Score ranks the subrequests
  // Filter's allocation picked on each node (else every score is 0).
  bool prioritized = false;
  // By NodeInfo::index() (below num_scores), from Filter; kNoScore when
  // Filter did not allocate there. Atomic: Filter runs on many threads.
  static constexpr int64_t kNoScore = -1;
  size_t num_scores = 0;
  std::unique_ptr<std::atomic<int64_t>[]> scores;
};

// computeScore: per firstAvailable request, FirstAvailableDeviceRequestMaxSize
// minus the index of the subrequest the claim's allocation used. Claims
// allocated before take their status.allocation; the others, in order,
// the allocations found on the node.
int64_t ComputeScore(const std::vector<std::shared_ptr<const ResourceClaim>>& claims,
                     const std::vector<DraAllocation>& allocations) {
  int64_t score = 0;
  size_t next = 0;
  for (const auto& claim : claims) {
    const DraAllocation* alloc = nullptr;
    if (claim->allocation) {
      alloc = &*claim->allocation;
    } else if (next < allocations.size()) {
      alloc = &allocations[next++];
    } else {
      continue;
    }
    for (const DraDeviceRequest& req : claim->spec.requests) {
      if (req.exactly) continue;
      for (size_t i = 0; i < req.first_available.size(); ++i) {
        const std::string ref = req.name + "/" + req.first_available[i].name;
        if (std::any_of(alloc->devices.begin(), alloc->devices.end(),
                        [&](const DraAllocatedDevice& d) { return d.request == ref; })) {
          score += kDraFirstAvailableMaxSize - static_cast<int64_t>(i);
        }
      }
    }
  }
  return score;
}

// validateDeviceClass, for one request.
std::optional<Status> CheckRequest(const ClusterState& cluster, const ResourceClaim& claim,
                                   const DraDeviceRequest& req) {
  const std::string ref = claim.ns + "/" + claim.name;
  auto check_class = [&](const DraRequest& r, const std::string& name) -> std::optional<Status> {
    if (r.device_class_name.empty()) {
      return Status::Error("request " + name + ": unsupported request type");
    }
    if (!cluster.device_classes().contains(r.device_class_name)) {
      return Status::Owned(
          Code::kUnschedulableAndUnresolvable,
          "request " + name + ": device class " + r.device_class_name + " does not exist");
    }
    return std::nullopt;
  };
  if (req.exactly) return check_class(*req.exactly, req.name);
  if (!req.first_available.empty()) {
    for (const DraRequest& sub : req.first_available) {
      if (auto s = check_class(sub, req.name + "/" + sub.name)) return s;
    }
    return std::nullopt;
  }
  return Status::Owned(
      Code::kUnschedulableAndUnresolvable,
      "resource claim " + ref + ", request " + req.name + ": unknown request type");
}

// The claim's allocation is usable on `node`.
bool AvailableOn(const ResourceClaim& claim, const Node& node, const Interner& in) {
  const auto& selector = claim.allocation->node_selector;
  return !selector || selector->Matches(node.labels, node.name_atom, in);
}

// apimeta.IsStatusConditionPresentAndEqual(conditions, type, "True"): the
// first condition of that type.
bool ConditionTrue(const std::vector<DraCondition>& conditions, const std::string& type) {
  auto it = std::find_if(conditions.begin(), conditions.end(),
                         [&](const DraCondition& c) { return c.type == type; });
  return it != conditions.end() && it->status == "True";
}

// isClaimReadyForBinding (DRADeviceBindingConditions) of an allocated
// claim: kFailed when a device's status has one of its
// bindingFailureConditions True (upstream's error), kReady when every
// device with bindingConditions has them all True in its status
// (getAllocatedDeviceStatus: the first entry of the same driver, pool and
// device), else kPending.
enum class Binding { kReady, kPending, kFailed };
Binding ClaimBinding(const ResourceClaim& claim) {
  for (const DraAllocatedDevice& d : claim.allocation->devices) {
    if (d.binding_conditions.empty()) continue;
    auto status = std::find_if(
        claim.device_statuses.begin(), claim.device_statuses.end(), [&](const DraDeviceStatus& s) {
          return s.device == d.device && s.driver == d.driver && s.pool == d.pool;
        });
    if (status == claim.device_statuses.end()) return Binding::kPending;
    for (const std::string& type : d.binding_failure_conditions) {
      if (ConditionTrue(status->conditions, type)) return Binding::kFailed;
    }
    for (const std::string& type : d.binding_conditions) {
      if (!ConditionTrue(status->conditions, type)) return Binding::kPending;
    }
  }
  return Binding::kReady;
}

// isClaimTimeout: a device of the allocation has bindingConditions and
// allocationTimestamp + bindingTimeout is before `now` (Unix nanoseconds).
// The timeout is DynamicResourcesArgs.bindingTimeout's default, 600 s
// (config.DynamicResourcesBindingTimeoutDefault).
bool BindingTimedOut(const DraAllocation& allocation, std::optional<int64_t> now) {
  constexpr int64_t kBindingTimeout = std::chrono::nanoseconds(std::chrono::seconds(600)).count();
  if (!now || !allocation.allocation_timestamp) return false;
  return std::any_of(allocation.devices.begin(), allocation.devices.end(),
                     [&](const DraAllocatedDevice& d) { return !d.binding_conditions.empty(); }) &&
         *allocation.allocation_timestamp < *now - kBindingTimeout;  // cannot overflow
}

// The clock of `state` as Unix nanoseconds, if it has one.
std::optional<int64_t> Now(const ClusterState& state) {
  if (!state.clock()) return std::nullopt;
  return state.clock()().count();
}

}  // namespace

std::vector<ClusterEventWithHint> DynamicResources::EventsToRegister(
    const ClusterState& cluster) const {
  const ClusterState* c = &cluster;
  auto claim_change = [c](const Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
    const ResourceClaim* modified = As<ResourceClaim>(new_obj);
    if (modified == nullptr) return QueueingHint::kQueue;
    const ResolvedClaims resolved = ResolveClaims(pod, *c);
    if (!resolved.error.empty()) return QueueingHint::kQueueSkip;
    const ResourceClaim* original = As<ResourceClaim>(old_obj);
    if (original != nullptr && original->allocation && !modified->allocation) {
      return QueueingHint::kQueue;  // deallocated
    }
    const bool uses = std::any_of(resolved.claims.begin(), resolved.claims.end(),
                                  [&](const auto& cl) { return cl->uid == modified->uid; });
    if (!uses) return QueueingHint::kQueueSkip;
    if (original == nullptr) return QueueingHint::kQueue;
    const bool same_status =
        original->reserved_for == modified->reserved_for &&
        original->device_statuses == modified->device_statuses &&
        original->allocation.has_value() == modified->allocation.has_value() &&
        (!original->allocation ||
         (original->allocation->devices == modified->allocation->devices &&
          original->allocation->allocation_timestamp ==
              modified->allocation->allocation_timestamp));
    return same_status ? QueueingHint::kQueueSkip : QueueingHint::kQueue;
  };
  auto pod_change = [c](const Pod& pod, const EventObject&, const EventObject& new_obj) {
    const Pod* modified = As<Pod>(new_obj);
    if (modified == nullptr) return QueueingHint::kQueue;
    if (!SamePod(pod, *modified)) return QueueingHint::kQueueSkip;
    return ResolveClaims(*modified, *c).error.empty() ? QueueingHint::kQueue
                                                      : QueueingHint::kQueueSkip;
  };
  // With queueing hints on: no UpdateNodeTaint.
  return {
      {{EventResource::kNode,
        action::kAdd | action::kUpdateNodeLabel | action::kUpdateNodeAllocatable,
        {}},
       nullptr},
      {{EventResource::kResourceClaim, action::kAdd | action::kUpdate, {}}, claim_change},
      {{EventResource::kPod, action::kUpdatePodGeneratedResourceClaim, {}}, pod_change},
      {{EventResource::kDeviceClass, action::kAdd | action::kUpdate, {}}, nullptr},
      {{EventResource::kResourceSlice, action::kAdd | action::kUpdate, {}}, nullptr},
  };
}

Status DynamicResources::PreEnqueue(const Pod& pod, const ClusterState& cluster) const {
  ResolvedClaims r = ResolveClaims(pod, cluster);
  if (!r.error.empty()) return Status::Owned(Code::kUnschedulableAndUnresolvable, r.error);
  return Status();
}

Status DynamicResources::PreFilter(CycleState& state, const Pod& pod, const ClusterState& snapshot,
                                   PreFilterResult* /*result*/) const {
  // Upstream writes its (empty) state first: PostFilter tells a pod
  // without claims from one whose PreFilter never ran.
  auto owned = std::make_shared<DraState>();
  DraState* st = owned.get();
  state.Write(slot(), std::move(owned));
  if (pod.resource_claims.empty() && snapshot.device_classes().empty()) {
    return Status(Code::kSkip);
  }
  PodClaims pc = GatherClaims(pod, snapshot);
  ResolvedClaims& r = pc.resolved;
  if (!r.error.empty()) return Status::Owned(Code::kUnschedulableAndUnresolvable, r.error);
  if (r.claims.empty()) return Status(Code::kSkip);
  st->interner = &snapshot.interner();
  st->now = Now(snapshot);
  std::vector<const ResourceClaim*> to_allocate;
  for (const auto& claim : r.claims) {
    // CanBeReserved is always true in v1.36: no "resourceclaim in use".
    if (claim->allocation) continue;
    to_allocate.push_back(claim.get());
    // The special claim is checked per node, in Filter.
    if (pc.has_extended && claim == r.claims.back()) continue;
    for (const DraDeviceRequest& req : claim->spec.requests) {
      if (auto s = CheckRequest(snapshot, *claim, req)) return std::move(*s);
    }
  }
  for (const auto& claim : r.claims) {
    for (const DraDeviceRequest& req : claim->spec.requests) {
      st->prioritized = st->prioritized || !req.exactly;
    }
  }
  if (!to_allocate.empty()) {
    std::vector<std::string> classes;  // those the special claim may name
    for (const auto& [name, cls] : pc.extended) {
      if (cls != nullptr) classes.push_back(cls->name);
    }
    st->to_allocate = to_allocate;
    st->allocator = std::make_unique<DraAllocator>(snapshot, std::move(to_allocate), classes);
  }
  st->has_extended = pc.has_extended;
  st->extended = std::move(pc.extended);
  if (st->allocator && st->prioritized) {
    st->num_scores = snapshot.NodeIndexBound();
    st->scores = std::make_unique<std::atomic<int64_t>[]>(st->num_scores);
    for (size_t i = 0; i < st->num_scores; ++i) st->scores[i] = DraState::kNoScore;
  }
  // Claims are kept only once PreFilter succeeds, as upstream's.
  st->unavailable = std::make_unique<std::atomic<bool>[]>(r.claims.size());
  st->claims = std::move(r.claims);
  return Status();
}

Status DynamicResources::Filter(const CycleState& state, const Pod& pod,
                                const NodeInfo& node_info) const {
  const auto* st = state.Read<DraState>(slot());
  if (st == nullptr || st->claims.empty()) return Status();
  const Node& node = *node_info.node();
  std::shared_ptr<const ResourceClaim> node_claim;
  if (st->has_extended) {
    bool done = false;
    if (auto s = ExtendedClaimOn(pod, *st->claims.back(), st->extended, st->claims.size() > 1,
                                 node, &node_claim, &done)) {
      return std::move(*s);
    }
    if (done) return Status();
  }
  std::vector<size_t> unavailable;
  for (size_t i = 0; i < st->claims.size(); ++i) {
    const ResourceClaim& claim = *st->claims[i];
    if (!claim.allocation) continue;
    if (!AvailableOn(claim, node, *st->interner)) {
      unavailable.push_back(i);
      continue;
    }
    // Binding failed, or still pending past the timeout: PostFilter may
    // deallocate the claim so that other devices can be tried.
    const Binding binding = ClaimBinding(claim);
    if (binding == Binding::kFailed ||
        (binding == Binding::kPending && BindingTimedOut(*claim.allocation, st->now))) {
      unavailable.push_back(i);
    }
  }
  if (st->allocator) {
    DraAllocator::Outcome out =
        st->allocator->Allocate(node, ClaimsOn(st->to_allocate, node_claim.get()));
    switch (out.kind) {
      case DraAllocator::Outcome::Kind::kAllocated:
        if (st->prioritized && unavailable.empty() && node_info.index() < st->num_scores) {
          st->scores[node_info.index()].store(ComputeScore(st->claims, out.allocations),
                                              std::memory_order_relaxed);
        }
        break;
      case DraAllocator::Outcome::Kind::kError:
        return Status::Error(std::move(out.message));
      case DraAllocator::Outcome::Kind::kUnschedulable:
        if (out.message == kCannotAllocate) {
          return Status(Code::kUnschedulableAndUnresolvable, kCannotAllocate);
        }
        return Status::Owned(Code::kUnschedulableAndUnresolvable, std::move(out.message));
    }
  }
  if (!unavailable.empty()) {
    for (size_t i : unavailable) st->unavailable[i].store(true, std::memory_order_relaxed);
    return Status(Code::kUnschedulableAndUnresolvable, kNotAvailable);
  }
  return Status();
}

Status DynamicResources::PostFilter(const Framework& /*fw*/, const CycleState& state,
                                    const Pod& pod, const NodeToStatus& /*statuses*/,
                                    PostFilterResult* /*result*/) const {
  const auto* st = state.Read<DraState>(slot());
  // An earlier PreFilter stopped the cycle: upstream's state read fails.
  if (st == nullptr) return Status::Error("not found");
  if (st->claims.empty()) return Status(Code::kUnschedulable, kNoClaims);
  // The special claim, when a cycle before this one created it.
  const ResourceClaim* created =
      st->has_extended && st->claims.back()->name != kSpecialClaimName ? st->claims.back().get()
                                                                        : nullptr;
  const size_t num_user_claims = st->claims.size() - (st->has_extended ? 1 : 0);
  for (size_t i = 0; i < num_user_claims; ++i) {
    const ResourceClaim& claim = *st->claims[i];
    const auto& reserved = claim.reserved_for;
    if (st->unavailable[i].load(std::memory_order_relaxed) &&
        (reserved.empty() || (reserved.size() == 1 && reserved[0] == pod.uid))) {
      return Status::Owned(Code::kUnschedulable, "deallocation of ResourceClaim " + claim.ns + "/" +
                                                     claim.name +
                                                     " needed (libsched makes no API calls)");
    }
  }
  if (created != nullptr) {
    // Upstream deletes it ("deletion of ResourceClaim completed").
    return Status::Owned(Code::kUnschedulable, "deletion of ResourceClaim " + created->ns + "/" +
                                                   created->name +
                                                   " needed (libsched makes no API calls)");
  }
  return Status(Code::kUnschedulable, kStillNotSchedulable);
}

Status DynamicResources::Score(const CycleState& state, const Pod& pod,
                               const NodeInfo& node_info, int64_t* score) const {
  *score = 0;
  const auto* st = state.Read<DraState>(slot());
  if (st == nullptr || !st->allocator || !st->prioritized) return Status();
  if (node_info.index() < st->num_scores) {
    const int64_t s = st->scores[node_info.index()].load(std::memory_order_relaxed);
    if (s != DraState::kNoScore) {
      *score = s;
      return Status();
    }
  }
  // Filter did not allocate on this node (a NodeInfo outside the snapshot):
  // allocate again.
  std::shared_ptr<const ResourceClaim> node_claim;
  if (st->has_extended) {
    bool done = false;
    if (ExtendedClaimOn(pod, *st->claims.back(), st->extended, st->claims.size() > 1,
                        *node_info.node(), &node_claim, &done) ||
        done) {
      return Status();
    }
  }
  DraAllocator::Outcome out =
      st->allocator->Allocate(*node_info.node(), ClaimsOn(st->to_allocate, node_claim.get()));
  if (out.kind == DraAllocator::Outcome::Kind::kAllocated) {
    *score = ComputeScore(st->claims, out.allocations);
  }
  return Status();
}

bool DynamicResources::ScoreCacheKey(const CycleState& state, PodSigner& /*key*/) const {
  // Without claims every score is 0; with claims the cache is bypassed.
  const auto* st = state.Read<DraState>(slot());
  return st == nullptr || st->claims.empty();
}

Status DynamicResources::NormalizeScore(const CycleState& /*state*/, const Pod& /*pod*/,
                                        std::span<int64_t> scores) const {
  return DefaultNormalizeScore(kMaxNodeScore, false, scores);
}

bool DynamicResources::NormalizesZeroColumnTo(int64_t* normalized) const {
  *normalized = DefaultNormalizedZero(kMaxNodeScore, /*reverse=*/false);
  return true;
}

void DynamicResources::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.Add(static_cast<int64_t>(pod.resource_claims.size()));
  for (const PodResourceClaim& rc : pod.resource_claims) {
    sig.Add(rc.name);
    sig.Add(rc.claim_name.value_or(""));
    sig.Add(rc.template_name.value_or(""));
    sig.Add(static_cast<int64_t>(rc.has_status) * 2 + rc.generated_name.has_value());
    sig.Add(rc.generated_name.value_or(""));
  }
  // Generated claims are per pod: pods with them never share a class.
  if (!pod.resource_claims.empty()) sig.Add(pod.uid.empty() ? pod.ns + "/" + pod.name : pod.uid);
}

void DropAssumedExtendedClaim(const std::string& ns, const std::string& pod_name,
                              ClusterState* state) {
  // Without claims there is none to drop: every pod deletion comes here,
  // and the key costs two allocations.
  if (state->resource_claims().empty()) return;
  state->RemoveResourceClaim(ns + "/" + AssumedExtendedClaimName(pod_name));
}

void AssumePodClaims(const Pod& pod, const std::string& node_name, ClusterState* state) {
  if (pod.resource_claims.empty() && state->device_classes().empty()) return;
  const NodeInfo* node = state->FindNode(node_name);
  if (node == nullptr) return;
  PodClaims pc = GatherClaims(pod, *state);
  ResolvedClaims& r = pc.resolved;
  if (!r.error.empty() || r.claims.empty()) return;
  std::shared_ptr<const ResourceClaim> node_claim;
  if (pc.has_extended) {
    bool done = false;
    if (ExtendedClaimOn(pod, *r.claims.back(), pc.extended, r.claims.size() > 1, *node->node(),
                        &node_claim, &done) ||
        done) {
      return;
    }
    if (node_claim != nullptr) r.claims.back() = node_claim;
  }
  std::vector<const ResourceClaim*> to_allocate;
  for (const auto& claim : r.claims) {
    if (!claim->allocation) to_allocate.push_back(claim.get());
  }
  std::vector<DraAllocation> allocations;
  if (!to_allocate.empty()) {
    DraAllocator::Outcome out = DraAllocator(*state, to_allocate).Allocate(*node->node());
    if (out.kind != DraAllocator::Outcome::Kind::kAllocated) return;
    allocations = std::move(out.allocations);
  }
  Interner& in = state->interner();
  size_t next = 0;
  for (const auto& claim : r.claims) {
    auto copy = std::make_shared<ResourceClaim>(*claim);
    if (copy->name == kSpecialClaimName) {
      // Upstream's PreBind creates it (generateName "<pod>-extended-resources-");
      // until the caller's claim arrives, this copy holds its devices. One
      // without devices holds nothing and is not kept.
      if (allocations[next].devices.empty()) break;
      copy->name = AssumedExtendedClaimName(pod.name);
    }
    if (!copy->allocation) {
      copy->allocation = std::move(allocations[next++]);
      if (copy->allocation->node_selector) {
        // The selector's ids come from the node and the slices: this claim
        // holds them too, whatever happens to those.
        AtomRecorder rec(in);
        for (NodeSelectorTerm& t : copy->allocation->node_selector->terms) {
          for (auto* reqs : {&t.match_expressions, &t.match_fields}) {
            for (Requirement& q : *reqs) {
              if (q.key != kNoAtom) q.key = in.Intern(in.Str(q.key));
              for (Atom& v : q.values) v = in.Intern(in.Str(v));
            }
          }
        }
        copy->atoms = rec.Finish();
      }
    }
    if (std::find(copy->reserved_for.begin(), copy->reserved_for.end(), pod.uid) ==
        copy->reserved_for.end()) {
      copy->reserved_for.push_back(pod.uid);
      // PreBind's bindClaim: the allocation's time, when not set yet.
      if (!copy->allocation->allocation_timestamp) {
        copy->allocation->allocation_timestamp = Now(*state);
      }
    }
    state->UpsertResourceClaim(std::move(copy));
  }
}

}  // namespace sched
