// resource.k8s.io/v1 ResourceSlice, DeviceClass, ResourceClaim and
// ResourceClaimTemplate, what the DynamicResources plugin reads through its
// listers (libsched/model/dra.h), and a pod's spec.resourceClaims with
// status.resourceClaimStatuses (resourceclaim.Name).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/limits.h"
#include "libsched/model/quantity.h"
#include "libsched/model/timestamp.h"

namespace sched::capi {
namespace {

// resourceapi.CELSelectorExpressionMaxLength.
constexpr size_t kMaxCelExpressionBytes = 10 * 1024;

// A v1.NodeSelector object (nodeSelectorTerms).
ApiStatus DecodeNodeSelectorObject(const cJSON* v, const JsonPath& path, Interner& in,
                                   NodeSelector* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  return ForEachElement(v, "nodeSelectorTerms", path, [&](const cJSON* t, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(t, p));
    return DecodeNodeSelectorTerm(t, p, in, &out->terms.emplace_back());
  });
}

// nodeName / allNodes / nodeSelector of a slice spec or a device.
ApiStatus DecodeNodeSelection(const cJSON* obj, const JsonPath& path, Interner& in,
                              DraNodeSelection* out) {
  std::string_view node_name;
  CAPI_RETURN_IF_ERROR(GetString(obj, "nodeName", path, &node_name));
  CAPI_RETURN_IF_ERROR(CheckLength(node_name, path.Child("nodeName"), kMaxNameBytes));
  out->node_name = node_name;
  CAPI_RETURN_IF_ERROR(GetBool(obj, "allNodes", path, &out->all_nodes));
  const cJSON* selector;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "nodeSelector", path, &selector));
  if (selector != nullptr) {
    CAPI_RETURN_IF_ERROR(DecodeNodeSelectorObject(selector, path.Child("nodeSelector"), in,
                                                  &out->node_selector.emplace()));
  }
  return ApiStatus();
}

// bindingConditions / bindingFailureConditions (of a device or a result):
// condition types, at most BindingConditionsMaxSize (4).
ApiStatus DecodeConditionTypes(const cJSON* obj, const char* name, const JsonPath& path,
                               std::vector<std::string>* out) {
  constexpr size_t kBindingConditionsMaxSize = 4;
  return ForEachElement(
      obj, name, path,
      [&](const cJSON* s, const JsonPath& p) {
        std::string_view type;
        CAPI_RETURN_IF_ERROR(AsString(s, p, &type));
        if (type.empty()) return Required(p);
        CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(type, p));
        out->emplace_back(type);
        return ApiStatus();
      },
      kBindingConditionsMaxSize);
}

// An RFC 3339 time as Unix nanoseconds.
ApiStatus DecodeTime(const cJSON* obj, const char* name, const JsonPath& path,
                     std::optional<int64_t>* out) {
  std::string_view text;
  CAPI_RETURN_IF_ERROR(GetString(obj, name, path, &text));
  if (text.empty()) return ApiStatus();
  *out = ParseRfc3339(text);
  if (!*out) {
    return ApiStatus::Invalid(path.Child(name),
                              "must be an RFC 3339 time like 2024-01-02T15:04:05Z");
  }
  return ApiStatus();
}

ApiStatus DecodeAttribute(const cJSON* v, const JsonPath& path, DraAttribute* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  int set = 0;
  const cJSON* m;
  CAPI_RETURN_IF_ERROR(Member(v, "int", path, &m));
  if (m != nullptr) {
    ++set;
    out->kind = DraAttribute::Kind::kInt;
    CAPI_RETURN_IF_ERROR(AsInt(m, path.Child("int"), -kMaxExactInt, kMaxExactInt, &out->int_value));
  }
  CAPI_RETURN_IF_ERROR(Member(v, "bool", path, &m));
  if (m != nullptr) {
    ++set;
    out->kind = DraAttribute::Kind::kBool;
    CAPI_RETURN_IF_ERROR(GetBool(v, "bool", path, &out->bool_value));
  }
  for (const char* name : {"string", "version"}) {
    CAPI_RETURN_IF_ERROR(Member(v, name, path, &m));
    if (m == nullptr) continue;
    ++set;
    std::string_view text;
    CAPI_RETURN_IF_ERROR(AsString(m, path.Child(name), &text));
    out->kind = name[0] == 's' ? DraAttribute::Kind::kString : DraAttribute::Kind::kVersion;
    out->text = text;
  }
  // API validation: exactly one value (list values need DRAListTypeAttributes, off).
  if (set != 1) {
    return ApiStatus::Invalid(path, "must have exactly one of int, bool, string, version");
  }
  return ApiStatus();
}

