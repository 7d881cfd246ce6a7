#!/usr/bin/env bash
# Builds the Debian packages (debian/: libsched0, libsched-dev, schedsim)
# with dpkg-buildpackage and debhelper's meson build system from a copy of
# the source tree, checks them with lintian, installs them with apt, then
# builds and runs the C example against /usr alone (pkg-config's default
# search path, dynamic and static) and the installed schedsim. The packages
# are purged at the end. The test suite is not run inside the package build
# (DEB_BUILD_OPTIONS=nocheck; scripts/test.sh runs it).
# Usage: scripts/test-debian.sh
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
# A fixed directory (ignored by git, like the meson build dirs), so ccache
# finds the previous run's objects: the compile commands name it.
work=$src/build-debian
rm -rf "$work"
mkdir -p "$work"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
cleanup() {
  $SUDO apt-get purge -y -qq libsched0 libsched-dev schedsim >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "test-debian: $*" >&2; exit 1; }

# The tracked and new (not ignored) files only: no build directory.
tree=$work/libsched-0.1.0
mkdir -p "$tree"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$tree" -xf -

$SUDO apt-get install -y -qq dpkg-dev debhelper lintian man-db >/dev/null
$SUDO apt-get build-dep -y -qq "$tree" >/dev/null

# noopt (Debian's switch for it): this stage checks the packaging, not the
# optimized code, which the other stages test; at -O0 the package's compile
# costs about half the CPU. A release build runs the same rules without it.
(cd "$tree" && DEB_BUILD_OPTIONS="nocheck noopt parallel=$(nproc)" dpkg-buildpackage -b -us -uc >"$work/build.log" 2>&1) ||
  { tail -40 "$work/build.log"; fail "dpkg-buildpackage failed"; }
changes=$(ls "$work"/libsched_*.changes)
lintian --fail-on error,warning "$changes" ||
  fail "lintian reported errors or warnings"

$SUDO apt-get install -y -qq "$work"/libsched0_*.deb "$work"/libsched-dev_*.deb "$work"/schedsim_*.deb >/dev/null

# Only /usr from here on: nothing of the build tree or the source tree.
unset PKG_CONFIG_PATH LD_LIBRARY_PATH
cd "$work"
cc -std=c99 -Wall -Wextra -Werror -o dynamic "$src/examples/c/schedule.c" $(pkg-config --cflags --libs libsched)
cc -std=c99 -Wall -Wextra -Werror -o static "$src/examples/c/schedule.c" \
  $(pkg-config --static --cflags --libs libsched-static)
examples=/usr/share/libsched/examples/cluster
./dynamic "$examples" >dynamic.out 2>/dev/null || fail "the dynamic example failed"
./static "$examples" >static.out 2>/dev/null || fail "the static example failed"
cmp -s dynamic.out static.out || fail "the dynamic and static runs differ"
# Compared after resolving links: with merged /usr the loader may report
# /lib/<triplet>/libsched.so.0, the same file.
loaded=$(ldd ./dynamic | sed -n 's/.*libsched.so.0 => \([^ ]*\).*/\1/p')
[ "$(readlink -f "$loaded")" = "$(readlink -f "/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/libsched.so.0")" ] ||
  fail "the dynamic example loads '$loaded', not /usr's libsched.so.0"
schedsim >/dev/null || fail "the installed schedsim failed on its bundled example"
man -w schedsim >/dev/null || fail "no schedsim(1)"
echo "test-debian: ok ($(cd "$work" && ls ./*.deb | tr '\n' ' '))"
