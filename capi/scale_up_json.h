// The sched_engine_scale_up document (docs/api.md, "Scale-up"): a
// ScaleUpResult (libsched/engine/scale_up.h) in JSON.
#ifndef CAPI_SCALE_UP_JSON_H_
#define CAPI_SCALE_UP_JSON_H_

#include <memory>
#include <span>
#include <string>

#include "libsched/engine/scale_up.h"
#include "libsched/model/pod.h"

namespace sched::capi {

// {"existing":[{"pod","node"}],"templates":[{"template","nodes","newNodes":
//  [{"node","pods"}],"placements":[{"pod","node"}],"pending":[{"pod",
//  "reason","message"}]}],"unhelped":[{"pod","reasons":[{"template",
//  "message"}]}]}
std::string ScaleUpJson(std::span<const std::shared_ptr<const Pod>> pods,
                        std::span<const NodeTemplate> templates, const ScaleUpResult& r);

}  // namespace sched::capi

#endif  // CAPI_SCALE_UP_JSON_H_
