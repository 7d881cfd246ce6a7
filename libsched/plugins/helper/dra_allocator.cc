#include "libsched/plugins/helper/dra_allocator.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace sched {
namespace {

using Outcome = DraAllocator::Outcome;

std::string ClaimKey(const ResourceClaim& c) { return c.ns + "/" + c.name; }

// A share's shareID: upstream draws a random UUID; libsched derives one
// (UUID version 4 layout) from the claim, the result's index and the
// device, so that the same input gives the same allocation.
std::string ShareId(const ResourceClaim& claim, size_t index, const std::string& device) {
  const std::string key =
      claim.uid + "/" + ClaimKey(claim) + "/" + std::to_string(index) + "/" + device;
  const XXH128_hash_t h = XXH3_128bits(key.data(), key.size());
  const uint64_t hi = (h.high64 & ~0xf000ull) | 0x4000ull;       // version 4
  const uint64_t lo = (h.low64 & ~(3ull << 62)) | (2ull << 62);  // variant 10
  char out[37];
  std::snprintf(out, sizeof(out), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xffffffffffffull));
  return out;
}

// NodeMatches (pools_incubating.go).
bool NodeMatches(const Node& node, const DraNodeSelection& sel, const Interner& in) {
  if (!sel.node_name.empty()) return node.name == sel.node_name;
  if (sel.all_nodes) return true;
  if (sel.node_selector) return sel.node_selector->Matches(node.labels, node.name_atom, in);
  return false;
}

// A pool of one driver as GatherPools builds it for a node.
struct Pool {
  std::string driver, name;
  bool incomplete = false;
  bool invalid = false;
  bool binding_conditions = false;
  std::vector<const ResourceSlice*> slices;  // device slices, by name
  // DRAPartitionableDevices: the pool's counter sets (from the slices with
  // sharedCounters), and the device slices of the pool that do not reach
  // the node (their allocated devices consume counters too).
  std::map<std::string, const DraCounters*, std::less<>> counter_sets;
  std::vector<const ResourceSlice*> not_targeting;
};

// validateDeviceCounterConsumption: every consumed counter exists.
bool CountersValid(const Pool& pool, const std::vector<const ResourceSlice*>& slices) {
  for (const ResourceSlice* s : slices) {
    for (const DraDevice& d : s->devices) {
      for (const DraCounterSet& use : d.consumes_counters) {
        auto set = pool.counter_sets.find(use.name);
        if (set == pool.counter_sets.end()) return false;
        for (const auto& counter : use.counters) {
          const std::string& name = counter.first;
          if (std::none_of(set->second->begin(), set->second->end(),
                           [&](const auto& c) { return c.first == name; })) {
            return false;
          }
        }
      }
    }
  }
  return true;
}

CelDevice ToCel(const ResourceSlice& slice, const DraDevice& d) {
  CelDevice c;
  c.driver = slice.driver;
  c.allow_multiple_allocations = d.allow_multiple_allocations;
  for (const auto& [name, a] : d.attributes) {
    DeviceAttributeValue v;
    v.kind = static_cast<DeviceAttributeValue::Kind>(a.kind);
    v.int_value = a.int_value;
    v.bool_value = a.bool_value;
    v.text = a.text;
    c.attributes.emplace_back(name, std::move(v));
  }
  for (const DraCapacity& cap : d.capacity) c.capacity.emplace_back(cap.name, cap.text);
  return c;
}

// resourceclaim.ToleratesTaint.
bool Tolerates(const DraToleration& t, const DraTaint& taint) {
  if (!t.effect.empty() && t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  if (t.op.empty() || t.op == "Equal") return t.value == taint.value;
  return t.op == "Exists";
}

// taintPreventsAllocation: a NoSchedule or NoExecute taint the request
// does not tolerate.
bool TaintPreventsAllocation(const DraDevice& d, const DraRequest& r) {
  for (const DraTaint& taint : d.taints) {
    if (taint.effect != "NoSchedule" && taint.effect != "NoExecute") continue;
    if (std::none_of(r.tolerations.begin(), r.tolerations.end(),
                     [&](const DraToleration& t) { return Tolerates(t, taint); })) {
      return true;
    }
  }
  return false;
}

bool SameValue(const DraAttribute& a, const DraAttribute& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case DraAttribute::Kind::kInt:
      return a.int_value == b.int_value;
    case DraAttribute::Kind::kBool:
      return a.bool_value == b.bool_value;
    default:
      return a.text == b.text;
  }
}

