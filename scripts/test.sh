#!/usr/bin/env bash
# Sets up, builds, and runs every test, in stages. After `build`, two lanes
# run side by side: install, build-fuzz, build-tsan, fuzz; and rust, debian,
# go, kube-scheduler, kube-e2e (its output printed when it ends).
#   build       the normal build, every meson test
#   build-fuzz  every meson test under AddressSanitizer (with LeakSanitizer)
#               + UndefinedBehaviorSanitizer, built by clang for fuzzing
#               (scripts/fuzz.sh --setup-only configures it)
#   build-tsan  the tests that start threads, under ThreadSanitizer
#   install     meson install into a staging directory; the C example built
#               through pkg-config (dynamic and static), readelf checks, the
#               installed schedsim (scripts/test-install.sh)
#   rust        cargo test (doc tests included), the example, a static link,
#               clippy -D warnings on rust/ (scripts/test-rust.sh)
#   debian      the Debian packages built (dpkg-buildpackage, debhelper's
#               meson build system), lintian, installed, and the C example
#               built against /usr alone (scripts/test-debian.sh)
#   go          the Go package against build (scripts/test-go.sh: vet,
#               go test -race, the static link)
#   kube-scheduler  the kube-scheduler fork and the differential test
#               against upstream v1.36.3 (scripts/test-kube-scheduler.sh:
#               go test -race; the first run compiles k8s.io/kubernetes)
#   kube-e2e    the fork's binary against etcd + kube-apiserver built from
#               Go modules (scripts/test-kube-e2e.sh)
#   kube-perf   upstream's scheduler_perf (unmodified) with the fork, both
#               modes, at its 5-node size under the race detector, sharing
#               the two stages' compile (bench/scheduler-perf.sh --ci)
#   fuzz        each libFuzzer target for FUZZ_SECONDS (default 30), two at
#               a time, after replaying its regressions (scripts/fuzz.sh;
#               longer runs: scripts/fuzz.sh --seconds 900)
# Prints the time of each stage, and ends with one line "N passed, M failed":
# the meson tests of the three builds, one per Go script and one per fuzz
# target.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
timings=()
# Sets $cpu: the CPU seconds (user + system) of this shell's finished
# children so far. Not called as $(...): a subshell has no children yet.
children_cpu() {
  local f
  f=$(mktemp)
  times >"$f"
  # The second line: children's user and system time, e.g. "1m2.500s 0m3.250s".
  cpu=$(sed -n 2p "$f" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t }')
  rm -f "$f"
}

# Adds a stage's wall time and CPU time (both cores' worth: the CPU a
# stage needs, which a faster or less busy machine does not shrink) to the
# timing table.
timed() {  # name, command...
  local name=$1 start=$SECONDS cpu cpu_start
  children_cpu
  cpu_start=$cpu
  shift
  "$@"
  children_cpu
  timings+=("$(printf '%-11s %4ds  cpu %5ds' "$name" $((SECONDS - start)) $((cpu - cpu_start)))")
}