// A quantity (string or number) exact in nano-units; `text` gets what was
// written.
ApiStatus DecodeNanos(const cJSON* v, const JsonPath& path, DraCounterValue* out,
                      std::string* text = nullptr) {
  int64_t checked;  // rejects what is no quantity, with the usual message
  CAPI_RETURN_IF_ERROR(DecodeQuantity(v, path, false, &checked));
  std::string written =
      cJSON_IsString(v) ? std::string(v->valuestring) : NumberText(v->valuedouble);
  const QuantityNanosResult q = ParseQuantityNanos(written);
  if (!q.ok()) return ApiStatus::Invalid(path, q.error);
  *out = static_cast<DraCounterValue>(q.high) * (static_cast<DraCounterValue>(1) << 64) +
         static_cast<DraCounterValue>(q.low);
  if (text != nullptr) *text = std::move(written);
  return ApiStatus();
}

// A map `field` of {name: {value: quantity, ...}} (DeviceCapacity, Counter):
// `fn` gets each name, the entry, its path, the value's text and value.
ApiStatus ForEachQuantityValue(
    const cJSON* obj, const char* field, const JsonPath& path,
    const std::function<ApiStatus(const char*, const cJSON*, const JsonPath&, std::string,
                                  DraCounterValue)>& fn) {
  const cJSON* map;
  CAPI_RETURN_IF_ERROR(GetObject(obj, field, path, &map));
  if (map == nullptr) return ApiStatus();
  const JsonPath mp = path.Child(field);
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(map, mp));
  for (const cJSON* c = map->child; c != nullptr; c = c->next) {
    const JsonPath p = mp.Child(c->string);
    CAPI_RETURN_IF_ERROR(AsObject(c, p));
    const cJSON* value;
    CAPI_RETURN_IF_ERROR(Member(c, "value", p, &value));
    if (value == nullptr) return Required(p.Child("value"));
    std::string text;
    DraCounterValue nanos;
    CAPI_RETURN_IF_ERROR(DecodeNanos(value, p.Child("value"), &nanos, &text));
    CAPI_RETURN_IF_ERROR(fn(c->string, c, p, std::move(text), nanos));
  }
  return ApiStatus();
}

// A map of quantities {name: quantity} (capacity.requests, consumedCapacity).
ApiStatus DecodeQuantityMap(const cJSON* map, const JsonPath& path, DraQuantities* out) {
  CAPI_RETURN_IF_ERROR(AsObject(map, path));
  CAPI_RETURN_IF_ERROR(CheckUniqueKeys(map, path));
  for (const cJSON* c = map->child; c != nullptr; c = c->next) {
    const JsonPath p = path.Child(c->string);
    CAPI_RETURN_IF_ERROR(CheckLength(c->string, p, kMaxNameBytes));
    auto& [name, value] = out->emplace_back(c->string, 0);
    CAPI_RETURN_IF_ERROR(DecodeNanos(c, p, &value));
  }
  return ApiStatus();
}

// A quantity member `name` of `obj`, if present.
ApiStatus OptionalNanos(const cJSON* obj, const char* name, const JsonPath& path,
                        std::optional<DraCounterValue>* out) {
  const cJSON* v;
  CAPI_RETURN_IF_ERROR(Member(obj, name, path, &v));
  if (v == nullptr) return ApiStatus();
  return DecodeNanos(v, path.Child(name), &out->emplace());
}

// DeviceCapacity.requestPolicy: default, validValues (ascending, as API
// validation demands) or validRange (min required, step above zero).
ApiStatus DecodeRequestPolicy(const cJSON* v, const JsonPath& path, DraCapacityPolicy* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  CAPI_RETURN_IF_ERROR(OptionalNanos(v, "default", path, &out->default_value));
  CAPI_RETURN_IF_ERROR(
      ForEachElement(v, "validValues", path, [&](const cJSON* e, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(DecodeNanos(e, p, &out->valid_values.emplace_back()));
        const size_t n = out->valid_values.size();
        if (n > 1 && out->valid_values[n - 2] >= out->valid_values[n - 1]) {
          return ApiStatus::Invalid(p, "must be sorted in ascending order without duplicates");
        }
        return ApiStatus();
      }));
  const cJSON* range;
  CAPI_RETURN_IF_ERROR(GetObject(v, "validRange", path, &range));
  if (range == nullptr) return ApiStatus();
  const JsonPath rp = path.Child("validRange");
  if (!out->valid_values.empty()) {
    return ApiStatus::Invalid(rp, "must not be set together with validValues");
  }
  out->has_range = true;
  std::optional<DraCounterValue> min;
  CAPI_RETURN_IF_ERROR(OptionalNanos(range, "min", rp, &min));
  if (!min) return Required(rp.Child("min"));
  out->min = *min;
  CAPI_RETURN_IF_ERROR(OptionalNanos(range, "max", rp, &out->max));
  CAPI_RETURN_IF_ERROR(OptionalNanos(range, "step", rp, &out->step));
  // step.Value() divides: a step below one unit would divide by zero.
  if (out->step && *out->step < 1000000000) {
    return ApiStatus::Invalid(rp.Child("step"), "must be at least 1");
  }
  return ApiStatus();
}

