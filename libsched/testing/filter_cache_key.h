// The equivalence-cache key a Filter plugin feeds for a pod: PreFilter,
// then FilterIsNodeLocal (which must opt in), as the scheduler asks them
// once per cycle. Test-only.
#ifndef LIBSCHED_TESTING_FILTER_CACHE_KEY_H_
#define LIBSCHED_TESTING_FILTER_CACHE_KEY_H_

#include <gtest/gtest.h>

#include <string>

#include "libsched/framework/cycle_state.h"
#include "libsched/framework/plugin.h"
#include "libsched/model/pod_signer.h"
#include "libsched/state/cluster_state.h"

namespace sched::testing {

// The key's bytes; a plugin instance whose slot is 0.
template <class P>
std::string FilterKeyOf(const P& plugin, const Pod& pod, const ClusterState& cs) {
  CycleState state(1);
  PreFilterResult result;
  EXPECT_TRUE(plugin.PreFilter(state, pod, cs, &result).IsSuccess());
  PodSigner key;
  EXPECT_TRUE(plugin.FilterIsNodeLocal(state, key));
  return std::string(key.bytes());
}

}  // namespace sched::testing

#endif  // LIBSCHED_TESTING_FILTER_CACHE_KEY_H_
