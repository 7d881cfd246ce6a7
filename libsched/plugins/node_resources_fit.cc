#include "libsched/plugins/node_resources_fit.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "libsched/model/label_syntax.h"
#include "libsched/model/resource.h"
#include "libsched/plugins/helper/dra_extended_resource.h"
#include "libsched/plugins/helper/resource_allocation.h"

namespace sched {
namespace {

constexpr std::string_view kTooManyPods = "Too many pods";
constexpr std::string_view kInsufficientCPU = "Insufficient cpu";
constexpr std::string_view kInsufficientMemory = "Insufficient memory";
constexpr std::string_view kInsufficientEphemeralStorage = "Insufficient ephemeral-storage";

constexpr int64_t kMaxUtilization = 100;
constexpr int64_t kMaxCustomPriorityScore = 10;  // config.MaxCustomPriorityScore

// The plugin's one CycleState slot holds what PreFilter and PreScore
// compute (upstream keeps two keys). PreScore adds to it rather than
// replacing it: the Filter statuses of the cycle point at `scalars`.
struct FitState final : StateData {
  struct Scalar {
    Atom name;
    int64_t request;
    std::string reason;  // "Insufficient <name>", built once for Filter's statuses
    // A DeviceClass provides it (DRAExtendedResource): a node whose
    // allocatable lacks it leaves it to DynamicResources.
    bool dra_backed = false;
  };
  // PreFilter: the scalar requests Filter checks.
  bool pre_filtered = false;
  std::vector<Scalar> scalars;
  // PreScore: the scored resources that can contribute, in args order.
  bool pre_scored = false;
  std::vector<ScoredResource> resources;
};

FieldErrors ArgsErrors(const NodeResourcesFitArgs& args) {
  FieldErrors errs;
  auto index = [](std::string_view field, size_t i) {
    return std::string(field) + "[" + std::to_string(i) + "]";
  };
  for (size_t i = 0; i < args.ignored_resources.size(); ++i) {
    const std::string& r = args.ignored_resources[i];
    if (!IsQualifiedName(r)) {
      errs.push_back({index("ignoredResources", i),
                      "Invalid value: \"" + r + "\": not a valid qualified name"});
    }
  }
  for (size_t i = 0; i < args.ignored_resource_groups.size(); ++i) {
    const std::string& g = args.ignored_resource_groups[i];
    const std::string field = index("ignoredResourceGroups", i);
    if (g.find('/') != std::string::npos) {
      errs.push_back(
          {field, "Invalid value: \"" + g + "\": resource group name can't contain '/'"});
    }
    if (!IsQualifiedName(g)) {
      errs.push_back({field, "Invalid value: \"" + g + "\": not a valid qualified name"});
    }
  }
  const ScoringStrategy& s = args.scoring_strategy;
  for (size_t i = 0; i < s.resources.size(); ++i) {
    if (s.resources[i].weight <= 0 || s.resources[i].weight > 100) {
      errs.push_back({index("scoringStrategy.resources", i) + ".weight",
                      "Invalid value: " + std::to_string(s.resources[i].weight) +
                          ": resource weight of " + s.resources[i].name +
                          " not in valid range (0, 100]"});
    }
  }
  const std::string ratio_field = "scoringStrategy.requestedToCapacityRatio";
  if (s.type != ScoringStrategyType::kRequestedToCapacityRatio) {
    if (s.requested_to_capacity_ratio) {
      errs.push_back(
          {ratio_field, "Forbidden: must be nil when type is not RequestedToCapacityRatio"});
    }
    return errs;
  }
  if (!s.requested_to_capacity_ratio) {
    errs.push_back(
        {ratio_field, "Required value: must be specified when type is RequestedToCapacityRatio"});
    return errs;
  }
  // validateFunctionShape.
  const std::vector<UtilizationShapePoint>& shape = s.requested_to_capacity_ratio->shape;
  const std::string shape_field = ratio_field + ".shape";
  if (shape.empty()) {
    errs.push_back({shape_field, "Required value: at least one point must be specified"});
    return errs;
  }
  for (size_t i = 1; i < shape.size(); ++i) {
    if (shape[i - 1].utilization >= shape[i].utilization) {
      errs.push_back({index(shape_field, i) + ".utilization",
                      "Invalid value: " + std::to_string(shape[i].utilization) +
                          ": values must be sorted in increasing order"});
      break;
    }
  }
  for (size_t i = 0; i < shape.size(); ++i) {
    const UtilizationShapePoint& p = shape[i];
    if (p.utilization < 0 || p.utilization > kMaxUtilization) {
      errs.push_back({index(shape_field, i) + ".utilization",
                      "Invalid value: " + std::to_string(p.utilization) +
                          ": not in valid range [0, 100]"});
    }
    if (p.score < 0 || p.score > kMaxCustomPriorityScore) {
      errs.push_back({index(shape_field, i) + ".score", "Invalid value: " +
                                                           std::to_string(p.score) +
                                                           ": not in valid range [0, 10]"});
    }
  }
  return errs;
}

__extension__ typedef __int128 I128;

// x * 100 / capacity in 128 bits: the same as upstream's int64 arithmetic
// wherever that does not overflow (capacities above ~92 PB), exact beyond.
// REQUIRES: 0 <= x <= capacity, capacity > 0.
int64_t Percent(int64_t x, int64_t capacity) {
  return static_cast<int64_t>(static_cast<I128>(x) * kMaxNodeScore / capacity);
}

// leastRequestedScore: free capacity on a 0..100 scale.
int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (requested > capacity) return 0;
  return Percent(capacity - requested, capacity);
}

// mostRequestedScore: used capacity on a 0..100 scale; requests above
// capacity (non-zero defaults can cause them) count as full.
int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (requested > capacity) requested = capacity;
  return Percent(requested, capacity);
}

}  // namespace