// A CounterSet (`name`) or DeviceCounterConsumption (`counterSet`):
// counters {name: {value: quantity}}, values exact in nano-units.
ApiStatus DecodeCounterSet(const cJSON* v, const JsonPath& path, const char* name_field,
                           DraCounterSet* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view name;
  CAPI_RETURN_IF_ERROR(GetString(v, name_field, path, &name));
  if (name.empty()) return Required(path.Child(name_field));
  CAPI_RETURN_IF_ERROR(CheckLength(name, path.Child(name_field), kMaxNameBytes));
  out->name = name;
  return ForEachQuantityValue(
      v, "counters", path,
      [&](const char* counter, const cJSON*, const JsonPath&, std::string, DraCounterValue value) {
        out->counters.emplace_back(counter, value);
        return ApiStatus();
      });
}

// spec.devices[].taints[] (DeviceTaint): key required; an effect other
// than NoSchedule, NoExecute and None is kept and treated as None, as the
// API asks consumers to.
ApiStatus DecodeTaints(const cJSON* v, const JsonPath& path, std::vector<DraTaint>* out) {
  return ForEachElement(v, "taints", path, [&](const cJSON* t, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(t, p));
    std::string_view key, value, effect;
    CAPI_RETURN_IF_ERROR(GetString(t, "key", p, &key));
    if (key.empty()) return Required(p.Child("key"));
    CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(key, p.Child("key")));
    CAPI_RETURN_IF_ERROR(GetString(t, "value", p, &value));
    CAPI_RETURN_IF_ERROR(CheckLabelValueLength(value, p.Child("value")));
    CAPI_RETURN_IF_ERROR(GetString(t, "effect", p, &effect));
    if (effect.empty()) return Required(p.Child("effect"));
    CAPI_RETURN_IF_ERROR(CheckLength(effect, p.Child("effect"), kMaxNameBytes));
    out->push_back({std::string(key), std::string(value), std::string(effect)});
    return ApiStatus();
  });
}

// A request's tolerations[] (DeviceToleration).
ApiStatus DecodeTolerations(const cJSON* v, const JsonPath& path, std::vector<DraToleration>* out) {
  return ForEachElement(v, "tolerations", path, [&](const cJSON* t, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(t, p));
    std::string_view key, op, value, effect;
    CAPI_RETURN_IF_ERROR(GetString(t, "key", p, &key));
    CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(key, p.Child("key")));
    CAPI_RETURN_IF_ERROR(GetString(t, "operator", p, &op));
    if (!op.empty() && op != "Equal" && op != "Exists") {
      return Unsupported(p.Child("operator"), op, {"Equal", "Exists"});
    }
    CAPI_RETURN_IF_ERROR(GetString(t, "value", p, &value));
    CAPI_RETURN_IF_ERROR(CheckLabelValueLength(value, p.Child("value")));
    CAPI_RETURN_IF_ERROR(GetString(t, "effect", p, &effect));
    CAPI_RETURN_IF_ERROR(CheckLength(effect, p.Child("effect"), kMaxNameBytes));
    out->push_back({std::string(key), std::string(op), std::string(value), std::string(effect)});
    return ApiStatus();
  });
}

