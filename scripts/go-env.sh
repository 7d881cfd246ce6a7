# Source this file (from any directory) to point the Go tools at the
# uninstalled meson build dir of this repository: cgo's pkg-config finds
# libsched's .pc file and the dynamic loader finds libsched.so.0.
#   . path/to/scripts/go-env.sh
# The repository root is this script's parent directory unless the caller
# set $root; the build dir is $root/build unless $LIBSCHED_BUILD names one.
root="${root:-$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)}"
_libsched_build="${LIBSCHED_BUILD:-$root/build}"
export PKG_CONFIG_PATH="$_libsched_build/meson-uninstalled${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
export LD_LIBRARY_PATH="$_libsched_build${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
unset _libsched_build
