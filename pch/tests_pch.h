// Precompiled header of the gtest executables (cpp_pch in tests/meson.build
// and tests/capi/meson.build): the headers nearly every test file parses.
// Parsing them is about a fifth of a test file's compile, and CI compiles
// the tests three times (scripts/test.sh). Meson includes this header
// first in every source of those targets; sources still include what they
// use, so nothing here is relied on. No libsched header: sched::testing (the
// builders) would hide gtest's ::testing inside namespace sched.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
