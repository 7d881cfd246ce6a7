#!/usr/bin/env bash
# A/B of two libsched builds through one driver: this tree's
# bench/workload binary (meson dir `build`) run against libsched.so built
# at an older commit ("old") and against this tree's ("new"), alternating
# old/new for N rounds in one script run, so both see the same machine
# load. Prints each run's line and, per workload and node count, the median
# of pods per CPU-second (the load shifts wall time more than CPU time)
# and of pods per wall second, with the ratio new/old.
#   bench/ab.sh OLD_COMMIT|OLD_LIBDIR [--rounds N] [workload args, e.g. --nodes 5000 --workloads SchedulingBasic]
# The old library is built once into build-ab/<commit>/build (the source
# by `git archive`, the shared library target only), or taken from
# OLD_LIBDIR (a directory holding an already built libsched.so.0). The C
# ABI is stable, so the new driver runs against the old library. This
# tree's build makes only the driver and the shared library.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# The shared library's ninja target in build dir $1.
lib_target() {
  (cd "$1" && ninja -t targets all | sed -n 's/^\(libsched\.so\.[0-9.]*[0-9]\): .*/\1/p' | head -1)
}
[[ $# -ge 1 ]] || { sed -n '2,14p' "$0" >&2; exit 2; }
if [[ -e $1/libsched.so.0 ]]; then
  old=$1
  out=$(cd "$1" && pwd)
else
  old=$(git rev-parse --short=12 "$1^{commit}")
  # The build dir inside the source, as `build` is here: the same relative
  # paths, so ccache can reuse objects of an earlier build of that commit.
  src=$root/build-ab/$old
  out=$src/build
fi
shift
rounds=3
if [[ ${1:-} == --rounds ]]; then rounds=$2; shift 2; fi

CONFIGURE_ONLY=1 bash scripts/build.sh build >/dev/null
ninja -C build bench/workload "$(lib_target build)" >/dev/null
if [[ ! -e $out/libsched.so.0 ]]; then
  rm -rf "$src"
  mkdir -p "$src"
  git archive "$old" | tar -x -C "$src"
  meson setup "$out" "$src" -Dtests=false -Dman=disabled >/dev/null
  ninja -C "$out" "$(lib_target "$out")" >/dev/null
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for ((r = 1; r <= rounds; r++)); do
  for side in old new; do
    lib=$root/build
    [[ $side == old ]] && lib=$out
    LD_LIBRARY_PATH=$lib build/bench/workload "$@" | sed "s/^{/{\"side\":\"$side\",\"round\":$r,/" | tee -a "$log"
  done
done

python3 - "$log" "$old" <<'EOF'
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(f"\nmedians of {max(r['round'] for r in runs)} rounds; old = {sys.argv[2]}, new = this tree")
print(f"{'workload':32} {'nodes':>6} {'old pods/cpu-s':>15} {'new pods/cpu-s':>15} {'ratio':>6} {'old pods/s':>11} {'new pods/s':>11} {'ratio':>6}")
keys = sorted({(r["workload"], r["nodes"]) for r in runs})
for w, n in keys:
    med = {(s, f): statistics.median(r[f] for r in runs if (r["workload"], r["nodes"], r["side"]) == (w, n, s))
           for s in ("old", "new") for f in ("podsPerCpuSecond", "podsPerSecond")}
    c = med["new", "podsPerCpuSecond"] / med["old", "podsPerCpuSecond"]
    p = med["new", "podsPerSecond"] / med["old", "podsPerSecond"]
    print(f"{w:32} {n:>6} {med['old', 'podsPerCpuSecond']:>15.0f} {med['new', 'podsPerCpuSecond']:>15.0f} {c:>6.2f}"
          f" {med['old', 'podsPerSecond']:>11.0f} {med['new', 'podsPerSecond']:>11.0f} {p:>6.2f}")
EOF
