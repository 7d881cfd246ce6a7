// PluginsConfig: which plugins a profile enables at which extension point,
// with score weights (config.Plugins of pkg/scheduler/apis/config/types.go),
// and the two steps that turn a user's config into per-point lists:
// MergePlugins (apis/config/v1/default_plugins.go mergePlugins) and
// ExpandPlugins (framework/runtime/framework.go expandMultiPointPlugins,
// getScoreWeights). Names only: no plugin is instantiated here.
//
// Thread-safety: plain values and pure functions.
#ifndef LIBSCHED_FRAMEWORK_PLUGINS_CONFIG_H_
#define LIBSCHED_FRAMEWORK_PLUGINS_CONFIG_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sched {

// The extension points of config.Plugins (bar MultiPoint and the
// Placement* points of workload-aware scheduling, which the engine does not
// have). The engine runs PreEnqueue, PreFilter, Filter, PostFilter,
// PreScore and Score; the others are accepted so that upstream configs
// decode, and have nothing to run.
enum class ExtensionPoint : uint8_t {
  kPreEnqueue,
  kQueueSort,
  kPreFilter,
  kFilter,
  kPostFilter,
  kPreScore,
  kScore,
  kReserve,
  kPermit,
  kPreBind,
  kBind,
  kPostBind,
};
inline constexpr size_t kNumExtensionPoints = 12;

// The point's field name in config.Plugins JSON ("preFilter", "score", ...).
std::string_view ExtensionPointField(ExtensionPoint p);
// The point's interface name, as upstream's framework errors print it
// ("FilterPlugin", ...).
std::string_view ExtensionPointInterface(ExtensionPoint p);

// A bit per ExtensionPoint: the set of points a plugin implements.
using ExtensionPoints = uint32_t;
constexpr ExtensionPoints Bit(ExtensionPoint p) { return 1u << static_cast<unsigned>(p); }

// config.Plugin: a name and, for Score, a weight (0 = unset, counts as 1).
struct PluginRef {
  std::string name;
  int32_t weight = 0;
  bool operator==(const PluginRef&) const = default;
};

// config.PluginSet. A disabled name "*" disables every default plugin of
// the point.
struct PluginSet {
  std::vector<PluginRef> enabled;
  std::vector<std::string> disabled;
  bool operator==(const PluginSet&) const = default;
};

// config.Plugins.
struct PluginsConfig {
  PluginSet multi_point;
  std::array<PluginSet, kNumExtensionPoints> points;
  PluginSet& at(ExtensionPoint p) { return points[static_cast<size_t>(p)]; }
  const PluginSet& at(ExtensionPoint p) const { return points[static_cast<size_t>(p)]; }
};

// mergePlugins: for MultiPoint and every point, the default set minus the
// custom disabled ones (all of them for "*"), a default re-enabled by the
// custom set replaced in place, then the other custom plugins appended.
PluginsConfig MergePlugins(PluginsConfig defaults, const PluginsConfig& custom);

// The plugins of each extension point, in call order, each with its
// resolved score weight (>= 1 for Score; 0 elsewhere).
using ExpandedPlugins = std::array<std::vector<PluginRef>, kNumExtensionPoints>;

// expandMultiPointPlugins: per point, the plugins enabled there explicitly
// that MultiPoint also names (in the point's order), then the MultiPoint
// plugins that implement the point and are not disabled there, then the
// remaining explicit ones; a point with "*" disabled gets no MultiPoint
// plugin. Score weights as getScoreWeights: the Score set's own weight, else
// the MultiPoint weight; 0 counts as 1. `points_of` names the points a
// plugin implements. REQUIRES: `config` passed capi's
// DecodePlugins checks (known names, no duplicates, explicit plugins
// implement their point).
ExpandedPlugins ExpandPlugins(const PluginsConfig& config,
                              const std::function<ExtensionPoints(std::string_view)>& points_of);

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_PLUGINS_CONFIG_H_