int64_t BrokenLinear(std::span<const UtilizationShapePoint> shape, int64_t utilization) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (utilization <= shape[i].utilization) {
      if (i == 0) return shape[0].score;
      const int64_t u0 = shape[i - 1].utilization, s0 = shape[i - 1].score;
      const int64_t u1 = shape[i].utilization, s1 = shape[i].score;
      return s0 + (s1 - s0) * (utilization - u0) / (u1 - u0);
    }
  }
  return shape.back().score;
}

NodeResourcesFit::NodeResourcesFit(NodeResourcesFitArgs args)
    : args_(std::move(args)),
      ignored_resources_(args_.ignored_resources.begin(), args_.ignored_resources.end()),
      ignored_groups_(args_.ignored_resource_groups.begin(),
                      args_.ignored_resource_groups.end()) {
  if (const auto& ratio = args_.scoring_strategy.requested_to_capacity_ratio) {
    for (UtilizationShapePoint p : ratio->shape) {
      p.score *= static_cast<int32_t>(kMaxNodeScore / kMaxCustomPriorityScore);
      scaled_shape_.push_back(p);
    }
  }
}

FieldErrors NodeResourcesFit::ValidateArgs(const NodeResourcesFitArgs& args) {
  return ArgsErrors(args);
}

namespace {

// A class provides `name` (in `backed`, as DraExtendedResources lists them).
bool ClassProvides(Atom name, const std::vector<std::pair<Atom, const DeviceClass*>>& backed) {
  return std::any_of(backed.begin(), backed.end(),
                     [name](const auto& b) { return b.first == name && b.second != nullptr; });
}
// shouldDelegateResourceToDRA: a class provides `name` and `node` lists no
// allocatable of it.
bool DelegatedToDra(Atom name, const std::vector<std::pair<Atom, const DeviceClass*>>& backed,
                    const Node& node) {
  return node.allocatable.Scalar(name) <= 0 && ClassProvides(name, backed);
}

// isFit: the pod's requests fit `node` with nothing on it (no ignored
// resources, as upstream's Fits); resources delegated to DRA are not checked.
bool FitsEmptyNode(const Resource& req, const Node& node,
                   const std::vector<std::pair<Atom, const DeviceClass*>>& backed) {
  const Resource& alloc = node.allocatable;
  if (alloc.allowed_pods < 1) return false;
  if (req.milli_cpu > alloc.milli_cpu || req.memory > alloc.memory ||
      req.ephemeral_storage > alloc.ephemeral_storage) {
    return false;
  }
  return std::all_of(req.scalar.begin(), req.scalar.end(), [&](const auto& kv) {
    return kv.second == 0 || kv.second <= alloc.Scalar(kv.first) ||
           DelegatedToDra(kv.first, backed, node);
  });
}

// haveAnyRequestedResourcesIncreased: also true when the new node leaves a
// requested resource to DRA.
bool AnyRequestedAllocatableIncreased(const Resource& req, const Node& old_node,
                                      const Node& new_node,
                                      const std::vector<std::pair<Atom, const DeviceClass*>>& backed) {
  const Resource& o = old_node.allocatable;
  const Resource& n = new_node.allocatable;
  if (n.allowed_pods > o.allowed_pods) return true;
  if ((req.milli_cpu > 0 && n.milli_cpu > o.milli_cpu) ||
      (req.memory > 0 && n.memory > o.memory) ||
      (req.ephemeral_storage > 0 && n.ephemeral_storage > o.ephemeral_storage)) {
    return true;
  }
  return std::any_of(req.scalar.begin(), req.scalar.end(), [&](const auto& kv) {
    return kv.second != 0 &&
           (n.Scalar(kv.first) > o.Scalar(kv.first) || DelegatedToDra(kv.first, backed, new_node));
  });
}

// isSchedulableAfterDeviceClassEvent: an added class whose implicit name,
// or a class whose extendedResourceName (changed, for an update), the pod
// requests (PodRequests' keys, zero included).
QueueingHint DeviceClassHelps(const Pod& pod, const DeviceClass* original,
                              const DeviceClass& modified, const Interner& in) {
  auto requests = [&](std::string_view name) {
    const Atom a = in.Find(name);
    return a != kNoAtom &&
           std::any_of(pod.requests.scalar.begin(), pod.requests.scalar.end(),
                       [&](const auto& kv) { return kv.first == a; });
  };
  if (original != nullptr) {
    if (original->extended_resource_name == modified.extended_resource_name) {
      return QueueingHint::kQueueSkip;
    }
  } else if (requests(std::string(kDeviceClassResourcePrefix) + modified.name)) {
    return QueueingHint::kQueue;
  }
  if (!modified.extended_resource_name.empty() && requests(modified.extended_resource_name)) {
    return QueueingHint::kQueue;
  }
  return QueueingHint::kQueueSkip;
}

// isSchedulableAfterPodScaleDown: the pod itself changed, or a bound pod
// lowered a request that `pod` makes.
bool ScaleDownHelps(const Pod& pod, const Pod& original, const Pod& modified) {
  if (SamePod(pod, modified)) return true;
  if (modified.node_name.empty()) return false;
  const Resource& req = pod.requests;
  const Resource& o = original.requests;
  const Resource& m = modified.requests;
  if ((req.milli_cpu != 0 && o.milli_cpu > m.milli_cpu) ||
      (req.memory != 0 && o.memory > m.memory) ||
      (req.ephemeral_storage != 0 && o.ephemeral_storage > m.ephemeral_storage)) {
    return true;
  }
  return std::any_of(req.scalar.begin(), req.scalar.end(), [&](const auto& kv) {
    return kv.second != 0 && o.Scalar(kv.first) > m.Scalar(kv.first);
  });
}

}  // namespace