// A matchAttribute or distinctAttribute constraint (constraint.go) during
// one search.
struct Constraint {
  Constraint(const DraConstraint* s, bool d, const std::string* name)
      : spec(s), distinct(d), attribute_name(name) {}
  const DraConstraint* spec;
  bool distinct;
  const std::string* attribute_name;
  // match: the first device's value and the count; distinct: the value per
  // request name, as upstream keys it.
  DraAttribute first;
  int num_devices = 0;
  std::map<std::string, DraAttribute> values;

  // matches: the request, or a subrequest by "request/sub" or its request.
  bool Applies(const std::string& request, const std::string& sub) const {
    auto has = [&](const std::string& n) {
      return std::find(spec->requests.begin(), spec->requests.end(), n) != spec->requests.end();
    };
    return spec->requests.empty() || has(request) || (!sub.empty() && has(request + "/" + sub));
  }
  bool Add(const std::string& request, const std::string& sub, const ResourceSlice& slice,
           const DraDevice& d) {
    if (!Applies(request, sub)) return true;
    const DraAttribute* a = d.FindAttribute(slice.driver, *attribute_name);
    if (a == nullptr) return false;
    if (num_devices == 0) {
      if (distinct) {
        values[request] = *a;
      } else {
        first = *a;
      }
      num_devices = 1;
      return true;
    }
    if (distinct) {
      for (const auto& [name, v] : values) {
        if (SameValue(v, *a)) return false;
      }
      values[request] = *a;
    } else if (!SameValue(first, *a)) {
      return false;
    }
    ++num_devices;
    return true;
  }
  void Remove(const std::string& request, const std::string& sub) {
    if (!Applies(request, sub)) return;
    if (distinct) values.erase(request);
    --num_devices;
  }
};

}  // namespace

std::string DraAllocator::DeviceId(const std::string& driver, const std::string& pool,
                                   const std::string& device) {
  return driver + "/" + pool + "/" + device;
}

DraAllocator::DraAllocator(const ClusterState& state, std::vector<const ResourceClaim*> claims,
                           const std::vector<std::string>& more_classes)
    : state_(state), interner_(state.interner()), claims_(std::move(claims)) {
  for (const auto& [key, claim] : state.resource_claims()) {
    if (!claim->allocation) continue;
    for (const DraAllocatedDevice& d : claim->allocation->devices) {
      // foreachAllocatedDevice: devices allocated with admin access stay
      // free; a share of a device (shareID) leaves it free for other shares
      // and adds what it consumes to the device's aggregated capacity.
      if (d.admin_access) continue;
      std::string id = DeviceId(d.driver, d.pool, d.device);
      if (!d.share_id) {
        allocated_.insert(std::move(id));
        continue;
      }
      if (d.consumed_capacity) {
        DraCapacityUse& use = aggregated_[id];
        for (const auto& [name, value] : *d.consumed_capacity) use[name] += value;
      }
      shared_.insert(std::move(id));
    }
  }
  for (const auto& [name, slice] : state.resource_slices()) {
    if (slice->node.node_name.empty() || !slice->shared_counters.empty()) {
      slices_shared_.push_back(slice.get());
    } else {
      slices_on_node_[slice->node.node_name].push_back(slice.get());
    }
  }
  auto compile = [&](const std::string& expr) {
    if (expr.empty() || compiled_.contains(expr)) return;
    Compiled& c = compiled_[expr];
    c.selector = DeviceSelector::Compile(expr, &c.error);
  };
  auto add_class = [&](const std::string& name) {
    auto it = state.device_classes().find(name);
    if (it == state.device_classes().end()) return;
    for (const std::string& s : it->second->selectors) compile(s);
  };
  for (const std::string& name : more_classes) add_class(name);
  for (const ResourceClaim* claim : claims_) {
    for (const DraDeviceRequest& r : claim->spec.requests) {
      auto add = [&](const DraRequest& body) {
        for (const std::string& s : body.selectors) compile(s);
        add_class(body.device_class_name);
      };
      if (r.exactly) add(*r.exactly);
      for (const DraRequest& sub : r.first_available) add(sub);
    }
  }
}

DraAllocator::~DraAllocator() = default;

// One Allocate call: the allocator struct of allocator_incubating.go.
class DraAllocator::Search {
 public:
  // An error that ends the search (upstream's returned error); thrown
  // inside the recursion and caught by Allocate, never beyond it.
  struct Stop {
    Outcome::Kind kind;
    std::string message;
  };

