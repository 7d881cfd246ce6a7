#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in tests/fuzz/ (clang, with
# AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer).
#
# Usage: scripts/fuzz.sh [--seconds N] [--build-only] [--setup-only] [--no-build] [--no-replay] [TARGET...]
#   TARGET   config | apply | schedule | quantity | stateful | nodes | selector (or fuzz_<name>); default: all
#   --seconds N       fuzz each target N seconds (default: $FUZZ_SECONDS, else 60)
#   --build-only      build targets and seeds, replay regressions, do not fuzz
#   --setup-only      only configure build-fuzz (scripts/test.sh then builds it
#                     whole and runs the test suite in it)
#   --no-replay       skip the regression replay
#   --no-build        use build-fuzz and its seeds as they are (built by an
#                     earlier run): lets runs of single targets go side by side
# Environment: FUZZ_SECONDS, FUZZ_JOBS (parallel compile jobs, default ninja's),
#   FUZZ_ARGS (extra libFuzzer flags), CC/CXX (default clang/clang++; read
#   when build-fuzz is first configured).
#
# Layout (build-fuzz/ is ignored by git, as every build*/ directory):
#   build-fuzz/                a meson build dir (-Dfuzzing=true, clang, ASan + UBSan)
#   build-fuzz/tests/fuzz/fuzz_<t>   the fuzzer binaries
#   build-fuzz/seeds/<t>/      seeds from tests/fuzz/make_seeds.py (refreshed each run)
#   build-fuzz/corpus/<t>/     the growing corpus, kept between runs
#   build-fuzz/crashes/<t>/    crash-*, leak-*, timeout-*, oom-* artifacts
#   build-fuzz/logs/<t>.log    the last run's libFuzzer output
# Regression inputs in tests/fuzz/regressions/<t>/ are replayed (each input run
# once) before fuzzing; a failing one makes the script fail (fuzzing still runs).
# Exits non-zero when any target failed its replay or found something.
set -euo pipefail
# The body is one { } block: bash parses it whole before running it, so
# editing this file while a long run is in progress cannot derail that run.
{
cd "$(dirname "$0")/.."

ALL_TARGETS=(config apply schedule quantity stateful nodes selector)
seconds=${FUZZ_SECONDS:-60}
build_only=0
setup_only=0
no_build=0
replay=1
targets=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    --build-only) build_only=1; shift ;;
    --setup-only) setup_only=1; shift ;;
    --no-build) no_build=1; shift ;;
    --no-replay) replay=0; shift ;;
    -h|--help) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) t=${1#fuzz_}
       [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target $1 (have: ${ALL_TARGETS[*]})" >&2; exit 2; }
       targets+=("$t"); shift ;;
  esac
done
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --seconds wants a number, got $seconds" >&2; exit 2; }

# ---- Toolchain: Debian's clang with its libFuzzer runtime ----------------------
# scripts/install-deps.sh installs clang and libclang-rt-dev with the rest of
# the build's dependencies (meson, gtest: the fuzzing build is a whole build dir).
bash scripts/install-deps.sh
CXX=${CXX:-clang++}

# ---- Build and seeds ------------------------------------------------------------
# One meson build dir, configured for fuzzing: every target instrumented for
# libFuzzer's coverage, the fuzz_<t> harnesses linked against it. The same
# dir runs the test suite under ASan + UBSan in scripts/test.sh.
# -fno-sanitize-recover: every UBSan report is a crash libFuzzer keeps.
# _GLIBCXX_ASSERTIONS: bounds-checked operator[] and friends in libstdc++.
# No --werror: the gcc builds hold the warning bar; clang's own warnings
# would otherwise turn the sanitizer suite off.
# -gline-tables-only: reports need file:line, not a debugger's view, and
# full debug info cost a tenth of the build's CPU (CI compiles it cold).
out=build-fuzz
if [ ! -f "$out/build.ninja" ]; then
  CC=${CC:-clang} CXX=$CXX meson setup "$out" -Dfuzzing=true -Dbenchmarks=false \
    -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 -Ddebug=false \
    -Dcpp_args='-gline-tables-only -fno-sanitize-recover=all -fno-omit-frame-pointer -D_GLIBCXX_ASSERTIONS' \
    -Dc_args='-gline-tables-only -fno-sanitize-recover=all -fno-omit-frame-pointer' >/dev/null
fi
((setup_only)) && exit 0
mkdir -p "$out/logs"
if ((!no_build)); then
  ninja -C "$out" ${FUZZ_JOBS:+-j "$FUZZ_JOBS"} "${targets[@]/#/tests/fuzz/fuzz_}" >&2
  # Content-named files: rewriting them is idempotent. Delete build-fuzz/seeds
  # by hand after changing make_seeds.py.
  python3 tests/fuzz/make_seeds.py "$out/seeds" --max-len 65536 >&2
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# ---- Replay regressions, then fuzz ---------------------------------------------
status=0
summary=()
for t in "${targets[@]}"; do
  bin="$out/tests/fuzz/fuzz_$t"
  if ((replay)) && [ -d "tests/fuzz/regressions/$t" ]; then
    : >"$out/logs/$t.replay.log"
    mapfile -t inputs < <(find "tests/fuzz/regressions/$t" -type f ! -name '*.md' ! -name '.*' | sort)
    if ((${#inputs[@]})); then
      echo "fuzz.sh: replaying ${#inputs[@]} regression input(s) for $t" >&2
      # One process per input, so every still-failing input is named.
      failing=()
      for input in "${inputs[@]}"; do
        "$bin" "$input" >>"$out/logs/$t.replay.log" 2>&1 || failing+=("${input##*/}")
      done
      if ((${#failing[@]})); then
        echo "fuzz.sh: $t still fails ${#failing[@]} regression input(s): ${failing[*]} (log: $out/logs/$t.replay.log)" >&2
        summary+=("$t: REGRESSIONS FAILING: ${failing[*]}")
        status=1
      fi
    fi
  fi
  ((build_only)) && continue
  mkdir -p "$out/corpus/$t" "$out/crashes/$t"
  echo "fuzz.sh: fuzzing $t for ${seconds}s (log: $out/logs/$t.log)" >&2
  rc=0
  # stateful reads opcode bytes, not JSON: short inputs, its own dictionary.
  input_flags=(-max_len=65536 -dict=tests/fuzz/json.dict)
  [ "$t" = stateful ] && input_flags=(-max_len=512 -dict=tests/fuzz/stateful.dict)
  # selector reads a CEL expression: at most upstream's 10 KiB, its own dictionary.
  [ "$t" = selector ] && input_flags=(-max_len=10240 -dict=tests/fuzz/cel.dict)
  # shellcheck disable=SC2086
  "$bin" "$out/corpus/$t" "$out/seeds/$t" \
    "${input_flags[@]}" -max_total_time="$seconds" -timeout=30 \
    -artifact_prefix="$out/crashes/$t/" -print_final_stats=1 ${FUZZ_ARGS:-} \
    >"$out/logs/$t.log" 2>&1 || rc=$?
  last=$(grep -E '^#[0-9]+' "$out/logs/$t.log" | tail -1 || true)
  execs=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$out/logs/$t.log")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/logs/$t.log")
  cov=$(echo "$last" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [^ ]+' || true)
  line="$t: ${seconds}s rc=$rc runs=${runs:-?} exec/s=${execs:-?} ${cov}"
  if ((rc != 0)); then
    line+=" -- FOUND SOMETHING: $(ls -t "$out/crashes/$t" | head -1)"
    grep -m1 -E 'ERROR: |runtime error|FUZZ_CHECK' "$out/logs/$t.log" >&2 || true
    status=1
  fi
  summary+=("$line")
done
printf '%s\n' "${summary[@]}"
exit "$status"
}
