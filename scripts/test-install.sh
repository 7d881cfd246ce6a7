#!/usr/bin/env bash
# Installs a built tree (`meson install --destdir` into a temporary directory,
# so the prefix is one no loader or compiler searches), then uses it as a C
# user would (docs/c.md):
#   - builds examples/c/schedule.c through `pkg-config --cflags --libs
#     libsched` (dynamic) and `pkg-config --static ... libsched-static`;
#   - checks with readelf: the SONAME, NEEDED libsched.so.0 and SCHED_0 symbol
#     versions in the dynamic binary, no NEEDED libsched.so.0 in the static one,
#     schedsim's $ORIGIN RUNPATH;
#   - runs both binaries and the installed schedsim (no LD_LIBRARY_PATH for the
#     static binary and schedsim), and reads the man page.
# Usage: scripts/test-install.sh [BUILDDIR]   (default build, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
builddir=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() { echo "test-install: $*" >&2; exit 1; }

option() {  # the value of a meson option of $builddir
  meson introspect --buildoptions "$builddir" |
    python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == sys.argv[1]))' "$1"
}
prefix=$(option prefix)
libdir=$(option libdir)
bindir=$(option bindir)
mandir=$(option mandir)
dest=$work/root
root=$dest$prefix
[[ $libdir = /* ]] || libdir=$prefix/$libdir
[[ $bindir = /* ]] || bindir=$prefix/$bindir
[[ $mandir = /* ]] || mandir=$prefix/$mandir

meson install -C "$builddir" --destdir "$dest" --quiet >/dev/null

for f in "$prefix/include/sched/sched.h" "$libdir/libsched.so" "$libdir/libsched.so.0" \
         "$libdir/libsched.a" "$libdir/pkgconfig/libsched.pc" \
         "$libdir/pkgconfig/libsched-static.pc" "$bindir/schedsim" "$mandir/man1/schedsim.1"; do
  [ -e "$dest$f" ] || fail "not installed: $f"
done
# With -Dcel, the CEL evaluator's archive that libsched.a's static links name.
if [ -e "$builddir/libsched_cel.a" ] && [ ! -e "$dest$libdir/libsched_cel.a" ]; then
  fail "not installed: $libdir/libsched_cel.a"
fi
# Nothing of the tests or benchmarks is installed.
if [ -n "$(find "$dest" -name workload -o -name '*_test')" ]; then fail "test binaries installed"; fi

# The installed .pc files, their paths rebased into the staging directory.
export PKG_CONFIG_PATH=$dest$libdir/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
cc=${CC:-cc}
# has PATTERN TEXT: grep on a captured string (grep -q in a pipe would kill
# its writer with SIGPIPE, which pipefail reports as a failure).
has() { grep -q -- "$1" <<<"$2"; }
# shellcheck disable=SC2046  # pkg-config output is a list of flags
$cc -std=c99 -Wall -Wextra -Werror -o "$work/dynamic" examples/c/schedule.c \
  $(pkg-config --cflags --libs libsched)
# shellcheck disable=SC2046
$cc -std=c99 -Wall -Wextra -Werror -o "$work/static" examples/c/schedule.c \
  $(pkg-config --static --cflags --libs libsched-static)

soname=$(readelf -d "$dest$libdir/libsched.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libsched.so.0 ] || fail "SONAME is '$soname', want libsched.so.0"
has 'NEEDED.*\[libsched.so.0\]' "$(readelf -d "$work/dynamic")" || fail "dynamic: no NEEDED libsched.so.0"
has 'sched_engine_new@SCHED_0' "$(readelf --dyn-syms -W "$work/dynamic")" ||
  fail "dynamic: sched_engine_new is not bound to version SCHED_0"
if has 'NEEDED.*libsched' "$(readelf -d "$work/static")"; then fail "static: NEEDED libsched"; fi
has ' FUNC .* GLOBAL .* sched_engine_new$' "$(readelf -s -W "$work/static")" ||
  fail "static: sched_engine_new not linked in"
has 'RUNPATH.*\$ORIGIN' "$(readelf -d "$dest$bindir/schedsim")" || fail "schedsim: no \$ORIGIN RUNPATH"

env LD_LIBRARY_PATH="$dest$libdir" "$work/dynamic" examples/cluster >"$work/dynamic.out" 2>/dev/null
env -u LD_LIBRARY_PATH "$work/static" examples/cluster >"$work/static.out" 2>"$work/static.err"
grep -q 'INVALID_ARGUMENT: spec.containers\[0\].resources.requests.cpu' "$work/static.err" ||
  fail "the bad pod's error is missing"
cmp -s "$work/dynamic.out" "$work/static.out" || fail "the dynamic and static runs differ"
grep -q '"node":"' "$work/static.out" || fail "the example scheduled nothing"
# The installed schedsim loads the installed library through its RUNPATH.
has "libsched.so.0 => $dest" "$(env -u LD_LIBRARY_PATH LD_TRACE_LOADED_OBJECTS=1 "$dest$bindir/schedsim")" || fail "schedsim does not load the installed libsched.so.0"
env -u LD_LIBRARY_PATH "$dest$bindir/schedsim" examples/cluster >/dev/null ||
  fail "the installed schedsim failed on examples/cluster"
grep -q '^\.TH SCHEDSIM 1' "$dest$mandir/man1/schedsim.1" || fail "schedsim.1 has no .TH header"
echo "test-install: ok (installed into $prefix under a DESTDIR; dynamic, static, schedsim)"
