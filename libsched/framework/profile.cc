#include "libsched/framework/profile.h"

namespace sched {

void Profile::Add(std::unique_ptr<Plugin> plugin, int64_t score_weight) {
  Plugin* p = plugin.get();
  p->set_slot(plugins_.size());
  plugins_.push_back(std::move(plugin));
  if (auto* x = dynamic_cast<const PreEnqueuePlugin*>(p)) pre_enqueue_.push_back(x);
  if (dynamic_cast<const PreEnqueuePlugin*>(p) != nullptr ||
      dynamic_cast<const PreFilterPlugin*>(p) != nullptr ||
      dynamic_cast<const FilterPlugin*>(p) != nullptr) {
    rejecting_.push_back(p);
  }
  if (auto* x = dynamic_cast<const PreFilterPlugin*>(p)) pre_filter_.push_back(x);
  if (auto* x = dynamic_cast<const FilterPlugin*>(p)) filter_.push_back(x);
  if (auto* x = dynamic_cast<const PostFilterPlugin*>(p)) post_filter_.push_back(x);
  if (auto* x = dynamic_cast<const PreScorePlugin*>(p)) pre_score_.push_back(x);
  if (auto* x = dynamic_cast<const ScorePlugin*>(p)) {
    score_.push_back({x, score_weight == 0 ? 1 : score_weight});
  }
}

}  // namespace sched
