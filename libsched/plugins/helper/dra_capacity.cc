#include "libsched/plugins/helper/dra_capacity.h"

#include <algorithm>
#include <optional>

namespace sched {
namespace {

constexpr DraCounterValue kNanosPerUnit = 1000000000;

// resource.Quantity.Value(): whole units, rounded up.
DraCounterValue Units(DraCounterValue nanos) {
  DraCounterValue q = nanos / kNanosPerUnit;
  if (nanos % kNanosPerUnit > 0) ++q;
  return q;
}

// The quantity `q` requests of capacity `name`, if any.
std::optional<DraCounterValue> Requested(const DraQuantities& q, const std::string& name) {
  for (const auto& [n, v] : q) {
    if (n == name) return v;
  }
  return std::nullopt;
}

// roundUpRange: min when below it, else up to min plus a multiple of step
// (in whole units, as upstream's Value() arithmetic).
DraCounterValue RoundUpRange(DraCounterValue requested, const DraCapacityPolicy& p) {
  if (requested < p.min) return p.min;
  if (!p.step) return requested;
  const DraCounterValue step = Units(*p.step), min = Units(p.min);
  const DraCounterValue added = Units(requested) - min;
  DraCounterValue n = added / step;
  if (added % step != 0) ++n;
  return (min + step * n) * kNanosPerUnit;
}

}  // namespace

DraCounterValue DraConsumedCapacity(const std::optional<DraCounterValue>& requested,
                                    const DraCapacity& capacity) {
  const std::optional<DraCapacityPolicy>& p = capacity.policy;
  if (!requested) return p && p->default_value ? *p->default_value : capacity.value;
  if (!p) return *requested;
  if (p->has_range) return RoundUpRange(*requested, *p);
  for (DraCounterValue v : p->valid_values) {
    if (*requested <= v) return v;
  }
  return *requested;
}

bool DraViolatesPolicy(DraCounterValue consumed, const std::optional<DraCapacityPolicy>& policy) {
  if (!policy) return false;
  if (policy->default_value && consumed == *policy->default_value) return false;
  if (policy->has_range) {
    if (policy->max && consumed > *policy->max) return true;
    return policy->step && (Units(consumed) - Units(policy->min)) % Units(*policy->step) != 0;
  }
  if (policy->valid_values.empty()) return false;
  return std::find(policy->valid_values.begin(), policy->valid_values.end(), consumed) ==
         policy->valid_values.end();
}

bool DraRequestFits(const DraQuantities& requests, const DraDevice& device,
                    const DraCapacityUse* allocated, const DraCapacityUse* allocating,
                    std::string* error) {
  for (const auto& request : requests) {
    const std::string& name = request.first;  // not a structured binding: clang 14 captures none
    if (std::none_of(device.capacity.begin(), device.capacity.end(),
                     [&](const DraCapacity& c) { return c.name == name; })) {
      *error = "some requested capacity has not been defined";
      return false;
    }
  }
  auto used = [](const DraCapacityUse* use, const std::string& name) -> DraCounterValue {
    if (use == nullptr) return 0;
    auto it = use->find(name);
    return it == use->end() ? 0 : it->second;
  };
  for (const DraCapacity& c : device.capacity) {
    const DraCounterValue consumed = DraConsumedCapacity(Requested(requests, c.name), c);
    if (DraViolatesPolicy(consumed, c.policy)) return false;
    if (used(allocated, c.name) + consumed + used(allocating, c.name) > c.value) return false;
  }
  return true;
}

DraQuantities DraConsumedFromRequest(const DraQuantities& requests, const DraDevice& device) {
  DraQuantities out;
  for (const DraCapacity& c : device.capacity) {
    out.emplace_back(c.name, DraConsumedCapacity(Requested(requests, c.name), c));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace sched
