// Profile: the plugins of one schedulerName wired per extension point, in
// order, with score weights (upstream's frameworkImpl built from a
// KubeSchedulerProfile). Owns its plugins.
#ifndef LIBSCHED_FRAMEWORK_PROFILE_H_
#define LIBSCHED_FRAMEWORK_PROFILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libsched/framework/enqueue_extensions.h"
#include "libsched/framework/plugin.h"
#include "libsched/framework/plugins_config.h"

namespace sched {

struct WeightedScorePlugin {
  const ScorePlugin* plugin;
  int64_t weight;
};

class Profile {
 public:
  explicit Profile(std::string scheduler_name) : scheduler_name_(std::move(scheduler_name)) {}
  Profile(Profile&&) = default;
  Profile& operator=(Profile&&) = default;

  // Adds a plugin, registering it at every extension point it implements
  // (MultiPoint expansion) in call order. A weight of 0 becomes 1, as in
  // upstream's getScoreWeights.
  void Add(std::unique_ptr<Plugin> plugin, int64_t score_weight = 1);

  // Takes ownership of `plugin` (assigning its CycleState slot) without
  // enabling it anywhere; returns it for Enable.
  Plugin* Own(std::unique_ptr<Plugin> plugin);
  // Enables an owned plugin at `point`, after the plugins enabled there
  // before; `score_weight` (0 becomes 1) counts for kScore only. Points the
  // engine does not run (QueueSort, Reserve, Permit, *Bind) are ignored.
  // REQUIRES: `plugin` came from Own and implements `point`'s interface.
  void Enable(ExtensionPoint point, Plugin* plugin, int64_t score_weight = 1);

  const std::string& scheduler_name() const { return scheduler_name_; }
  size_t num_slots() const { return plugins_.size(); }
  // Every plugin, in the order added (each once, whatever its extension points).
  const std::vector<std::unique_ptr<Plugin>>& plugins() const { return plugins_; }
  const std::vector<const PreFilterPlugin*>& pre_filter() const { return pre_filter_; }
  const std::vector<const FilterPlugin*>& filter() const { return filter_; }
  const std::vector<const PostFilterPlugin*>& post_filter() const { return post_filter_; }
  const std::vector<const PreScorePlugin*>& pre_score() const { return pre_score_; }
  const std::vector<WeightedScorePlugin>& score() const { return score_; }
  const std::vector<const PreEnqueuePlugin*>& pre_enqueue() const { return pre_enqueue_; }
  // The plugins whose rejections the queue tracks (PreEnqueue, PreFilter or
  // Filter; upstream's shouldHaveEnqueueExtensions), in call order.
  const std::vector<const Plugin*>& rejecting_plugins() const { return rejecting_; }

  // 0 = adaptive (upstream default); 1..100 = fixed percentage.
  int32_t percentage_of_nodes_to_score() const { return percentage_; }
  void set_percentage_of_nodes_to_score(int32_t p) { percentage_ = p; }

  // Run every Filter plugin on a node and report all their reasons, rather
  // than stop at the first failure (the legacy Policy's
  // alwaysCheckAllPredicates). Off by default, as upstream today.
  bool run_all_filters() const { return run_all_filters_; }
  void set_run_all_filters(bool b) { run_all_filters_ = b; }

 private:
  std::string scheduler_name_;
  std::vector<std::unique_ptr<Plugin>> plugins_;
  std::vector<const PreFilterPlugin*> pre_filter_;
  std::vector<const FilterPlugin*> filter_;
  std::vector<const PostFilterPlugin*> post_filter_;
  std::vector<const PreScorePlugin*> pre_score_;
  std::vector<WeightedScorePlugin> score_;
  std::vector<const PreEnqueuePlugin*> pre_enqueue_;
  std::vector<const Plugin*> rejecting_;
  int32_t percentage_ = 0;
  bool run_all_filters_ = false;
};

}  // namespace sched

#endif  // LIBSCHED_FRAMEWORK_PROFILE_H_