std::vector<ClusterEventWithHint> NodeResourcesFit::EventsToRegister(
    const ClusterState& cluster) const {
  const ClusterState* c = &cluster;
  auto pod_event = [](const Pod& pod, const EventObject& old_obj, const EventObject& new_obj) {
    const Pod* original = AsPod(old_obj);
    const Pod* modified = AsPod(new_obj);
    if (original == nullptr) return QueueingHint::kQueue;
    if (modified == nullptr) {  // deleted: it freed room only if it had any
      return original->node_name.empty() && original->nominated_node_name.empty()
                 ? QueueingHint::kQueueSkip
                 : QueueingHint::kQueue;
    }
    return ScaleDownHelps(pod, *original, *modified) ? QueueingHint::kQueue
                                                     : QueueingHint::kQueueSkip;
  };
  auto node_changed = [c](const Pod& pod, const EventObject& old_obj,
                          const EventObject& new_obj) {
    const Node* old_node = AsNode(old_obj);
    const Node* new_node = AsNode(new_obj);
    if (new_node == nullptr) return QueueingHint::kQueue;
    const auto backed = DraExtendedResources(pod, *c);
    if (!FitsEmptyNode(pod.requests, *new_node, backed)) return QueueingHint::kQueueSkip;
    if (old_node == nullptr) return QueueingHint::kQueue;
    return AnyRequestedAllocatableIncreased(pod.requests, *old_node, *new_node, backed)
               ? QueueingHint::kQueue
               : QueueingHint::kQueueSkip;
  };
  auto class_changed = [c](const Pod& pod, const EventObject& old_obj,
                           const EventObject& new_obj) {
    const DeviceClass* modified = As<DeviceClass>(new_obj);
    if (modified == nullptr) return QueueingHint::kQueue;
    return DeviceClassHelps(pod, As<DeviceClass>(old_obj), *modified, c->interner());
  };
  // InPlacePodVerticalScaling is GA in v1.36: scale-down is registered;
  // DRAExtendedResource (beta, on): a class may come to provide a resource.
  return {
      {{EventResource::kPod, action::kDelete | action::kUpdatePodScaleDown, {}}, pod_event},
      {{EventResource::kNode, action::kAdd | action::kUpdateNodeAllocatable, {}}, node_changed},
      {{EventResource::kDeviceClass, action::kAdd | action::kUpdate, {}}, class_changed},
  };
}