ApiStatus DecodeDevice(const cJSON* v, const JsonPath& path, bool per_device, Interner& in,
                       DraDevice* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view name;
  CAPI_RETURN_IF_ERROR(GetString(v, "name", path, &name));
  if (name.empty()) return Required(path.Child("name"));
  CAPI_RETURN_IF_ERROR(CheckLength(name, path.Child("name"), kMaxNameBytes));
  out->name = name;
  const cJSON* attrs;
  CAPI_RETURN_IF_ERROR(GetObject(v, "attributes", path, &attrs));
  if (attrs != nullptr) {
    const JsonPath ap = path.Child("attributes");
    CAPI_RETURN_IF_ERROR(CheckUniqueKeys(attrs, ap));
    for (const cJSON* a = attrs->child; a != nullptr; a = a->next) {
      auto& [key, value] = out->attributes.emplace_back();
      key = a->string;
      CAPI_RETURN_IF_ERROR(DecodeAttribute(a, ap.Child(a->string), &value));
    }
  }
  CAPI_RETURN_IF_ERROR(ForEachQuantityValue(
      v, "capacity", path,
      [&](const char* name, const cJSON* entry, const JsonPath& p, std::string text,
          DraCounterValue value) {
        DraCapacity& c = out->capacity.emplace_back();
        c.name = name;
        c.text = std::move(text);  // for CEL, as written
        c.value = value;
        const cJSON* policy;
        CAPI_RETURN_IF_ERROR(GetObject(entry, "requestPolicy", p, &policy));
        if (policy == nullptr) return ApiStatus();
        return DecodeRequestPolicy(policy, p.Child("requestPolicy"), &c.policy.emplace());
      }));
  if (per_device) CAPI_RETURN_IF_ERROR(DecodeNodeSelection(v, path, in, &out->node));
  CAPI_RETURN_IF_ERROR(
      ForEachElement(v, "consumesCounters", path, [&](const cJSON* c, const JsonPath& p) {
        return DecodeCounterSet(c, p, "counterSet", &out->consumes_counters.emplace_back());
      }));
  CAPI_RETURN_IF_ERROR(DecodeTaints(v, path, &out->taints));
  CAPI_RETURN_IF_ERROR(GetBool(v, "bindsToNode", path, &out->binds_to_node));
  CAPI_RETURN_IF_ERROR(
      DecodeConditionTypes(v, "bindingConditions", path, &out->binding_conditions));
  CAPI_RETURN_IF_ERROR(DecodeConditionTypes(v, "bindingFailureConditions", path,
                                            &out->binding_failure_conditions));
  return GetBool(v, "allowMultipleAllocations", path, &out->allow_multiple_allocations);
}

// spec.selectors / a request's selectors: cel.expression of each.
ApiStatus DecodeSelectors(const cJSON* obj, const JsonPath& path, std::vector<std::string>* out) {
  return ForEachElement(obj, "selectors", path, [&](const cJSON* s, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(s, p));
    const cJSON* cel;
    CAPI_RETURN_IF_ERROR(GetObject(s, "cel", p, &cel));
    // Only CEL selectors exist in v1; the allocator refuses an empty one
    // by its own words ("CEL expression empty").
    if (cel == nullptr) {
      out->emplace_back();
      return ApiStatus();
    }
    const cJSON* expr;
    const JsonPath cp = p.Child("cel");
    CAPI_RETURN_IF_ERROR(Member(cel, "expression", cp, &expr));
    if (expr == nullptr || !cJSON_IsString(expr)) return Required(cp.Child("expression"));
    const std::string_view text = expr->valuestring;
    CAPI_RETURN_IF_ERROR(CheckLength(text, cp.Child("expression"), kMaxCelExpressionBytes));
    out->emplace_back(text);
    return ApiStatus();
  });
}

// An ExactDeviceRequest, or a DeviceSubRequest (`sub`: no adminAccess).
ApiStatus DecodeRequestBody(const cJSON* v, const JsonPath& path, bool sub, DraRequest* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view cls, mode;
  CAPI_RETURN_IF_ERROR(GetString(v, "deviceClassName", path, &cls));
  CAPI_RETURN_IF_ERROR(CheckLength(cls, path.Child("deviceClassName"), kMaxNameBytes));
  out->device_class_name = cls;
  CAPI_RETURN_IF_ERROR(DecodeSelectors(v, path, &out->selectors));
  CAPI_RETURN_IF_ERROR(GetString(v, "allocationMode", path, &mode));
  if (mode == "All") {
    out->mode = DraRequest::Mode::kAll;
  } else if (!mode.empty() && mode != "ExactCount") {
    return Unsupported(path.Child("allocationMode"), mode, {"All", "ExactCount"});
  }
  CAPI_RETURN_IF_ERROR(GetInt64(v, "count", path, &out->count));
  if (out->mode == DraRequest::Mode::kExactCount && out->count <= 0) {
    return ApiStatus::Invalid(path.Child("count"), "must be greater than zero");
  }
  if (!sub) CAPI_RETURN_IF_ERROR(GetBool(v, "adminAccess", path, &out->admin_access));
  CAPI_RETURN_IF_ERROR(DecodeTolerations(v, path, &out->tolerations));
  const cJSON* capacity;
  CAPI_RETURN_IF_ERROR(GetObject(v, "capacity", path, &capacity));
  if (capacity == nullptr) return ApiStatus();
  const cJSON* requests;
  CAPI_RETURN_IF_ERROR(GetObject(capacity, "requests", path.Child("capacity"), &requests));
  if (requests == nullptr) return ApiStatus();
  return DecodeQuantityMap(requests, path.Child("capacity").Child("requests"),
                           &out->capacity_requests);
}

