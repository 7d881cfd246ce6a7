// Precompiled header of the library's two targets (cpp_pch of sched_core
// and sched in meson.build): the standard headers and the two libsched
// headers most of its sources reach. Parsing them was over half of a
// library file's compile at -O2 (libsched/plugins/node_ports.cc: 3.4 s of
// CPU, 1.5 s with this header), and CI compiles the library four times
// (scripts/test.sh). Meson includes it first in every source of those
// targets; sources still include what they use, so nothing here is relied
// on (a build with -Db_pch=false checks that).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "libsched/framework/plugin.h"
#include "libsched/state/cluster_state.h"