  Search(const DraAllocator& a, const Node& node, const std::vector<const ResourceClaim*>& claims)
      : a_(a), node_(node), claims_(claims) {}

  Outcome Run();

 private:
  struct Candidate {
    const ResourceSlice* slice;
    const DraDevice* device;
    std::string id;
    const Pool* pool;
  };
  // Counter values by counter set, then counter name.
  using CounterSets = std::map<std::string, std::map<std::string, DraCounterValue>, std::less<>>;
  // A request, or one subrequest of a firstAvailable request.
  struct RequestData {
    const DraRequest* request = nullptr;
    const DraDeviceRequest* parent = nullptr;  // a subrequest's request
    const DeviceClass* cls = nullptr;
    int num_devices = 0;
    std::vector<Candidate> all_devices;  // mode All
    // A DeviceSubRequest has no adminAccess.
    bool admin_access() const { return parent == nullptr && request->admin_access; }
    const std::string& base_name() const { return parent ? parent->name : request->name; }
    std::string sub_name() const { return parent ? request->name : std::string(); }
    // The allocation result's request: "request" or "request/subrequest".
    std::string result_name() const {
      return parent ? parent->name + "/" + request->name : request->name;
    }
  };
  struct Result {
    const RequestData* rd;
    const ResourceSlice* slice;
    const DraDevice* device;
    std::string id;
    bool shared = false;          // a share of a device allowing multiple allocations
    DraQuantities consumed = {};  // what the share consumes
  };
  // allocatingCapacity of one device: its shares being allocated and what
  // they consume.
  struct Allocating {
    int shares = 0;
    DraCapacityUse use;
  };
  // allocateOne's outcomes: errAllocationResultMaxSizeExceeded is kTooMany.
  enum class Step { kNo, kDone, kTooMany };

  void GatherPools();
  bool Selectable(size_t claim, const RequestData& rd, const ResourceSlice& slice,
                  const DraDevice& d);
  bool SelectorsMatch(size_t claim, const DeviceClass* cls,
                      const std::vector<std::string>& selectors, const ResourceSlice& slice,
                      const DraDevice& d);
  RequestData ValidateRequest(size_t claim, const DraRequest& r, const DraDeviceRequest* parent);
  Step AllocateOne(size_t claim, size_t request, size_t sub, int device, bool allocate_sub,
                   size_t pool0, size_t slice0, size_t dev0);
  bool AllocateDevice(size_t claim, const RequestData& rd, const Candidate& c, bool must,
                      std::function<void()>* undo);
  const CounterSets& AvailableCounters(const Pool& pool);
  bool ReserveCounters(const Candidate& c);
  void ReleaseCounters(const Candidate& c);
  bool InUse(const std::string& id) const {
    if (a_.allocated_.contains(id)) return true;
    auto it = allocating_.find(id);
    return it != allocating_.end() && !it->second.empty();
  }
  // CmpRequestOverCapacity of the allocator: the request beside the
  // device's allocated and allocating shares.
  bool CapacityFits(const DraRequest& r, const std::string& id, const DraDevice& d) const {
    auto done = a_.aggregated_.find(id);
    auto doing = allocating_capacity_.find(id);
    std::string error;  // upstream logs it; the device is passed over
    return DraRequestFits(
        r.capacity_requests, d, done == a_.aggregated_.end() ? nullptr : &done->second,
        doing == allocating_capacity_.end() ? nullptr : &doing->second.use, &error);
  }
  bool CapacityInUse(const std::string& id) const {
    return a_.aggregated_.contains(id) || allocating_capacity_.contains(id);
  }
  bool AllocatingForClaim(const std::string& id, size_t claim) const {
    auto it = allocating_.find(id);
    return it != allocating_.end() && it->second.contains(claim);
  }
  std::optional<NodeSelector> NodeSelectorFor(const ResourceClaim& claim,
                                              const std::vector<Result>& results);

  const DraAllocator& a_;
  const Node& node_;
  const std::vector<const ResourceClaim*>& claims_;  // the claims to allocate
  std::vector<Pool> pools_;
  // Per claim, per request: the request itself, or its subrequests in order.
  std::vector<std::vector<std::vector<RequestData>>> requests_;
  std::vector<std::vector<Constraint>> constraints_;
  std::map<std::string, std::set<size_t>> allocating_;
  std::map<std::string, Allocating, std::less<>> allocating_capacity_;
  // By pool name, as upstream keys them: the counters left by allocated
  // devices, and those the devices being allocated consume.
  std::map<std::string, CounterSets, std::less<>> available_;
  std::map<std::string, CounterSets, std::less<>> consumed_;
  std::vector<std::vector<Result>> results_;
};