ApiStatus DecodeRequestName(const cJSON* v, const JsonPath& path, std::string* out) {
  std::string_view name;
  CAPI_RETURN_IF_ERROR(GetString(v, "name", path, &name));
  if (name.empty()) return Required(path.Child("name"));
  CAPI_RETURN_IF_ERROR(CheckLength(name, path.Child("name"), kMaxNameBytes));
  *out = name;
  return ApiStatus();
}

ApiStatus DecodeStrings(const cJSON* obj, const char* name, const JsonPath& path,
                        std::vector<std::string>* out) {
  return ForEachElement(obj, name, path, [&](const cJSON* s, const JsonPath& p) {
    std::string_view text;
    CAPI_RETURN_IF_ERROR(AsString(s, p, &text));
    out->emplace_back(text);
    return ApiStatus();
  });
}

// A ResourceClaimSpec (`spec` may be null: no requests).
ApiStatus DecodeClaimSpec(const cJSON* spec, const JsonPath& path, DraClaimSpec* out) {
  if (spec == nullptr) return ApiStatus();
  CAPI_RETURN_IF_ERROR(AsObject(spec, path));
  const cJSON* devices;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "devices", path, &devices));
  if (devices == nullptr) return ApiStatus();
  const JsonPath dp = path.Child("devices");
  CAPI_RETURN_IF_ERROR(
      ForEachElement(devices, "requests", dp, [&](const cJSON* r, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(r, p));
        DraDeviceRequest& req = out->requests.emplace_back();
        CAPI_RETURN_IF_ERROR(DecodeRequestName(r, p, &req.name));
        const cJSON* exactly;
        CAPI_RETURN_IF_ERROR(GetObject(r, "exactly", p, &exactly));
        if (exactly != nullptr) {
          DraRequest& body = req.exactly.emplace();
          body.name = req.name;
          CAPI_RETURN_IF_ERROR(DecodeRequestBody(exactly, p.Child("exactly"), false, &body));
        }
        return ForEachElement(r, "firstAvailable", p, [&](const cJSON* s, const JsonPath& sp) {
          CAPI_RETURN_IF_ERROR(AsObject(s, sp));
          DraRequest& sub = req.first_available.emplace_back();
          CAPI_RETURN_IF_ERROR(DecodeRequestName(s, sp, &sub.name));
          return DecodeRequestBody(s, sp, true, &sub);
        });
      }));
  return ForEachElement(devices, "constraints", dp, [&](const cJSON* c, const JsonPath& p) {
    CAPI_RETURN_IF_ERROR(AsObject(c, p));
    DraConstraint& con = out->constraints.emplace_back();
    CAPI_RETURN_IF_ERROR(DecodeStrings(c, "requests", p, &con.requests));
    std::string_view match, distinct;
    CAPI_RETURN_IF_ERROR(GetString(c, "matchAttribute", p, &match));
    CAPI_RETURN_IF_ERROR(GetString(c, "distinctAttribute", p, &distinct));
    con.match_attribute = match;
    con.distinct_attribute = distinct;
    return ApiStatus();
  });
}

// metadata.namespace ("default" when empty).
ApiStatus DecodeNamespaceOf(const cJSON* meta, const JsonPath& path, std::string* out) {
  std::string_view ns;
  const JsonPath mp = path.Child("metadata");
  CAPI_RETURN_IF_ERROR(GetString(meta, "namespace", mp, &ns));
  CAPI_RETURN_IF_ERROR(CheckLength(ns, mp.Child("namespace"), kMaxNamespaceBytes));
  *out = ns.empty() ? "default" : std::string(ns);
  return ApiStatus();
}

