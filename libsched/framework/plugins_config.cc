#include "libsched/framework/plugins_config.h"

#include <algorithm>
#include <utility>

namespace sched {
namespace {

constexpr std::array<std::string_view, kNumExtensionPoints> kFields = {
    "preEnqueue", "queueSort", "preFilter", "filter",  "postFilter", "preScore",
    "score",      "reserve",   "permit",    "preBind", "bind",       "postBind"};
constexpr std::array<std::string_view, kNumExtensionPoints> kInterfaces = {
    "PreEnqueuePlugin", "QueueSortPlugin", "PreFilterPlugin", "FilterPlugin",
    "PostFilterPlugin", "PreScorePlugin",  "ScorePlugin",     "ReservePlugin",
    "PermitPlugin",     "PreBindPlugin",   "BindPlugin",      "PostBindPlugin"};

template <class C>
bool Has(const C& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const PluginRef* FindRef(const std::vector<PluginRef>& refs, std::string_view name) {
  for (const PluginRef& r : refs) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// mergePluginSet.
PluginSet MergeSet(const PluginSet& defaults, const PluginSet& custom) {
  PluginSet out;
  out.disabled = custom.disabled;
  out.disabled.insert(out.disabled.end(), defaults.disabled.begin(), defaults.disabled.end());
  std::vector<bool> replaced(custom.enabled.size(), false);
  if (!Has(out.disabled, "*")) {
    for (const PluginRef& d : defaults.enabled) {
      if (Has(out.disabled, d.name)) continue;
      // Custom names are unique (validated), so at most one replaces `d`.
      const PluginRef* chosen = &d;
      for (size_t i = 0; i < custom.enabled.size(); ++i) {
        if (custom.enabled[i].name == d.name) {
          chosen = &custom.enabled[i];
          replaced[i] = true;
        }
      }
      out.enabled.push_back(*chosen);
    }
  }
  for (size_t i = 0; i < custom.enabled.size(); ++i) {
    if (!replaced[i]) out.enabled.push_back(custom.enabled[i]);
  }
  return out;
}

}  // namespace

std::string_view ExtensionPointField(ExtensionPoint p) { return kFields[static_cast<size_t>(p)]; }

std::string_view ExtensionPointInterface(ExtensionPoint p) {
  return kInterfaces[static_cast<size_t>(p)];
}

PluginsConfig MergePlugins(PluginsConfig defaults, const PluginsConfig& custom) {
  defaults.multi_point = MergeSet(defaults.multi_point, custom.multi_point);
  for (size_t i = 0; i < kNumExtensionPoints; ++i) {
    defaults.points[i] = MergeSet(defaults.points[i], custom.points[i]);
  }
  return defaults;
}

ExpandedPlugins ExpandPlugins(const PluginsConfig& config,
                              const std::function<ExtensionPoints(std::string_view)>& points_of) {
  ExpandedPlugins out;
  for (size_t i = 0; i < kNumExtensionPoints; ++i) {
    const auto point = static_cast<ExtensionPoint>(i);
    const PluginSet& set = config.points[i];
    std::vector<PluginRef>& list = out[i];
    std::vector<std::string_view> overrides;
    std::vector<const PluginRef*> multi;
    if (!Has(set.disabled, "*")) {
      for (const PluginRef& m : config.multi_point.enabled) {
        if ((points_of(m.name) & Bit(point)) == 0 || Has(set.disabled, m.name)) continue;
        if (FindRef(set.enabled, m.name) != nullptr) {
          overrides.push_back(m.name);
        } else {
          multi.push_back(&m);
        }
      }
    }
    for (const PluginRef& e : set.enabled) {
      if (Has(overrides, e.name)) list.push_back(e);
    }
    for (const PluginRef* m : multi) list.push_back(*m);
    for (const PluginRef& e : set.enabled) {
      if (!Has(overrides, e.name)) list.push_back(e);
    }
  }
  // getScoreWeights: the Score set's weight first, then MultiPoint's.
  for (PluginRef& r : out[static_cast<size_t>(ExtensionPoint::kScore)]) {
    const PluginRef* w = FindRef(config.at(ExtensionPoint::kScore).enabled, r.name);
    if (w == nullptr) w = FindRef(config.multi_point.enabled, r.name);
    r.weight = w != nullptr && w->weight != 0 ? w->weight : 1;
  }
  for (size_t i = 0; i < kNumExtensionPoints; ++i) {
    if (i == static_cast<size_t>(ExtensionPoint::kScore)) continue;
    for (PluginRef& r : out[i]) r.weight = 0;
  }
  return out;
}

}  // namespace sched