void DraAllocator::Search::GatherPools() {
  std::vector<const ResourceSlice*> for_node;
  if (auto it = a_.slices_on_node_.find(node_.name); it != a_.slices_on_node_.end()) {
    for_node = it->second;
  }
  for_node.insert(for_node.end(), a_.slices_shared_.begin(), a_.slices_shared_.end());
  // By (driver, pool): the slices of the newest generation seen.
  std::map<std::pair<std::string, std::string>, std::vector<const ResourceSlice*>> pools;
  for (const ResourceSlice* s : for_node) {
    bool relevant = false;
    if (!s->shared_counters.empty()) {
      relevant = true;
    } else if (!s->node.node_name.empty() || s->node.all_nodes || s->node.node_selector) {
      relevant = NodeMatches(node_, s->node, a_.interner_);
    } else if (s->per_device_node_selection) {
      for (const DraDevice& d : s->devices) {
        if (NodeMatches(node_, d.node, a_.interner_)) {
          relevant = true;
          break;
        }
      }
    }
    if (!relevant) continue;
    auto& list = pools[{s->driver, s->pool}];
    if (!list.empty() && s->generation < list[0]->generation) continue;
    if (!list.empty() && s->generation > list[0]->generation) list.clear();
    list.push_back(s);
  }
  std::vector<Pool> with_binding_conditions;
  for (auto& [id, slices] : pools) {
    Pool pool;
    pool.driver = id.first;
    pool.name = id.second;
    const int64_t generation = slices[0]->generation;
    const int64_t want = slices[0]->resource_slice_count;
    // The pool's slices that do not reach the node, when it is complete
    // only with them.
    std::vector<const ResourceSlice*> others;
    if (static_cast<int64_t>(slices.size()) != want) {
      // checkSlicesInPool: what all slices of the pool say.
      bool obsolete = false;
      int64_t same = 0;
      for (const auto& [name, s] : a_.state_.resource_slices()) {
        if (s->driver != id.first || s->pool != id.second) continue;
        if (s->generation > generation) obsolete = true;
        if (s->generation != generation) continue;
        ++same;
        if (std::find(slices.begin(), slices.end(), s.get()) == slices.end()) {
          others.push_back(s.get());
        }
      }
      if (obsolete) continue;
      if (same != want) {
        pool.incomplete = true;
        pools_.push_back(std::move(pool));
        continue;
      }
    }
    // buildPool.
    std::sort(slices.begin(), slices.end(),
              [](const ResourceSlice* x, const ResourceSlice* y) { return x->name < y->name; });
    std::set<std::string_view> names;
    for (const ResourceSlice* s : slices) {
      for (const DraCounterSet& set : s->shared_counters) {
        // A duplicate counter set name makes the pool invalid.
        if (!pool.counter_sets.emplace(set.name, &set.counters).second) pool.invalid = true;
      }
      if (!s->shared_counters.empty()) continue;  // a counter set slice: no devices
      pool.slices.push_back(s);
      for (const DraDevice& d : s->devices) {
        if (!names.insert(d.name).second) pool.invalid = true;  // duplicate device name
        // poolHasBindingConditions.
        pool.binding_conditions = pool.binding_conditions || !d.binding_conditions.empty();
      }
    }
    pool.invalid =
        pool.invalid || !CountersValid(pool, pool.slices) || !CountersValid(pool, others);
    for (const ResourceSlice* s : others) {
      if (s->shared_counters.empty()) pool.not_targeting.push_back(s);
    }
    if (pool.invalid) {
      pool.slices.clear();
      pool.binding_conditions = false;
    }
    (pool.binding_conditions ? with_binding_conditions : pools_).push_back(std::move(pool));
  }
  // Pools whose devices have binding conditions come last.
  for (Pool& p : with_binding_conditions) pools_.push_back(std::move(p));
}