ApiStatus DecodeAllocation(const cJSON* v, const JsonPath& path, Interner& in, DraAllocation* out) {
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  const cJSON* devices;
  CAPI_RETURN_IF_ERROR(GetObject(v, "devices", path, &devices));
  if (devices != nullptr) {
    CAPI_RETURN_IF_ERROR(ForEachElement(
        devices, "results", path.Child("devices"), [&](const cJSON* r, const JsonPath& p) {
          CAPI_RETURN_IF_ERROR(AsObject(r, p));
          DraAllocatedDevice& d = out->devices.emplace_back();
          std::string_view request, driver, pool, device;
          CAPI_RETURN_IF_ERROR(GetString(r, "request", p, &request));
          CAPI_RETURN_IF_ERROR(GetString(r, "driver", p, &driver));
          CAPI_RETURN_IF_ERROR(GetString(r, "pool", p, &pool));
          CAPI_RETURN_IF_ERROR(GetString(r, "device", p, &device));
          if (device.empty()) return Required(p.Child("device"));
          CAPI_RETURN_IF_ERROR(GetBool(r, "adminAccess", p, &d.admin_access));
          const cJSON* share;
          CAPI_RETURN_IF_ERROR(Member(r, "shareID", p, &share));
          if (share != nullptr) {
            std::string_view id;
            CAPI_RETURN_IF_ERROR(AsString(share, p.Child("shareID"), &id));
            CAPI_RETURN_IF_ERROR(CheckLength(id, p.Child("shareID"), kMaxNameBytes));
            d.share_id = id;
          }
          const cJSON* consumed;
          CAPI_RETURN_IF_ERROR(GetObject(r, "consumedCapacity", p, &consumed));
          if (consumed != nullptr) {
            CAPI_RETURN_IF_ERROR(DecodeQuantityMap(consumed, p.Child("consumedCapacity"),
                                                   &d.consumed_capacity.emplace()));
          }
          CAPI_RETURN_IF_ERROR(
              DecodeConditionTypes(r, "bindingConditions", p, &d.binding_conditions));
          CAPI_RETURN_IF_ERROR(DecodeConditionTypes(r, "bindingFailureConditions", p,
                                                    &d.binding_failure_conditions));
          d.request = request;
          d.driver = driver;
          d.pool = pool;
          d.device = device;
          return ApiStatus();
        }));
  }
  const cJSON* selector;
  CAPI_RETURN_IF_ERROR(GetObject(v, "nodeSelector", path, &selector));
  if (selector != nullptr) {
    CAPI_RETURN_IF_ERROR(DecodeNodeSelectorObject(selector, path.Child("nodeSelector"), in,
                                                  &out->node_selector.emplace()));
  }
  return DecodeTime(v, "allocationTimestamp", path, &out->allocation_timestamp);
}

// status.devices[]: driver, pool, device and conditions[].{type,status}
// (at most AllocatedDeviceStatusMaxConditions, 8).
ApiStatus DecodeDeviceStatus(const cJSON* v, const JsonPath& path, DraDeviceStatus* out) {
  constexpr size_t kMaxConditions = 8;
  CAPI_RETURN_IF_ERROR(AsObject(v, path));
  std::string_view driver, pool, device;
  CAPI_RETURN_IF_ERROR(GetString(v, "driver", path, &driver));
  CAPI_RETURN_IF_ERROR(GetString(v, "pool", path, &pool));
  CAPI_RETURN_IF_ERROR(GetString(v, "device", path, &device));
  out->driver = driver;
  out->pool = pool;
  out->device = device;
  return ForEachElement(
      v, "conditions", path,
      [&](const cJSON* c, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(c, p));
        std::string_view type, status;
        CAPI_RETURN_IF_ERROR(GetString(c, "type", p, &type));
        if (type.empty()) return Required(p.Child("type"));
        CAPI_RETURN_IF_ERROR(CheckLabelKeyLength(type, p.Child("type")));
        CAPI_RETURN_IF_ERROR(GetString(c, "status", p, &status));
        if (status != "True" && status != "False" && status != "Unknown") {
          return Unsupported(p.Child("status"), status, {"False", "True", "Unknown"});
        }
        out->conditions.push_back({std::string(type), std::string(status)});
        return ApiStatus();
      },
      kMaxConditions);
}

}  // namespace

