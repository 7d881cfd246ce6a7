#include "libsched/plugins/node_resources_balanced_allocation.h"

#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "libsched/model/resource.h"
#include "libsched/plugins/helper/dra_extended_resource.h"
#include "libsched/plugins/helper/resource_allocation.h"

namespace sched {
namespace {

// PreScore data: the scored resources that can contribute, in args order.
struct PreScoreState final : StateData {
  std::vector<ScoredResource> resources;
};

// balancedResourceScore over the node's requested amounts, plus the pod's
// when `with_pod`. Fractions are recomputed in the second pass rather than
// stored, to keep Score free of allocation; the arithmetic and its order are
// upstream's, so the result is bit-identical (Go does not fuse
// multiply-adds on amd64, nor does an ISO C++ build).
int64_t BalanceScore(const PreScoreState& s, const NodeInfo& node, bool with_pod) {
  auto fraction = [&](const ScoredResource& r, double* f) {
    auto [allocatable, requested] = AllocationOnNode(r, node, RequestMode::kActual);
    if (allocatable == 0) return false;
    if (with_pod) requested = SaturatingAdd(requested, r.pod_request);
    *f = static_cast<double>(requested) / static_cast<double>(allocatable);
    if (*f > 1) *f = 1;
    return true;
  };

  int n = 0;
  double total = 0;
  double first = 0;
  double second = 0;
  for (const ScoredResource& r : s.resources) {
    double f;
    if (!fraction(r, &f)) continue;
    if (n == 0) first = f;
    if (n == 1) second = f;
    total += f;
    ++n;
  }
  double deviation = 0;
  if (n == 2) {
    deviation = std::abs((first - second) / 2);
  } else if (n > 2) {
    const double mean = total / n;
    double sum = 0;
    for (const ScoredResource& r : s.resources) {
      double f;
      if (fraction(r, &f)) sum = sum + (f - mean) * (f - mean);
    }
    deviation = std::sqrt(sum / n);
  }
  return static_cast<int64_t>((1 - deviation) * static_cast<double>(kMaxNodeScore));
}

}  // namespace

NodeResourcesBalancedAllocation::NodeResourcesBalancedAllocation(
    NodeResourcesBalancedAllocationArgs args)
    : args_(std::move(args)) {}

FieldErrors NodeResourcesBalancedAllocation::ValidateArgs(
    const NodeResourcesBalancedAllocationArgs& args) {
  FieldErrors errs;
  std::set<std::string_view> seen;
  for (size_t i = 0; i < args.resources.size(); ++i) {
    const auto& r = args.resources[i];
    const std::string field = "resources[" + std::to_string(i) + "]";
    if (!seen.insert(r.name).second) {
      errs.push_back({field + ".name", "Duplicate value: \"" + r.name + "\""});
    }
    if (r.weight != 1) {
      errs.push_back(
          {field + ".weight", "Invalid value: " + std::to_string(r.weight) + ": must be 1"});
    }
  }
  return errs;
}

Status NodeResourcesBalancedAllocation::PreScore(CycleState& state, const Pod& pod,
                                                 std::span<const NodeInfo* const> /*feasible*/,
                                                 const ClusterState& snapshot) const {
  auto data = std::make_shared<PreScoreState>();
  bool any_request = false;
  for (const ResourceSpec& r : args_.resources) {
    auto sr = ResolveScoredResource(r, pod, snapshot.interner(), RequestMode::kActual);
    if (!sr) continue;
    if (sr->kind == ScoredKind::kScalar) {
      std::string refusal = DraScoringRefusal(snapshot, r.name);
      if (!refusal.empty()) return Status::Error(std::move(refusal));
    }
    any_request = any_request || sr->pod_request != 0;
    data->resources.push_back(*sr);
  }
  if (!any_request) return Status(Code::kSkip);
  state.Write(slot(), std::move(data));
  return Status();
}

Status NodeResourcesBalancedAllocation::Score(const CycleState& state, const Pod& /*pod*/,
                                              const NodeInfo& node, int64_t* score) const {
  *score = 0;
  const auto* s = state.Read<PreScoreState>(slot());
  if (s == nullptr) {
    return Status::Error(
        "reading \"PreScoreNodeResourcesBalancedAllocation\" from cycleState: not found");
  }
  const int64_t with_pod = BalanceScore(*s, node, /*with_pod=*/true);
  const int64_t without_pod = BalanceScore(*s, node, /*with_pod=*/false);
  // Both are in [50, 100]; this maps their difference back into [50, 100].
  *score = kMaxNodeScore / 2 + (kMaxNodeScore / 2 + with_pod - without_pod) / 2;
  return Status();
}

void NodeResourcesBalancedAllocation::SignPod(const Pod& pod, PodSigner& sig) const {
  sig.Section(Name());
  sig.Add(pod.requests);
  sig.Add(pod.non_zero_requests);
  sig.Add(pod.non_zero_container_requests);
}

}  // namespace sched