bool DraAllocator::Search::SelectorsMatch(size_t claim, const DeviceClass* cls,
                                          const std::vector<std::string>& selectors,
                                          const ResourceSlice& slice, const DraDevice& d) {
  if (selectors.empty()) return true;
  const std::string who =
      cls != nullptr ? "class " + cls->name : "claim " + ClaimKey(*claims_[claim]);
  const CelDevice device = ToCel(slice, d);
  for (size_t i = 0; i < selectors.size(); ++i) {
    const Compiled& c = a_.compiled_.at(selectors[i]);
    const std::string where = who + ": selector #" + std::to_string(i) + ": ";
    if (c.selector == nullptr)
      throw Stop{Outcome::Kind::kError, where + "CEL compile error: " + c.error};
    std::string error;
    switch (c.selector->Matches(device, &error)) {
      case DeviceSelector::Result::kMatch:
        break;
      case DeviceSelector::Result::kNoMatch:
        return false;
      case DeviceSelector::Result::kError:
        throw Stop{Outcome::Kind::kError, where + "CEL runtime error: " + error};
    }
  }
  return true;
}

// isSelectable.
bool DraAllocator::Search::Selectable(size_t claim, const RequestData& rd,
                                      const ResourceSlice& slice, const DraDevice& d) {
  if (rd.cls != nullptr && !SelectorsMatch(claim, rd.cls, rd.cls->selectors, slice, d)) {
    return false;
  }
  if (!SelectorsMatch(claim, nullptr, rd.request->selectors, slice, d)) return false;
  return !slice.per_device_node_selection || NodeMatches(node_, d.node, a_.interner_);
}

bool DraAllocator::Search::AllocateDevice(size_t claim, const RequestData& rd, const Candidate& c,
                                          bool must, std::function<void()>* undo) {
  const bool admin = rd.admin_access();
  const bool multi = c.device->allow_multiple_allocations;
  if (!multi && admin && AllocatingForClaim(c.id, claim)) return false;
  if (!admin && InUse(c.id)) return false;
  // A device already shared has its counters taken by the first share.
  const bool counters = !c.device->consumes_counters.empty() && !(multi && CapacityInUse(c.id));
  if (counters && !ReserveCounters(c)) return false;
  if (TaintPreventsAllocation(*c.device, *rd.request)) {
    if (counters) ReleaseCounters(c);
    return false;
  }
  const std::string& base = rd.base_name();
  const std::string sub = rd.sub_name();
  std::vector<Constraint>& constraints = constraints_[claim];
  size_t added = 0;
  for (; added < constraints.size(); ++added) {
    if (!constraints[added].Add(base, sub, *c.slice, *c.device)) break;
  }
  auto release = [this, claim, c, base, sub, counters](size_t n) {
    std::vector<Constraint>& cs = constraints_[claim];
    for (size_t i = n; i-- > 0;) cs[i].Remove(base, sub);
    if (counters) ReleaseCounters(c);
  };
  if (added < constraints.size()) {
    release(added);
    if (must) {
      throw Stop{Outcome::Kind::kError, "claim " + ClaimKey(*claims_[claim]) + ", request " +
                                            rd.request->name + ": cannot add device " + c.id +
                                            " because a claim constraint would not be satisfied"};
    }
    return false;
  }
  // Checked again, after the constraints, as allocateDevice does.
  if (!CapacityFits(*rd.request, c.id, *c.device)) {
    release(added);
    return false;
  }
  Result result{&rd, c.slice, c.device, c.id};
  if (multi) {
    result.shared = true;
    result.consumed = DraConsumedFromRequest(rd.request->capacity_requests, *c.device);
    Allocating& a = allocating_capacity_[c.id];
    ++a.shares;
    for (const auto& [name, value] : result.consumed) a.use[name] += value;
  } else {
    allocating_[c.id].insert(claim);
  }
  results_[claim].push_back(std::move(result));
  *undo = [this, claim, c, multi, release, n = added] {
    if (multi) {
      auto it = allocating_capacity_.find(c.id);
      for (const auto& [name, value] : results_[claim].back().consumed)
        it->second.use[name] -= value;
      if (--it->second.shares == 0) allocating_capacity_.erase(it);
    } else {
      allocating_[c.id].erase(claim);
    }
    results_[claim].pop_back();
    release(n);
  };
  return true;
}

// checkAvailableCounters' first part: the pool's counter sets less what the
// allocated devices of all its slices consume (negative values stay).
const DraAllocator::Search::CounterSets& DraAllocator::Search::AvailableCounters(const Pool& pool) {
  auto [it, added] = available_.try_emplace(pool.name);
  if (!added) return it->second;
  CounterSets& sets = it->second;
  for (const auto& [name, counters] : pool.counter_sets) {
    for (const auto& [counter, value] : *counters) sets[name][counter] = value;
  }
  for (const auto* slices : {&pool.slices, &pool.not_targeting}) {
    for (const ResourceSlice* s : *slices) {
      for (const DraDevice& d : s->devices) {
        // IsDeviceAllocated: allocated whole, or shared.
        const std::string id = DeviceId(s->driver, s->pool, d.name);
        if (!a_.allocated_.contains(id) && !a_.shared_.contains(id)) continue;
        for (const DraCounterSet& use : d.consumes_counters) {
          auto set = sets.find(use.name);
          if (set == sets.end()) continue;
          for (const auto& [counter, value] : use.counters) {
            if (auto c = set->second.find(counter); c != set->second.end()) c->second -= value;
          }
        }
      }
    }
  }
  return sets;
}