ApiStatus DecodeResourceSlice(const cJSON* obj, const JsonPath& path, Interner& in,
                              std::shared_ptr<const ResourceSlice>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto s = std::make_shared<ResourceSlice>();
  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  s->name = name;
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  const JsonPath sp = path.Child("spec");
  if (spec == nullptr) return Required(sp);
  std::string_view driver, pool_name;
  CAPI_RETURN_IF_ERROR(GetString(spec, "driver", sp, &driver));
  if (driver.empty()) return Required(sp.Child("driver"));
  CAPI_RETURN_IF_ERROR(CheckLength(driver, sp.Child("driver"), kMaxNameBytes));
  s->driver = driver;
  const cJSON* pool;
  CAPI_RETURN_IF_ERROR(GetObject(spec, "pool", sp, &pool));
  const JsonPath pp = sp.Child("pool");
  if (pool == nullptr) return Required(pp);
  CAPI_RETURN_IF_ERROR(GetString(pool, "name", pp, &pool_name));
  if (pool_name.empty()) return Required(pp.Child("name"));
  CAPI_RETURN_IF_ERROR(CheckLength(pool_name, pp.Child("name"), kMaxStringBytes));
  s->pool = pool_name;
  CAPI_RETURN_IF_ERROR(GetInt64(pool, "generation", pp, &s->generation));
  CAPI_RETURN_IF_ERROR(GetInt64(pool, "resourceSliceCount", pp, &s->resource_slice_count));
  if (s->resource_slice_count <= 0) {
    return ApiStatus::Invalid(pp.Child("resourceSliceCount"), "must be greater than zero");
  }
  CAPI_RETURN_IF_ERROR(DecodeNodeSelection(spec, sp, in, &s->node));
  CAPI_RETURN_IF_ERROR(GetBool(spec, "perDeviceNodeSelection", sp, &s->per_device_node_selection));
  CAPI_RETURN_IF_ERROR(
      ForEachElement(spec, "sharedCounters", sp, [&](const cJSON* c, const JsonPath& p) {
        return DecodeCounterSet(c, p, "name", &s->shared_counters.emplace_back());
      }));
  CAPI_RETURN_IF_ERROR(ForEachElement(spec, "devices", sp, [&](const cJSON* d, const JsonPath& p) {
    return DecodeDevice(d, p, s->per_device_node_selection, in, &s->devices.emplace_back());
  }));
  s->atoms = atoms.Finish();
  *out = std::move(s);
  return ApiStatus();
}

ApiStatus DecodeDeviceClass(const cJSON* obj, const JsonPath& path,
                            std::shared_ptr<const DeviceClass>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  auto c = std::make_shared<DeviceClass>();
  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  c->name = name;
  std::optional<int64_t> created;
  CAPI_RETURN_IF_ERROR(DecodeTime(meta, "creationTimestamp", path.Child("metadata"), &created));
  c->created = created.value_or(0);
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    const JsonPath sp = path.Child("spec");
    CAPI_RETURN_IF_ERROR(DecodeSelectors(spec, sp, &c->selectors));
    std::string_view extended;
    CAPI_RETURN_IF_ERROR(GetString(spec, "extendedResourceName", sp, &extended));
    CAPI_RETURN_IF_ERROR(CheckLength(extended, sp.Child("extendedResourceName"), kMaxStringBytes));
    c->extended_resource_name = extended;
  }
  *out = std::move(c);
  return ApiStatus();
}

ApiStatus DecodeResourceClaim(const cJSON* obj, const JsonPath& path, Interner& in,
                              std::shared_ptr<const ResourceClaim>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  AtomRecorder atoms(in);
  auto c = std::make_shared<ResourceClaim>();
  const cJSON* meta;
  std::string_view name, uid, deletion;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  c->name = name;
  CAPI_RETURN_IF_ERROR(DecodeNamespaceOf(meta, path, &c->ns));
  const JsonPath mp = path.Child("metadata");
  CAPI_RETURN_IF_ERROR(GetString(meta, "uid", mp, &uid));
  c->uid = uid;
  CAPI_RETURN_IF_ERROR(GetString(meta, "deletionTimestamp", mp, &deletion));
  c->deleting = !deletion.empty();
  CAPI_RETURN_IF_ERROR(
      ForEachElement(meta, "ownerReferences", mp, [&](const cJSON* o, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(o, p));
        bool controller = false;
        std::string_view owner_uid, owner_name;
        CAPI_RETURN_IF_ERROR(GetBool(o, "controller", p, &controller));
        CAPI_RETURN_IF_ERROR(GetString(o, "uid", p, &owner_uid));
        CAPI_RETURN_IF_ERROR(GetString(o, "name", p, &owner_name));
        // metav1.GetControllerOf: the first controller reference.
        if (controller && c->controller_uid.empty()) {
          c->controller_uid = owner_uid;
          c->controller_name = owner_name;
        }
        return ApiStatus();
      }));
  const cJSON* annotations;
  CAPI_RETURN_IF_ERROR(GetObject(meta, "annotations", mp, &annotations));
  if (annotations != nullptr) {
    const cJSON* v = cJSON_GetObjectItemCaseSensitive(
        annotations, "resource.kubernetes.io/extended-resource-claim");
    c->extended_resource_claim = cJSON_IsString(v) && std::string_view(v->valuestring) == "true";
  }
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  CAPI_RETURN_IF_ERROR(DecodeClaimSpec(spec, path.Child("spec"), &c->spec));
  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status != nullptr) {
    const JsonPath stp = path.Child("status");
    const cJSON* allocation;
    CAPI_RETURN_IF_ERROR(GetObject(status, "allocation", stp, &allocation));
    if (allocation != nullptr) {
      CAPI_RETURN_IF_ERROR(
          DecodeAllocation(allocation, stp.Child("allocation"), in, &c->allocation.emplace()));
    }
    CAPI_RETURN_IF_ERROR(ForEachElement(
        status, "reservedFor", stp,
        [&](const cJSON* r, const JsonPath& p) {
          CAPI_RETURN_IF_ERROR(AsObject(r, p));
          std::string_view ref_uid;
          CAPI_RETURN_IF_ERROR(GetString(r, "uid", p, &ref_uid));
          c->reserved_for.emplace_back(ref_uid);
          return ApiStatus();
        },
        kDraReservedForMaxSize));
    CAPI_RETURN_IF_ERROR(
        ForEachElement(status, "devices", stp, [&](const cJSON* d, const JsonPath& p) {
          return DecodeDeviceStatus(d, p, &c->device_statuses.emplace_back());
        }));
  }
  c->atoms = atoms.Finish();
  *out = std::move(c);
  return ApiStatus();
}