run_suite() {  # builddir, meson setup args...; $tests: meson tests to run (default: all)
  local dir=$1
  shift
  local selected=()
  # With a selection, meson test builds only what those tests need.
  [ -n "${tests:-}" ] && read -ra selected <<<"$tests"
  if ! CONFIGURE_ONLY=$((${#selected[@]} > 0)) bash scripts/build.sh "$dir" "$@"; then
    echo "build of $dir failed" >&2
    failed=$((failed + 1))
    return
  fi
  local log="$dir/meson-logs/testlog.json"
  rm -f "$log"
  # Sanitizer builds run several times slower: their stages set
  # timeout_multiplier, so a slow machine does not turn into a failure.
  if ! meson test -C "$dir" --print-errorlogs --timeout-multiplier "${timeout_multiplier:-1}" \
    "${selected[@]}" && [ ! -s "$log" ]; then
    echo "meson test in $dir failed before running tests" >&2
    failed=$((failed + 1))
    return
  fi
  local ok bad
  ok=$(grep -c '"result": "OK"' "$log" || true)
  bad=$(grep -vc '"result": "OK"' "$log" || true)
  passed=$((passed + ok))
  failed=$((failed + bad))
}

run_script() {  # a test script that passes or fails as a whole
  if bash "$@"; then
    passed=$((passed + 1))
  else
    echo "$* failed" >&2
    failed=$((failed + 1))
  fi
}

run_fuzz() {  # one scripts/fuzz.sh run per target, so each counts on its own
  # build-fuzz was built whole by the build-fuzz stage; the seeds once here.
  # Then two targets at a time: libFuzzer uses one core, the machine has two.
  bash scripts/fuzz.sh --build-only --no-replay >/dev/null
  local pair=() t
  for t in config apply schedule quantity stateful nodes selector; do
    pair+=("$t")
    ((${#pair[@]} == 2)) || continue
    fuzz_pair "${pair[@]}"
    pair=()
  done
  ((${#pair[@]} == 0)) || fuzz_pair "${pair[@]}"
}

fuzz_pair() {  # targets fuzzed side by side; their output in turn
  local t pids=()
  for t in "$@"; do
    bash scripts/fuzz.sh --no-build --seconds "${FUZZ_SECONDS:-30}" "$t" >"build-fuzz/logs/$t.fuzz.out" 2>&1 &
    pids+=($!)
  done
  local i=0
  for t in "$@"; do
    if wait "${pids[i]}"; then
      passed=$((passed + 1))
    else
      echo "fuzz target $t failed (build-fuzz/logs/$t.log, build-fuzz/crashes/$t/)" >&2
      failed=$((failed + 1))
    fi
    cat "build-fuzz/logs/$t.fuzz.out"
    i=$((i + 1))
  done
}

# Two lanes after the normal build, side by side (each stage alone leaves a
# core idle for much of its time: links, test runs, lintian, the API server's
# waits): the C++ sanitizer lane here, the package and Go lane in the
# background, its output printed after it ends.
# Line tables (-g1), not full debug info: at -O2 gcc spends a third of a
# library file's compile on -g (capi/engine.cc: 14.9 s against 9.6 s at
# -g1), and the tests need file:line in reports, not a debugger's view.
# A build dir configured before keeps its options.
line_tables=(-Ddebug=false -Dc_args=-g1 -Dcpp_args=-g1)
timed build run_suite build "${line_tables[@]}"
lane_dir=$(mktemp -d)
trap 'rm -rf "$lane_dir"' EXIT
(
  passed=0 failed=0 timings=()
  timed rust run_script scripts/test-rust.sh build
  timed debian run_script scripts/test-debian.sh
  timed go run_script scripts/test-go.sh
  timed kube-sched run_script scripts/test-kube-scheduler.sh
  timed kube-e2e run_script scripts/test-kube-e2e.sh
  timed kube-perf run_script bench/scheduler-perf.sh --ci
  echo "$passed $failed" >"$lane_dir/counts"
  printf '%s\n' "${timings[@]}" >"$lane_dir/timings"
) >"$lane_dir/log" 2>&1 &
lane=$!

timed install run_script scripts/test-install.sh build
# The sanitizer suite runs in the fuzzing build dir (clang, ASan + UBSan,
# libFuzzer's coverage): one compile serves the tests and the fuzz stage.
bash scripts/fuzz.sh --setup-only || failed=$((failed + 1))
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  timeout_multiplier=5 timed build-fuzz run_suite build-fuzz
# The tests that start threads: unit_threads (the parallelizer, the parallel
# cycle, forks used from several threads), the C-API suites (parallel
# engines, concurrent calls on one engine, parent and fork on two
# threads). Left out: the rest of the unit suite (single-threaded; building
# it under TSan cost minutes), the sim and golden suites (one
# single-threaded schedsim process per case, and slow under TSan), the fuzz
# regressions (single-threaded; ASan replays them), exported_symbols and abi
# (no code runs). Debian's gtest is not TSan-instrumented; it syncs through
# pthread calls TSan intercepts, and no suppression has been needed.
# -O1 (TSan's documentation asks for -O1 or more): a tenth less compile
# than -O2.
# The CEL crate is not instrumented in either build: the TSan build reuses
# the plain build's cargo output (SCHED_CEL_TARGET_DIR).
SCHED_CEL_TARGET_DIR=$PWD/build/cargo-target \
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 tests="unit_threads capi capi_c capi_fork" timeout_multiplier=5 \
  timed build-tsan run_suite build-tsan -Db_sanitize=thread -Db_lundef=false -Doptimization=1 "${line_tables[@]}" -Dbenchmarks=false
timed fuzz run_fuzz

wait "$lane"
echo "== the package and Go lane (rust, debian, go, kube-sched, kube-e2e, kube-perf)"
cat "$lane_dir/log"
if [ -s "$lane_dir/counts" ]; then
  read -r lane_passed lane_failed <"$lane_dir/counts"
  passed=$((passed + lane_passed))
  failed=$((failed + lane_failed))
  mapfile -t -O "${#timings[@]}" timings <"$lane_dir/timings"
else
  echo "the package and Go lane ended without its counts" >&2
  failed=$((failed + 1))
fi

printf 'stage times, wall and CPU (the two lanes overlap):\n'
printf '  %s\n' "${timings[@]}"
children_cpu
echo "  all stages: ${SECONDS}s, cpu ${cpu}s"
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