// checkAvailableCounters: adds the device's consumption to the pool's and
// keeps it when no counter of the pool is exceeded.
bool DraAllocator::Search::ReserveCounters(const Candidate& c) {
  const CounterSets& available = AvailableCounters(*c.pool);
  CounterSets& consumed = consumed_[c.pool->name];
  for (const DraCounterSet& use : c.device->consumes_counters) {
    for (const auto& [counter, value] : use.counters) consumed[use.name][counter] += value;
  }
  // Every counter of the pool: one left negative by allocated devices
  // fails any device of the pool.
  for (const auto& [set, counters] : available) {
    auto used = consumed.find(set);
    for (const auto& [counter, value] : counters) {
      DraCounterValue u = 0;
      if (used != consumed.end()) {
        if (auto it = used->second.find(counter); it != used->second.end()) u = it->second;
      }
      if (value < u) {
        ReleaseCounters(c);
        return false;
      }
    }
  }
  return true;
}

void DraAllocator::Search::ReleaseCounters(const Candidate& c) {
  CounterSets& consumed = consumed_[c.pool->name];
  for (const DraCounterSet& use : c.device->consumes_counters) {
    for (const auto& [counter, value] : use.counters) consumed[use.name][counter] -= value;
  }
}

// allocateOne: device `device` of request `request` (its subrequest `sub`
// when allocate_sub) of claim `claim`; the search for it starts at (pool0,
// slice0, dev0).
DraAllocator::Search::Step DraAllocator::Search::AllocateOne(size_t claim, size_t request,
                                                             size_t sub, int device,
                                                             bool allocate_sub, size_t pool0,
                                                             size_t slice0, size_t dev0) {
  if (claim >= claims_.size()) return Step::kDone;
  if (request >= requests_[claim].size()) {
    const Step next = AllocateOne(claim + 1, 0, 0, 0, false, 0, 0, 0);
    // Another allocation of earlier claims may pick smaller subrequests.
    return next == Step::kTooMany ? Step::kNo : next;
  }
  const std::vector<RequestData>& subs = requests_[claim][request];
  if (!allocate_sub && subs[0].parent != nullptr) {
    // firstAvailable: the first subrequest that leads to a solution.
    bool all_too_many = true;
    for (size_t i = 0; i < subs.size(); ++i) {
      const Step step = AllocateOne(claim, request, i, device, true, 0, 0, 0);
      if (step == Step::kTooMany) continue;
      all_too_many = false;
      if (step == Step::kDone) return step;
    }
    return all_too_many ? Step::kTooMany : Step::kNo;
  }
  const RequestData& rd = subs[sub];
  const bool all = rd.request->mode == DraRequest::Mode::kAll;
  if (all && rd.all_devices.empty()) return Step::kNo;
  if (device >= rd.num_devices) return AllocateOne(claim, request + 1, 0, 0, false, 0, 0, 0);
  if (static_cast<int64_t>(results_[claim].size()) + rd.num_devices - device >
      kDraAllocationResultsMaxSize) {
    return Step::kTooMany;
  }
  std::function<void()> undo;
  if (all) {
    // The order does not matter: this device or no solution.
    if (!AllocateDevice(claim, rd, rd.all_devices[device], true, &undo)) return Step::kNo;
    const Step step = AllocateOne(claim, request, sub, device + 1, allocate_sub, 0, 0, 0);
    if (step != Step::kDone) undo();
    return step;
  }
  const bool admin = rd.admin_access();
  for (size_t p = pool0; p < pools_.size(); ++p) {
    const Pool& pool = pools_[p];
    if (pool.incomplete || pool.invalid) continue;
    for (size_t s = p == pool0 ? slice0 : 0; s < pool.slices.size(); ++s) {
      const ResourceSlice& slice = *pool.slices[s];
      for (size_t d = p == pool0 && s == slice0 ? dev0 : 0; d < slice.devices.size(); ++d) {
        const DraDevice& dev = slice.devices[d];
        Candidate c{&slice, &dev, DeviceId(pool.driver, pool.name, dev.name), &pool};
        if (admin ? AllocatingForClaim(c.id, claim) : InUse(c.id)) continue;
        if (!Selectable(claim, rd, slice, dev)) continue;
        if (!CapacityFits(*rd.request, c.id, dev)) continue;
        if (!AllocateDevice(claim, rd, c, false, &undo)) continue;
        const Step step = AllocateOne(claim, request, sub, device + 1, allocate_sub, p, s, d + 1);
        if (step == Step::kDone) return step;
        undo();
        if (step == Step::kTooMany) return step;
      }
    }
  }
  return Step::kNo;
}