ApiStatus DecodeResourceClaimTemplate(const cJSON* obj, const JsonPath& path,
                                      std::shared_ptr<const ResourceClaimTemplate>* out) {
  CAPI_RETURN_IF_ERROR(AsObject(obj, path));
  auto t = std::make_shared<ResourceClaimTemplate>();
  const cJSON* meta;
  std::string_view name;
  CAPI_RETURN_IF_ERROR(DecodeName(obj, path, &meta, &name));
  t->name = name;
  CAPI_RETURN_IF_ERROR(DecodeNamespaceOf(meta, path, &t->ns));
  const cJSON* spec;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "spec", path, &spec));
  if (spec != nullptr) {
    const JsonPath sp = path.Child("spec");
    const cJSON* inner;
    CAPI_RETURN_IF_ERROR(GetObject(spec, "spec", sp, &inner));
    CAPI_RETURN_IF_ERROR(DecodeClaimSpec(inner, sp.Child("spec"), &t->spec));
  }
  *out = std::move(t);
  return ApiStatus();
}

ApiStatus DecodePodResourceClaims(const cJSON* obj, const JsonPath& path, const cJSON* spec,
                                  Pod* pod) {
  const JsonPath spec_path = path.Child("spec");
  CAPI_RETURN_IF_ERROR(
      ForEachElement(spec, "resourceClaims", spec_path, [&](const cJSON* c, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(c, p));
        PodResourceClaim& rc = pod->resource_claims.emplace_back();
        std::string_view name;
        CAPI_RETURN_IF_ERROR(GetString(c, "name", p, &name));
        rc.name = name;
        for (const char* field : {"resourceClaimName", "resourceClaimTemplateName"}) {
          const cJSON* v;
          CAPI_RETURN_IF_ERROR(Member(c, field, p, &v));
          if (v == nullptr) continue;
          std::string_view text;
          CAPI_RETURN_IF_ERROR(AsString(v, p.Child(field), &text));
          CAPI_RETURN_IF_ERROR(CheckLength(text, p.Child(field), kMaxNameBytes));
          (field[13] == 'N' ? rc.claim_name : rc.template_name).emplace(text);
        }
        return ApiStatus();
      }));
  const cJSON* status;
  CAPI_RETURN_IF_ERROR(GetObject(obj, "status", path, &status));
  if (status == nullptr) return ApiStatus();
  const JsonPath sp = path.Child("status");
  return ForEachElement(
      status, "resourceClaimStatuses", sp, [&](const cJSON* s, const JsonPath& p) {
        CAPI_RETURN_IF_ERROR(AsObject(s, p));
        std::string_view name;
        CAPI_RETURN_IF_ERROR(GetString(s, "name", p, &name));
        const cJSON* generated;
        CAPI_RETURN_IF_ERROR(Member(s, "resourceClaimName", p, &generated));
        std::string_view text;
        if (generated != nullptr) {
          CAPI_RETURN_IF_ERROR(AsString(generated, p.Child("resourceClaimName"), &text));
        }
        // resourceclaim.Name takes the first status entry of that name.
        for (PodResourceClaim& rc : pod->resource_claims) {
          if (rc.name != name || rc.has_status) continue;
          rc.has_status = true;
          if (generated != nullptr) rc.generated_name.emplace(text);
        }
        return ApiStatus();
      });
}

}  // namespace sched::capi
