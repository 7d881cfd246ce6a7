#include "libsched/framework/profile.h"

#include <algorithm>

namespace sched {

void Profile::Add(std::unique_ptr<Plugin> plugin, int64_t score_weight) {
  Plugin* p = Own(std::move(plugin));
  if (dynamic_cast<const PreEnqueuePlugin*>(p)) Enable(ExtensionPoint::kPreEnqueue, p);
  if (dynamic_cast<const PreFilterPlugin*>(p)) Enable(ExtensionPoint::kPreFilter, p);
  if (dynamic_cast<const FilterPlugin*>(p)) Enable(ExtensionPoint::kFilter, p);
  if (dynamic_cast<const PostFilterPlugin*>(p)) Enable(ExtensionPoint::kPostFilter, p);
  if (dynamic_cast<const PreScorePlugin*>(p)) Enable(ExtensionPoint::kPreScore, p);
  if (dynamic_cast<const ScorePlugin*>(p)) Enable(ExtensionPoint::kScore, p, score_weight);
}

Plugin* Profile::Own(std::unique_ptr<Plugin> plugin) {
  Plugin* p = plugin.get();
  p->set_slot(plugins_.size());
  plugins_.push_back(std::move(plugin));
  return p;
}

void Profile::Enable(ExtensionPoint point, Plugin* p, int64_t score_weight) {
  switch (point) {
    case ExtensionPoint::kPreEnqueue:
      pre_enqueue_.push_back(dynamic_cast<const PreEnqueuePlugin*>(p));
      break;
    case ExtensionPoint::kPreFilter:
      pre_filter_.push_back(dynamic_cast<const PreFilterPlugin*>(p));
      break;
    case ExtensionPoint::kFilter:
      filter_.push_back(dynamic_cast<const FilterPlugin*>(p));
      break;
    case ExtensionPoint::kPostFilter:
      post_filter_.push_back(dynamic_cast<const PostFilterPlugin*>(p));
      break;
    case ExtensionPoint::kPreScore:
      pre_score_.push_back(dynamic_cast<const PreScorePlugin*>(p));
      break;
    case ExtensionPoint::kScore:
      score_.push_back({dynamic_cast<const ScorePlugin*>(p), score_weight == 0 ? 1 : score_weight});
      break;
    default:
      return;  // nothing the engine runs
  }
  // The queue tracks rejections of PreEnqueue, PreFilter and Filter plugins
  // (shouldHaveEnqueueExtensions), once per plugin, in order of enabling.
  if ((point == ExtensionPoint::kPreEnqueue || point == ExtensionPoint::kPreFilter ||
       point == ExtensionPoint::kFilter) &&
      std::find(rejecting_.begin(), rejecting_.end(), p) == rejecting_.end()) {
    rejecting_.push_back(p);
  }
}

}  // namespace sched