std::optional<NodeSelector> DraAllocator::Search::NodeSelectorFor(
    const ResourceClaim& claim, const std::vector<Result>& results) {
  NodeSelectorTerm term;
  auto add_new = [](const std::vector<Requirement>& from, std::vector<Requirement>* to) {
    for (const Requirement& r : from) {
      if (std::find(to->begin(), to->end(), r) == to->end()) to->push_back(r);
    }
  };
  for (const Result& r : results) {
    const DraNodeSelection& sel =
        r.slice->per_device_node_selection ? r.device->node : r.slice->node;
    if (!sel.node_name.empty() || r.device->binds_to_node) {
      // Local to the node, or bindsToNode: a selector for exactly this node.
      Requirement field;
      field.op = SelectorOp::kIn;
      field.values = {node_.name_atom};
      NodeSelector only;
      only.terms.emplace_back().match_fields.push_back(std::move(field));
      return only;
    }
    if (!sel.node_selector) continue;
    const size_t n = sel.node_selector->terms.size();
    if (n == 0) continue;
    if (n > 1) {
      throw Stop{Outcome::Kind::kError, "create NodeSelector for claim " + claim.name +
                                            ": unsupported ResourceSlice.NodeSelector with " +
                                            std::to_string(n) + " terms"};
    }
    add_new(sel.node_selector->terms[0].match_fields, &term.match_fields);
    add_new(sel.node_selector->terms[0].match_expressions, &term.match_expressions);
  }
  if (term.match_fields.empty() && term.match_expressions.empty()) return std::nullopt;
  NodeSelector out;
  out.terms.push_back(std::move(term));
  return out;
}

// validateDeviceRequest.
DraAllocator::Search::RequestData DraAllocator::Search::ValidateRequest(
    size_t claim, const DraRequest& r, const DraDeviceRequest* parent) {
  const std::string ref = ClaimKey(*claims_[claim]);
  RequestData rd;
  rd.request = &r;
  rd.parent = parent;
  for (size_t i = 0; i < r.selectors.size(); ++i) {
    if (r.selectors[i].empty()) {
      throw Stop{Outcome::Kind::kError, "claim " + ref + ", request " + r.name + ", selector #" +
                                            std::to_string(i) +
                                            ": CEL expression empty (unsupported selector type?)"};
    }
  }
  if (r.device_class_name.empty()) {
    throw Stop{Outcome::Kind::kError,
               "claim " + ref + ", request " + r.name +
                   ": missing device class name (unsupported request type?)"};
  }
  auto cls = a_.state_.device_classes().find(r.device_class_name);
  if (cls == a_.state_.device_classes().end()) {
    throw Stop{Outcome::Kind::kError, "claim " + ref + ", request " + r.name +
                                          ": could not retrieve device class " +
                                          r.device_class_name + ": deviceclass.resource.k8s.io \"" +
                                          r.device_class_name + "\" not found"};
  }
  rd.cls = cls->second.get();
  if (r.mode == DraRequest::Mode::kExactCount) {
    rd.num_devices = static_cast<int>(std::min<int64_t>(r.count, 1 << 30));
    return rd;
  }
  for (const Pool& pool : pools_) {
    const std::string what = "claim " + ref + ", request " + r.name +
                             ": asks for all devices, but resource pool " + pool.driver + "/" +
                             pool.name;
    if (pool.incomplete) throw Stop{Outcome::Kind::kError, what + " is currently being updated"};
    if (pool.invalid) throw Stop{Outcome::Kind::kError, what + " is currently invalid"};
    for (const ResourceSlice* s : pool.slices) {
      for (const DraDevice& d : s->devices) {
        std::string id = DeviceId(pool.driver, pool.name, d.name);
        if (Selectable(claim, rd, *s, d) && CapacityFits(r, id, d)) {
          rd.all_devices.push_back({s, &d, std::move(id), &pool});
        }
      }
    }
  }
  rd.num_devices = static_cast<int>(rd.all_devices.size());
  return rd;
}

