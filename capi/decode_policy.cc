// The legacy scheduler Policy (kind "Policy", apiVersion "v1", as
// kube-scheduler read it through v1.22) translated the way v1.19-v1.22 did
// (pkg/scheduler/factory.go createFromConfig and
// framework/plugins/legacy_registry.go), but onto today's plugins: the
// result is a KubeSchedulerConfiguration with one default-scheduler profile
// whose plugins replace the defaults, decoded by DecodeConfig. docs/policy.md
// has the mapping and what differs.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "capi/decode.h"
#include "capi/json_reader.h"
#include "capi/json_writer.h"

namespace sched::capi {
namespace {

struct PredicateRow {
  std::string_view name;
  std::vector<std::string_view> filters;  // plugins, in the order they are added
};

// The predicates, in upstream's predicateOrdering (v1.20's). The node
// condition predicates (v1.16) map to TaintToleration and follow
// PodToleratesNodeTaints: since TaintNodesByCondition (GA in v1.17) the
// node lifecycle controller turns those conditions into node.kubernetes.io/*
// NoSchedule taints, which is how upstream dropped them.
const std::vector<PredicateRow>& Predicates() {
  static const std::vector<PredicateRow> rows = {
      {"CheckNodeUnschedulable", {"NodeUnschedulable"}},
      {"GeneralPredicates", {"NodeResourcesFit", "NodeName", "NodePorts", "NodeAffinity"}},
      {"HostName", {"NodeName"}},
      {"PodFitsHostPorts", {"NodePorts"}},
      {"MatchNodeSelector", {"NodeAffinity"}},
      {"PodFitsResources", {"NodeResourcesFit"}},
      {"NoDiskConflict", {"VolumeRestrictions"}},
      {"PodToleratesNodeTaints", {"TaintToleration"}},
      {"CheckNodeCondition", {"TaintToleration"}},
      {"CheckNodeMemoryPressure", {"TaintToleration"}},
      {"CheckNodePIDPressure", {"TaintToleration"}},
      {"CheckNodeDiskPressure", {"TaintToleration"}},
      {"CheckNodeLabelPresence", {"NodeLabel"}},
      {"CheckServiceAffinity", {"ServiceAffinity"}},
      {"MaxEBSVolumeCount", {"NodeVolumeLimits"}},
      {"MaxGCEPDVolumeCount", {"NodeVolumeLimits"}},
      {"MaxCSIVolumeCountPred", {"NodeVolumeLimits"}},
      {"MaxAzureDiskVolumeCount", {"NodeVolumeLimits"}},
      {"MaxCinderVolumeCount", {"NodeVolumeLimits"}},
      {"CheckVolumeBinding", {"VolumeBinding"}},
      {"NoVolumeZoneConflict", {"VolumeZone"}},
      {"EvenPodsSpread", {"PodTopologySpread"}},
      {"MatchInterPodAffinity", {"InterPodAffinity"}},
  };
  return rows;
}

// Always configured (mandatoryPredicates).
constexpr std::string_view kMandatoryPredicates[] = {"PodToleratesNodeTaints",
                                                     "CheckNodeUnschedulable"};
// Used when the Policy has no predicates field (DefaultPredicates).
constexpr std::string_view kDefaultPredicates[] = {
    "NoVolumeZoneConflict",    "MaxEBSVolumeCount",      "MaxGCEPDVolumeCount",
    "MaxAzureDiskVolumeCount", "MaxCSIVolumeCountPred",  "MatchInterPodAffinity",
    "NoDiskConflict",          "GeneralPredicates",      "PodToleratesNodeTaints",
    "CheckVolumeBinding",      "CheckNodeUnschedulable", "EvenPodsSpread"};

// NodeResourcesFit's scoring strategies, which three priorities select.
enum class Strategy { kNone, kLeast, kMost, kRatio };

struct PriorityRow {
  std::string_view name;
  std::string_view plugin;
  Strategy strategy = Strategy::kNone;
};

const std::vector<PriorityRow>& Priorities() {
  static const std::vector<PriorityRow> rows = {
      {"EqualPriority", "EqualPriority"},
      {"LeastRequestedPriority", "NodeResourcesFit", Strategy::kLeast},
      {"MostRequestedPriority", "NodeResourcesFit", Strategy::kMost},
      {"BalancedResourceAllocation", "NodeResourcesBalancedAllocation"},
      {"SelectorSpreadPriority", "SelectorSpread"},
      {"ServiceSpreadingPriority", "SelectorSpread"},
      {"InterPodAffinityPriority", "InterPodAffinity"},
      {"NodeAffinityPriority", "NodeAffinity"},
      {"TaintTolerationPriority", "TaintToleration"},
      {"ImageLocalityPriority", "ImageLocality"},
      {"NodePreferAvoidPodsPriority", "NodePreferAvoidPods"},
      {"EvenPodsSpreadPriority", "PodTopologySpread"},
  };
  return rows;
}

// Used when the Policy has no priorities field (DefaultPriorities).
const std::map<std::string_view, int64_t>& DefaultPriorities() {
  static const std::map<std::string_view, int64_t> m = {
      {"SelectorSpreadPriority", 1},          {"InterPodAffinityPriority", 1},
      {"LeastRequestedPriority", 1},          {"BalancedResourceAllocation", 1},
      {"NodePreferAvoidPodsPriority", 10000}, {"NodeAffinityPriority", 1},
      {"TaintTolerationPriority", 1},         {"ImageLocalityPriority", 1},
      {"EvenPodsSpreadPriority", 2}};
  return m;
}

// config.MaxWeight: MaxTotalScore / MaxNodeScore.
constexpr int64_t kMaxPolicyWeight = INT64_MAX / 100;

// An ordered set of plugin names with a weight each (appendToPluginSet:
// a name added twice keeps its place and the larger weight).
struct NamedSet {
  std::vector<std::pair<std::string, int64_t>> items;
  void Add(std::string_view name, int64_t weight = 0) {
    for (auto& [n, w] : items) {
      if (n == name) {
        w = std::max(w, weight);
        return;
      }
    }
    items.emplace_back(name, weight);
  }
  bool Has(std::string_view name) const {
    return std::any_of(items.begin(), items.end(), [&](const auto& i) { return i.first == name; });
  }
};

// Everything the Policy says, gathered before the config is written.
struct Translation {
  NamedSet filters;                              // in filter order
  std::map<std::string, int64_t> priorities;     // key -> weight
  std::map<std::string, size_t> priority_index;  // key -> its last priorities[] entry
  std::vector<std::string> present_labels, absent_labels;
  std::vector<std::string> present_preference, absent_preference;
  bool node_label_args = false;
  std::vector<std::string> affinity_labels, anti_affinity_preference;
  bool service_affinity_args = false;
  const cJSON* ratio_args = nullptr;  // requestedToCapacityRatioArguments
  std::optional<int64_t> label_preference_weight, anti_affinity_weight;
  int64_t hard_pod_affinity_weight = 0;  // 0: unset, as the v1 field
  bool always_check_all = false;
};

ApiStatus GetStrings(const cJSON* obj, const char* name, const JsonPath& path,
                     std::vector<std::string>* out) {
  return ForEachElement(obj, name, path, [&](const cJSON* e, const JsonPath& p) {
    std::string_view s;
    CAPI_RETURN_IF_ERROR(AsString(e, p, &s));
    out->emplace_back(s);
    return ApiStatus();
  });
}

// The one argument kind of `argument` among `kinds` (validatePredicate /
// validatePriority: exactly one).
ApiStatus OneArgument(const cJSON* argument, const JsonPath& path,
                      std::initializer_list<std::string_view> kinds, const cJSON** out,
                      std::string_view* kind) {
  CAPI_RETURN_IF_ERROR(CheckFields(argument, path, kinds));
  int n = 0;
  for (const cJSON* m = argument->child; m != nullptr; m = m->next) {
    if (cJSON_IsNull(m)) continue;
    ++n;
    *out = m;
    *kind = m->string;
  }
  if (n != 1) {
    return ApiStatus::Invalid(path, "exactly 1 argument is required, got " + std::to_string(n));
  }
  return AsObject(*out, path.Child(*kind));
}

const PredicateRow* FindPredicate(std::string_view name) {
  for (const PredicateRow& r : Predicates()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// A predicate entry: its key (a predicateOrdering name) into *key, and its
// argument folded into `t`.
ApiStatus DecodePredicate(const cJSON* v, const JsonPath& path, Translation* t,
                          std::string_view* key, std::optional<int64_t>* order) {
  CAPI_RETURN_IF_ERROR(CheckFields(v, path, {"name", "argument", "order"}));
  std::string_view name;
  CAPI_RETURN_IF_ERROR(GetString(v, "name", path, &name));
  if (name.empty()) return Required(path.Child("name"));
  const cJSON* order_json;
  CAPI_RETURN_IF_ERROR(Member(v, "order", path, &order_json));
  if (order_json != nullptr) {
    int64_t o;
    CAPI_RETURN_IF_ERROR(AsInt(order_json, path.Child("order"), INT32_MIN, INT32_MAX, &o));
    *order = o;
  }
  if (name == "PodFitsPorts") name = "PodFitsHostPorts";  // the old key, still read upstream
  const cJSON* argument;
  CAPI_RETURN_IF_ERROR(Member(v, "argument", path, &argument));
  if (argument == nullptr) {
    if (FindPredicate(name) == nullptr) {
      return ApiStatus::Invalid(path.Child("name"), "predicate type not found for " + Quoted(name));
    }
    *key = FindPredicate(name)->name;
    return ApiStatus();
  }
  // A custom predicate: the argument decides the plugin, whatever the name.
  const JsonPath ap = path.Child("argument");
  const cJSON* arg;
  std::string_view kind;
  CAPI_RETURN_IF_ERROR(
      OneArgument(argument, ap, {"serviceAffinity", "labelsPresence"}, &arg, &kind));
  const JsonPath kp = ap.Child(kind);
  if (kind == "serviceAffinity") {
    CAPI_RETURN_IF_ERROR(CheckFields(arg, kp, {"labels"}));
    CAPI_RETURN_IF_ERROR(GetStrings(arg, "labels", kp, &t->affinity_labels));
    t->service_affinity_args = true;
    *key = "CheckServiceAffinity";
  } else {
    CAPI_RETURN_IF_ERROR(CheckFields(arg, kp, {"labels", "presence"}));
    bool presence = false;
    CAPI_RETURN_IF_ERROR(GetBool(arg, "presence", kp, &presence));
    CAPI_RETURN_IF_ERROR(
        GetStrings(arg, "labels", kp, presence ? &t->present_labels : &t->absent_labels));
    t->node_label_args = true;
    *key = "CheckNodeLabelPresence";
  }
  return ApiStatus();
}

ApiStatus DecodePredicates(const cJSON* predicates, const JsonPath& path, Translation* t) {
  // key -> the smallest `order` given for it
  std::map<std::string_view, std::optional<int64_t>> keys;
  if (predicates == nullptr) {
    for (std::string_view k : kDefaultPredicates) keys[k];
  } else {
    CAPI_RETURN_IF_ERROR(AsArray(predicates, path));
    CAPI_RETURN_IF_ERROR(CheckItemCount(predicates, path, kMaxItems));
    size_t i = 0;
    for (const cJSON* e = predicates->child; e != nullptr; e = e->next, ++i) {
      std::string_view key;
      std::optional<int64_t> order;
      CAPI_RETURN_IF_ERROR(DecodePredicate(e, path.Index(i), t, &key, &order));
      std::optional<int64_t>& o = keys[key];
      if (order && (!o || *order < *o)) o = order;
    }
  }
  for (std::string_view k : kMandatoryPredicates) keys[k];
  // The seeds' `order` first (ascending; ties in predicateOrdering), then
  // the rest in predicateOrdering.
  std::vector<std::pair<int64_t, size_t>> ordered;  // (order, row) or (max, row)
  const auto& rows = Predicates();
  for (size_t r = 0; r < rows.size(); ++r) {
    const auto it = keys.find(rows[r].name);
    if (it == keys.end()) continue;
    ordered.emplace_back(it->second.value_or(INT64_MAX), r);
  }
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [order, r] : ordered) {
    for (std::string_view plugin : rows[r].filters) t->filters.Add(plugin);
  }
  return ApiStatus();
}

// validateCustomPriorities: label preferences (and service anti-affinities)
// must share one weight, since they become one plugin.
ApiStatus SameWeight(std::optional<int64_t>* shared, int64_t weight, const JsonPath& path,
                     std::string_view what) {
  if (shared->has_value() && **shared != weight) {
    return ApiStatus::Invalid(
        path, std::string(what) + " priorities must all have the same weight, got " +
                  std::to_string(weight) + " and " + std::to_string(**shared));
  }
  *shared = weight;
  return ApiStatus();
}

ApiStatus DecodePriority(const cJSON* v, const JsonPath& path, size_t index, Translation* t) {
  CAPI_RETURN_IF_ERROR(CheckFields(v, path, {"name", "weight", "argument"}));
  std::string_view name;
  CAPI_RETURN_IF_ERROR(GetString(v, "name", path, &name));
  if (name.empty()) return Required(path.Child("name"));
  const cJSON* weight_json;
  CAPI_RETURN_IF_ERROR(Member(v, "weight", path, &weight_json));
  int64_t weight = 0;
  if (weight_json != nullptr) {
    CAPI_RETURN_IF_ERROR(
        AsInt(weight_json, path.Child("weight"), -kMaxExactInt, kMaxExactInt, &weight));
  }
  if (weight <= 0 || weight >= kMaxPolicyWeight) {
    return ApiStatus::Invalid(path.Child("weight"), "priority " + Quoted(name) +
                                                        " should have a positive weight applied "
                                                        "to it or it has overflown");
  }
  const cJSON* argument;
  CAPI_RETURN_IF_ERROR(Member(v, "argument", path, &argument));
  std::string key(name);
  if (argument == nullptr) {
    const auto& rows = Priorities();
    if (std::none_of(rows.begin(), rows.end(),
                     [&](const PriorityRow& r) { return r.name == name; })) {
      return ApiStatus::Invalid(path.Child("name"), "priority type not found for " + Quoted(name));
    }
    if (name == "ServiceSpreadingPriority") key = "SelectorSpreadPriority";
  } else {
    const JsonPath ap = path.Child("argument");
    const cJSON* arg;
    std::string_view kind;
    CAPI_RETURN_IF_ERROR(
        OneArgument(argument, ap,
                    {"serviceAntiAffinity", "labelPreference", "requestedToCapacityRatioArguments"},
                    &arg, &kind));
    const JsonPath kp = ap.Child(kind);
    if (kind == "serviceAntiAffinity") {
      CAPI_RETURN_IF_ERROR(CheckFields(arg, kp, {"label"}));
      std::string_view label;
      CAPI_RETURN_IF_ERROR(GetString(arg, "label", kp, &label));
      CAPI_RETURN_IF_ERROR(SameWeight(&t->anti_affinity_weight, weight, path.Child("weight"),
                                      "serviceAntiAffinity"));
      t->anti_affinity_preference.emplace_back(label);
      t->service_affinity_args = true;
      key = "ServiceAntiAffinity";
    } else if (kind == "labelPreference") {
      CAPI_RETURN_IF_ERROR(CheckFields(arg, kp, {"label", "presence"}));
      std::string_view label;
      bool presence = false;
      CAPI_RETURN_IF_ERROR(GetString(arg, "label", kp, &label));
      CAPI_RETURN_IF_ERROR(GetBool(arg, "presence", kp, &presence));
      CAPI_RETURN_IF_ERROR(
          SameWeight(&t->label_preference_weight, weight, path.Child("weight"), "labelPreference"));
      (presence ? t->present_preference : t->absent_preference).emplace_back(label);
      t->node_label_args = true;
      key = "NodeLabelPriority";
    } else {
      CAPI_RETURN_IF_ERROR(CheckFields(arg, kp, {"shape", "resources"}));
      if (t->ratio_args != nullptr) {
        return ApiStatus::Invalid(ap, "requestedToCapacityRatioArguments may be given once");
      }
      t->ratio_args = arg;
      key = "RequestedToCapacityRatioPriority";
    }
  }
  t->priorities[key] = weight;
  t->priority_index[key] = index;
  return ApiStatus();
}

// The profile's score plugins and pluginConfig from the priorities.
struct Scores {
  NamedSet score;
  Strategy strategy = Strategy::kNone;
  bool spread_list_defaulting = false;  // EvenPodsSpreadPriority
};

ApiStatus TranslatePriorities(const Translation& t, Scores* out) {
  // Upstream ran the producers in key order; weights as appendToPluginSet.
  for (const auto& [key, weight] : t.priorities) {
    std::string_view plugin;
    Strategy strategy = Strategy::kNone;
    int64_t w = weight;
    if (key == "NodeLabelPriority") {
      plugin = "NodeLabel";
      w *= static_cast<int64_t>(t.present_preference.size() + t.absent_preference.size());
    } else if (key == "ServiceAntiAffinity") {
      plugin = "ServiceAffinity";
      w *= static_cast<int64_t>(t.anti_affinity_preference.size());
    } else if (key == "RequestedToCapacityRatioPriority") {
      plugin = "NodeResourcesFit";
      strategy = Strategy::kRatio;
    } else {
      for (const PriorityRow& r : Priorities()) {
        if (r.name == key) {
          plugin = r.plugin;
          strategy = r.strategy;
        }
      }
    }
    // The entry that set the key, or the field itself for the defaults.
    const JsonPath root;
    const JsonPath priorities = root.Child("priorities");
    const auto index = t.priority_index.find(key);
    const JsonPath entry =
        index != t.priority_index.end() ? priorities.Index(index->second) : priorities;
    const JsonPath where = index != t.priority_index.end() ? entry.Child("name") : priorities;
    if (w > INT32_MAX) {
      return ApiStatus::Invalid(where, "the weight of plugin " + Quoted(plugin) + " (" +
                                           std::to_string(w) + ") exceeds 2147483647");
    }
    if (strategy != Strategy::kNone) {
      if (out->strategy != Strategy::kNone && out->strategy != strategy) {
        return ApiStatus::Invalid(where,
                                  "LeastRequestedPriority, MostRequestedPriority and "
                                  "RequestedToCapacityRatioPriority cannot be combined: each sets "
                                  "NodeResourcesFit's scoring strategy");
      }
      out->strategy = strategy;
    }
    if (key == "EvenPodsSpreadPriority") out->spread_list_defaulting = true;
    out->score.Add(plugin, w);
  }
  return ApiStatus();
}

void WriteStrings(JsonWriter& w, std::string_view key, const std::vector<std::string>& v) {
  if (v.empty()) return;
  w.Key(key).BeginArray();
  for (const std::string& s : v) w.String(s);
  w.EndArray();
}

// The enabled list of one point.
void WriteSet(JsonWriter& w, std::string_view point, const NamedSet& set) {
  if (set.items.empty()) return;
  w.Key(point).BeginObject().Key("enabled").BeginArray();
  for (const auto& [name, weight] : set.items) {
    w.BeginObject().Key("name").String(name);
    if (weight != 0) w.Key("weight").Int(weight);
    w.EndObject();
  }
  w.EndArray().EndObject();
}

// Copies a JSON value (the ratio arguments' shape and resources) as is; the
// NodeResourcesFit args decoder validates it.
void WriteRaw(JsonWriter& w, const cJSON* v) {
  if (cJSON_IsObject(v)) {
    w.BeginObject();
    for (const cJSON* m = v->child; m != nullptr; m = m->next) {
      w.Key(m->string);
      WriteRaw(w, m);
    }
    w.EndObject();
  } else if (cJSON_IsArray(v)) {
    w.BeginArray();
    for (const cJSON* m = v->child; m != nullptr; m = m->next) WriteRaw(w, m);
    w.EndArray();
  } else if (cJSON_IsString(v)) {
    w.String(v->valuestring);
  } else if (cJSON_IsBool(v)) {
    w.Bool(cJSON_IsTrue(v));
  } else if (cJSON_IsNumber(v)) {
    // Integral values within 2^53 stay integers; others are left for the
    // args decoder to reject with its own message.
    const double d = v->valuedouble;
    if (std::fabs(d) <= static_cast<double>(kMaxExactInt) && d == std::trunc(d)) {
      w.Int(static_cast<int64_t>(d));
    } else {
      w.Null();
    }
  } else {
    w.Null();
  }
}

}  // namespace

ApiStatus TranslatePolicy(const cJSON* root, std::string* config_json, bool* run_all_filters) {
  const JsonPath path;
  CAPI_RETURN_IF_ERROR(
      CheckFields(root, path,
                  {"kind", "apiVersion", "predicates", "priorities", "extenders",
                   "hardPodAffinitySymmetricWeight", "alwaysCheckAllPredicates", "seed"}));
  Translation t;
  const cJSON* predicates = nullptr;
  const cJSON* priorities = nullptr;
  const cJSON* seed = nullptr;
  for (const cJSON* m = root->child; m != nullptr; m = m->next) {
    const std::string_view name = m->string;
    const JsonPath p = path.Child(name);
    if (name == "apiVersion") {
      std::string_view s;
      CAPI_RETURN_IF_ERROR(AsString(m, p, &s));
      if (s != "v1") return Unsupported(p, s, {"v1"});
    } else if (name == "predicates") {
      if (!cJSON_IsNull(m)) predicates = m;
    } else if (name == "priorities") {
      if (!cJSON_IsNull(m)) priorities = m;
    } else if (name == "extenders") {
      if (!cJSON_IsNull(m)) return ApiStatus::Invalid(p, "not supported: extenders");
    } else if (name == "hardPodAffinitySymmetricWeight") {
      if (cJSON_IsNull(m)) continue;
      CAPI_RETURN_IF_ERROR(AsInt(m, p, INT32_MIN, INT32_MAX, &t.hard_pod_affinity_weight));
      if (t.hard_pod_affinity_weight < 0 || t.hard_pod_affinity_weight > 100) {
        return ApiStatus::Invalid(p,
                                  "Invalid value: " + std::to_string(t.hard_pod_affinity_weight) +
                                      ": not in valid range [0-100]");
      }
    } else if (name == "alwaysCheckAllPredicates") {
      CAPI_RETURN_IF_ERROR(GetBool(root, m->string, path, &t.always_check_all));
    } else if (name == "seed") {
      // The engine's extension, as in KubeSchedulerConfiguration; decoded
      // there (a string, or an integer up to 2^53).
      if (!cJSON_IsNull(m) && !cJSON_IsString(m)) {
        int64_t unused;
        CAPI_RETURN_IF_ERROR(AsInt(m, p, 0, kMaxExactInt, &unused));
      }
      seed = m;
    }
  }
  CAPI_RETURN_IF_ERROR(DecodePredicates(predicates, path.Child("predicates"), &t));
  if (priorities == nullptr) {
    for (const auto& [k, w] : DefaultPriorities()) t.priorities[std::string(k)] = w;
  } else {
    const JsonPath pp = path.Child("priorities");
    CAPI_RETURN_IF_ERROR(AsArray(priorities, pp));
    CAPI_RETURN_IF_ERROR(CheckItemCount(priorities, pp, kMaxItems));
    size_t i = 0;
    for (const cJSON* e = priorities->child; e != nullptr; e = e->next, ++i) {
      CAPI_RETURN_IF_ERROR(DecodePriority(e, pp.Index(i), i, &t));
    }
  }
  Scores scores;
  CAPI_RETURN_IF_ERROR(TranslatePriorities(t, &scores));

  // The points a filter or score plugin needs besides (as the legacy
  // producers enabled them): PreFilter, Reserve and PreBind for filters,
  // PreScore for scores, where the plugin implements them. A plugin this
  // build lacks is left to DecodeConfig to reject ("does not exist").
  auto points_of = [](const std::string& name) -> ExtensionPoints {
    const RegistryEntry* e = FindPlugin(name);
    return e != nullptr ? e->points : 0;
  };
  NamedSet pre_filter, reserve, pre_bind, pre_score;
  for (const auto& [name, weight] : t.filters.items) {
    const ExtensionPoints points = points_of(name);
    if (points & Bit(ExtensionPoint::kPreFilter)) pre_filter.Add(name);
    if (points & Bit(ExtensionPoint::kReserve)) reserve.Add(name);
    if (points & Bit(ExtensionPoint::kPreBind)) pre_bind.Add(name);
  }
  for (const auto& [name, weight] : scores.score.items) {
    if (points_of(name) & Bit(ExtensionPoint::kPreScore)) pre_score.Add(name);
  }
  NamedSet pre_enqueue, queue_sort, post_filter, bind;
  // Not predicates or priorities, so always there (as v1.20 added
  // PrioritySort, DefaultPreemption and DefaultBinder); SchedulingGates
  // because a gated pod must wait under any config.
  pre_enqueue.Add("SchedulingGates");
  queue_sort.Add("PrioritySort");
  post_filter.Add("DefaultPreemption");
  bind.Add("DefaultBinder");

  JsonWriter w;
  w.BeginObject()
      .Key("apiVersion")
      .String("kubescheduler.config.k8s.io/v1")
      .Key("kind")
      .String("KubeSchedulerConfiguration");
  if (seed != nullptr) {
    w.Key("seed");
    WriteRaw(w, seed);
  }
  w.Key("profiles")
      .BeginArray()
      .BeginObject()
      .Key("schedulerName")
      .String(kDefaultSchedulerName)
      .Key("plugins")
      .BeginObject()
      .Key("multiPoint")
      .BeginObject()
      .Key("disabled")
      .BeginArray()
      .BeginObject()
      .Key("name")
      .String("*")
      .EndObject()
      .EndArray()
      .EndObject();
  WriteSet(w, "preEnqueue", pre_enqueue);
  WriteSet(w, "queueSort", queue_sort);
  WriteSet(w, "preFilter", pre_filter);
  WriteSet(w, "filter", t.filters);
  WriteSet(w, "postFilter", post_filter);
  WriteSet(w, "preScore", pre_score);
  WriteSet(w, "score", scores.score);
  WriteSet(w, "reserve", reserve);
  WriteSet(w, "preBind", pre_bind);
  WriteSet(w, "bind", bind);
  w.EndObject();  // plugins

  auto enabled = [&](std::string_view n) { return t.filters.Has(n) || scores.score.Has(n); };
  w.Key("pluginConfig").BeginArray();
  if (t.hard_pod_affinity_weight != 0 && enabled("InterPodAffinity")) {
    w.BeginObject()
        .Key("name")
        .String("InterPodAffinity")
        .Key("args")
        .BeginObject()
        .Key("hardPodAffinityWeight")
        .Int(t.hard_pod_affinity_weight)
        .EndObject()
        .EndObject();
  }
  if (t.node_label_args && enabled("NodeLabel")) {
    w.BeginObject().Key("name").String("NodeLabel").Key("args").BeginObject();
    WriteStrings(w, "presentLabels", t.present_labels);
    WriteStrings(w, "absentLabels", t.absent_labels);
    WriteStrings(w, "presentLabelsPreference", t.present_preference);
    WriteStrings(w, "absentLabelsPreference", t.absent_preference);
    w.EndObject().EndObject();
  }
  if (t.service_affinity_args && enabled("ServiceAffinity")) {
    w.BeginObject().Key("name").String("ServiceAffinity").Key("args").BeginObject();
    WriteStrings(w, "affinityLabels", t.affinity_labels);
    WriteStrings(w, "antiAffinityLabelsPreference", t.anti_affinity_preference);
    w.EndObject().EndObject();
  }
  if (scores.spread_list_defaulting) {
    w.BeginObject()
        .Key("name")
        .String("PodTopologySpread")
        .Key("args")
        .BeginObject()
        .Key("defaultingType")
        .String("List")
        .EndObject()
        .EndObject();
  }
  if (scores.strategy == Strategy::kMost || scores.strategy == Strategy::kRatio) {
    w.BeginObject()
        .Key("name")
        .String("NodeResourcesFit")
        .Key("args")
        .BeginObject()
        .Key("scoringStrategy")
        .BeginObject();
    if (scores.strategy == Strategy::kMost) {
      w.Key("type").String("MostAllocated");
    } else {
      w.Key("type").String("RequestedToCapacityRatio");
      const cJSON* resources = cJSON_GetObjectItemCaseSensitive(t.ratio_args, "resources");
      if (resources != nullptr && !cJSON_IsNull(resources)) {
        w.Key("resources");
        WriteRaw(w, resources);
      }
      w.Key("requestedToCapacityRatio").BeginObject().Key("shape");
      const cJSON* shape = cJSON_GetObjectItemCaseSensitive(t.ratio_args, "shape");
      WriteRaw(w, shape);
      w.EndObject();
    }
    w.EndObject().EndObject().EndObject();
  }
  w.EndArray();  // pluginConfig
  w.EndObject().EndArray().EndObject();
  *config_json = std::move(w).str();
  *run_all_filters = t.always_check_all;
  return ApiStatus();
}

ApiStatus DecodePolicy(const cJSON* root, Interner& in, EngineConfig* out) {
  std::string json;
  bool run_all = false;
  CAPI_RETURN_IF_ERROR(TranslatePolicy(root, &json, &run_all));
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  const ApiStatus s = DecodeConfig(doc.get(), in, out);
  if (!s.ok()) {
    // Input the translation passed on unchecked (ratio arguments) failed
    // in the translated config.
    return ApiStatus::InvalidCall("the profile translated from the Policy is invalid: " +
                                  s.message());
  }
  out->profiles[0].run_all_filters = run_all;
  return ApiStatus();
}

}  // namespace sched::capi