Status NodeResourcesFit::PreFilter(CycleState& state, const Pod& pod,
                                   const ClusterState& snapshot,
                                   PreFilterResult* /*result*/) const {
  auto data = std::make_shared<FitState>();
  data->pre_filtered = true;
  const auto backed = DraExtendedResources(pod, snapshot);
  for (const auto& [name, request] : pod.requests.scalar) {
    if (request == 0) continue;
    const std::string& str = snapshot.interner().Str(name);
    if (IsExtendedResourceName(str)) {
      // Extended names always have a "/" (API validation).
      const std::string_view group = std::string_view(str).substr(0, str.find('/'));
      if (ignored_resources_.contains(str) || ignored_groups_.contains(group)) continue;
    }
    data->scalars.push_back({name, request, "Insufficient " + str, ClassProvides(name, backed)});
  }
  // Upstream reports scalar insufficiencies in Go map order (random); by
  // name is deterministic and, unlike interned ids, independent of history.
  std::sort(data->scalars.begin(), data->scalars.end(),
            [](const auto& a, const auto& b) { return a.reason < b.reason; });
  state.Write(slot(), std::move(data));
  return Status();
}

Status NodeResourcesFit::Filter(const CycleState& state, const Pod& pod,
                                const NodeInfo& node) const {
  const auto* s = state.Read<FitState>(slot());
  if (s == nullptr || !s->pre_filtered) {
    return Status::Error("reading \"PreFilterNodeResourcesFit\" from cycleState: not found");
  }
  const Resource& alloc = node.node()->allocatable;
  const Resource& used = node.requested();
  const Resource& req = pod.requests;

  Status reasons(Code::kUnschedulable);  // no allocation for a few reasons
  bool unresolvable = false;
  // An insufficiency the node can never satisfy, even empty, makes the
  // status unresolvable by preemption.
  auto check = [&](int64_t request, int64_t allocatable, int64_t requested,
                   std::string_view reason) {
    // 128 bits: allocatable - requested cannot overflow.
    if (static_cast<I128>(request) > static_cast<I128>(allocatable) - requested) {
      reasons.AddReason(reason);
      unresolvable = unresolvable || request > allocatable;
    }
  };
  if (static_cast<int64_t>(node.pods().size()) + 1 > alloc.allowed_pods) {
    reasons.AddReason(kTooManyPods);
  }
  if (req.milli_cpu > 0) check(req.milli_cpu, alloc.milli_cpu, used.milli_cpu, kInsufficientCPU);
  if (req.memory > 0) check(req.memory, alloc.memory, used.memory, kInsufficientMemory);
  if (req.ephemeral_storage > 0) {
    check(req.ephemeral_storage, alloc.ephemeral_storage, used.ephemeral_storage,
          kInsufficientEphemeralStorage);
  }
  for (const FitState::Scalar& sc : s->scalars) {
    // shouldDelegateResourceToDRA: DynamicResources allocates it here.
    if (sc.dra_backed && alloc.Scalar(sc.name) <= 0) continue;
    check(sc.request, alloc.Scalar(sc.name), used.Scalar(sc.name), sc.reason);
  }
  if (reasons.reasons().empty()) return Status();
  if (unresolvable) return Status(Code::kUnschedulableAndUnresolvable, reasons.reasons());
  return reasons;
}