Outcome DraAllocator::Search::Run() {
  GatherPools();
  const size_t n = claims_.size();
  requests_.resize(n);
  constraints_.resize(n);
  results_.resize(n);
  for (size_t ci = 0; ci < n; ++ci) {
    const ResourceClaim& claim = *claims_[ci];
    const std::string ref = ClaimKey(claim);
    int64_t min_devices = 0;
    for (const DraDeviceRequest& req : claim.spec.requests) {
      std::vector<RequestData>& subs = requests_[ci].emplace_back();
      if (!req.first_available.empty()) {
        // The fewest devices any subrequest needs.
        int64_t fewest = INT64_MAX;
        for (const DraRequest& sub : req.first_available) {
          subs.push_back(ValidateRequest(ci, sub, &req));
          fewest = std::min<int64_t>(fewest, subs.back().num_devices);
        }
        min_devices += fewest;
      } else if (req.exactly) {
        subs.push_back(ValidateRequest(ci, *req.exactly, nullptr));
        min_devices += subs.back().num_devices;
      } else {  // the plugin rejects these in PreFilter already
        throw Stop{Outcome::Kind::kError, "claim " + ref + ", request " + req.name +
                                              ": missing device class name (unsupported request "
                                              "type?)"};
      }
    }
    if (min_devices > kDraAllocationResultsMaxSize) {
      throw Stop{Outcome::Kind::kError,
                 "claim " + ref + ": number of requested devices " + std::to_string(min_devices) +
                     " exceeds the claim limit of " + std::to_string(kDraAllocationResultsMaxSize)};
    }
    for (size_t i = 0; i < claim.spec.constraints.size(); ++i) {
      const DraConstraint& c = claim.spec.constraints[i];
      if (!c.match_attribute.empty()) {
        constraints_[ci].push_back(Constraint(&c, false, &c.match_attribute));
      } else if (!c.distinct_attribute.empty()) {
        constraints_[ci].push_back(Constraint(&c, true, &c.distinct_attribute));
      } else {
        throw Stop{Outcome::Kind::kError, "claim " + ref + ", constraint #" + std::to_string(i) +
                                              ": empty constraint (unsupported constraint type?)"};
      }
    }
  }
  Outcome out;
  const Step step = AllocateOne(0, 0, 0, 0, false, 0, 0, 0);
  if (step == Step::kTooMany) {
    // Upstream returns errAllocationResultMaxSizeExceeded itself here.
    throw Stop{Outcome::Kind::kError, "allocation max size exceeded"};
  }
  if (step == Step::kNo) {
    for (const Pool& p : pools_) {
      if (p.invalid) {
        out.message = "invalid resource pools were encountered";
        return out;
      }
    }
    out.message = "cannot allocate all claims";
    return out;
  }
  out.kind = Outcome::Kind::kAllocated;
  for (size_t ci = 0; ci < n; ++ci) {
    DraAllocation& alloc = out.allocations.emplace_back();
    for (const Result& r : results_[ci]) {
      DraAllocatedDevice& d = alloc.devices.emplace_back();
      d.request = r.rd->result_name();
      d.driver = r.slice->driver;
      d.pool = r.slice->pool;
      d.device = r.device->name;
      d.admin_access = r.rd->admin_access();
      // DRADeviceBindingConditions: copied from the device.
      d.binding_conditions = r.device->binding_conditions;
      d.binding_failure_conditions = r.device->binding_failure_conditions;
      if (!r.shared) continue;
      d.share_id = ShareId(*claims_[ci], alloc.devices.size() - 1, r.id);
      // consumedCapacity only when the device has capacity, as upstream.
      if (!r.consumed.empty()) d.consumed_capacity = r.consumed;
    }
    alloc.node_selector = NodeSelectorFor(*claims_[ci], results_[ci]);
  }
  return out;
}

DraAllocator::Outcome DraAllocator::Allocate(const Node& node) const {
  return Allocate(node, claims_);
}

DraAllocator::Outcome DraAllocator::Allocate(const Node& node,
                                             const std::vector<const ResourceClaim*>& claims) const {
  Search search(*this, node, claims);
  try {
    return search.Run();
  } catch (const Search::Stop& stop) {
    Outcome out;
    out.kind = stop.kind;
    out.message = stop.message;
    return out;
  }
}

}  // namespace sched
