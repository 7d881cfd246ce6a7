// Consumable capacity of DRA devices (DRAConsumableCapacity, beta and on
// in v1.36.3): what a request consumes of a device's capacity under the
// capacity's requestPolicy, and whether it still fits beside what other
// claims consume. Mirrors consumable_capacity.go of
// k8s.io/dynamic-resource-allocation/structured/internal/incubating
// (v0.36.3). Values are exact quantities in nano-units (dra.h).
//
// Thread-safety: pure functions.
#ifndef LIBSCHED_PLUGINS_HELPER_DRA_CAPACITY_H_
#define LIBSCHED_PLUGINS_HELPER_DRA_CAPACITY_H_

#include <functional>
#include <map>
#include <optional>
#include <string>

#include "libsched/model/dra.h"

namespace sched {

// Consumed capacity of one device, by capacity name (ConsumedCapacity).
using DraCapacityUse = std::map<std::string, DraCounterValue, std::less<>>;

// calculateConsumedCapacity: without a request the policy's default, else
// the capacity's value; with one, rounded up to validRange's min and step,
// or to the first validValues entry not below it.
DraCounterValue DraConsumedCapacity(const std::optional<DraCounterValue>& requested,
                                    const DraCapacity& capacity);

// violatesPolicy: above validRange's max, off its step, or not one of
// validValues (the default never violates).
bool DraViolatesPolicy(DraCounterValue consumed, const std::optional<DraCapacityPolicy>& policy);

// CmpRequestOverCapacity: whether `requests` fit on `device` beside what
// allocated claims (`allocated`) and the claims being allocated
// (`allocating`) consume; each may be null. A request for a capacity the
// device lacks does not fit and sets *error (upstream's error, which its
// callers log and treat as no fit).
bool DraRequestFits(const DraQuantities& requests, const DraDevice& device,
                    const DraCapacityUse* allocated, const DraCapacityUse* allocating,
                    std::string* error);

// GetConsumedCapacityFromRequest: what a share consumes of every capacity
// of the device, sorted by name.
DraQuantities DraConsumedFromRequest(const DraQuantities& requests, const DraDevice& device);

}  // namespace sched

#endif  // LIBSCHED_PLUGINS_HELPER_DRA_CAPACITY_H_