bool NodeResourcesFit::FilterIsNodeLocal(const CycleState& state, PodSigner& /*key*/) const {
  const auto* s = state.Read<FitState>(slot());
  return s == nullptr || std::none_of(s->scalars.begin(), s->scalars.end(),
                                      [](const FitState::Scalar& sc) { return sc.dra_backed; });
}

Status NodeResourcesFit::PreScore(CycleState& state, const Pod& pod,
                                  std::span<const NodeInfo* const> /*feasible*/,
                                  const ClusterState& snapshot) const {
  FitState* data = state.CopyOnWrite<FitState>(slot());
  if (data == nullptr) {
    state.Write(slot(), std::make_shared<FitState>());
    data = state.Mutable<FitState>(slot());
  }
  data->pre_scored = true;
  data->resources.clear();
  // Upstream's Fit scorer ignores the pod's pod-level requests (fit.go does
  // not pass enablePodLevelResources to its resourceAllocationScorer);
  // found by kube-scheduler/difftest.
  for (const ResourceSpec& r : args_.scoring_strategy.resources) {
    if (auto sr = ResolveScoredResource(r, pod, snapshot.interner(),
                                        RequestMode::kNonZeroContainerLevel)) {
      if (sr->kind == ScoredKind::kScalar) {
        std::string refusal = DraScoringRefusal(snapshot, r.name);
        if (!refusal.empty()) return Status::Error(std::move(refusal));
      }
      data->resources.push_back(*sr);
    }
  }
  return Status();
}

Status NodeResourcesFit::Score(const CycleState& state, const Pod& /*pod*/,
                               const NodeInfo& node, int64_t* score) const {
  *score = 0;
  if (args_.scoring_strategy.resources.empty()) return Status::Error("resources not found");
  const auto* s = state.Read<FitState>(slot());
  if (s == nullptr || !s->pre_scored) {
    return Status::Error("reading \"PreScoreNodeResourcesFit\" from cycleState: not found");
  }
  const ScoringStrategyType type = args_.scoring_strategy.type;

  int64_t node_score = 0;
  int64_t weight_sum = 0;
  for (const ScoredResource& r : s->resources) {
    const auto [allocatable, allocated] = AllocationOnNode(r, node, RequestMode::kNonZero);
    if (allocatable <= 0) continue;
    const int64_t request = SaturatingAdd(allocated, r.pod_request);
    int64_t resource_score = 0;
    switch (type) {
      case ScoringStrategyType::kLeastAllocated:
        resource_score = LeastRequestedScore(request, allocatable);
        break;
      case ScoringStrategyType::kMostAllocated:
        resource_score = MostRequestedScore(request, allocatable);
        break;
      case ScoringStrategyType::kRequestedToCapacityRatio:
        resource_score = BrokenLinear(
            scaled_shape_, request > allocatable ? kMaxUtilization : Percent(request, allocatable));
        // Only resources scoring above zero count towards the mean.
        if (resource_score <= 0) continue;
        break;
    }
    node_score += resource_score * r.weight;
    weight_sum += r.weight;
  }
  if (weight_sum == 0) return Status();
  if (type == ScoringStrategyType::kRequestedToCapacityRatio) {
    *score = static_cast<int64_t>(
        std::round(static_cast<double>(node_score) / static_cast<double>(weight_sum)));
  } else {
    *score = node_score / weight_sum;
  }
  return Status();
}

void NodeResourcesFit::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.Add(pod.requests);
  sig.Add(pod.non_zero_requests);
  sig.Add(pod.non_zero_container_requests);
}

}  // namespace sched
