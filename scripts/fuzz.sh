#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in tests/fuzz/ (clang, with
# AddressSanitizer + UndefinedBehaviorSanitizer + LeakSanitizer).
#
# Usage: scripts/fuzz.sh [--seconds N] [--build-only] [--no-replay] [TARGET...]
#   TARGET   config | apply | schedule | quantity | stateful | nodes (or fuzz_<name>); default: all
#   --seconds N       fuzz each target N seconds (default: $FUZZ_SECONDS, else 60)
#   --build-only      build targets and seeds, replay regressions, do not fuzz
#   --no-replay       skip the regression replay
# Environment: FUZZ_SECONDS, FUZZ_JOBS (parallel compile jobs, default nproc),
#   FUZZ_ARGS (extra libFuzzer flags), CXX (default clang++).
#
# Layout (build-fuzz/ is ignored by git, as every build*/ directory):
#   build-fuzz/fuzz_<t>        the fuzzer binaries
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

ALL_TARGETS=(config apply schedule quantity stateful nodes)
seconds=${FUZZ_SECONDS:-60}
build_only=0
replay=1
targets=()
while (($#)); do
  case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#*=}; shift ;;
    --build-only) build_only=1; shift ;;
    --no-replay) replay=0; shift ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) t=${1#fuzz_}
       [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target $1 (have: ${ALL_TARGETS[*]})" >&2; exit 2; }
       targets+=("$t"); shift ;;
  esac
done
((${#targets[@]})) || targets=("${ALL_TARGETS[@]}")
[[ $seconds =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --seconds wants a number, got $seconds" >&2; exit 2; }

# ---- Toolchain: Debian's clang with its libFuzzer runtime ----------------------
apt_install() {
  local SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "fuzz.sh: installing $*" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq "$@" >/dev/null
}
CXX=${CXX:-clang++}
missing=()
for p in pkg-config libcjson-dev libxxhash-dev python3; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
command -v "$CXX" >/dev/null || missing+=(clang)
((${#missing[@]})) && apt_install "${missing[@]}"
# The libFuzzer runtime ships separately (libclang-rt-<major>-dev on bookworm).
fuzzer_lib=$("$CXX" -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
if [ ! -f "$fuzzer_lib" ] && ! ls "$("$CXX" -print-resource-dir)"/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
  major=$("$CXX" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
  apt_install "libclang-rt-${major}-dev"
fi

# ---- Build --------------------------------------------------------------------
out=build-fuzz
mkdir -p "$out/obj" "$out/logs"
# -fno-sanitize-recover: every UBSan report is a crash libFuzzer keeps.
# _GLIBCXX_ASSERTIONS: bounds-checked operator[] and friends in libstdc++.
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
cxxflags=(-std=c++20 -O1 -g "${san[@]}" -D_GLIBCXX_ASSERTIONS -DSCHED_BUILDING_LIBRARY
          -I. -Iinclude $(pkg-config --cflags libcjson libxxhash))
libs=($(pkg-config --libs libcjson libxxhash) -lpthread)
flags_stamp="$out/obj/flags"
echo "$CXX ${cxxflags[*]}" | cmp -s - "$flags_stamp" 2>/dev/null || { rm -f "$out"/obj/*.o; echo "$CXX ${cxxflags[*]}" > "$flags_stamp"; }

mapfile -t lib_sources < <(ls capi/*.cc; find libsched -name '*.cc' ! -name '*_test.cc' ! -name '*_test_util.cc' ! -path 'libsched/testing/*' | sort)
# Objects are rebuilt when their source or any header is newer.
newest_header=$(find capi libsched include tests/fuzz -name '*.h' -printf '%T@\n' | sort -n | tail -1)
compile() {  # source, object, extra flags...
  local src=$1 obj=$2
  shift 2
  if [ -f "$obj" ]; then
    local t_obj t_src
    t_obj=$(stat -c %Y "$obj"); t_src=$(stat -c %Y "$src")
    if ((t_obj >= t_src)) && ((t_obj >= ${newest_header%.*})); then return 0; fi
  fi
  echo "  CXX $src" >&2
  "$CXX" "${cxxflags[@]}" "$@" -c "$src" -o "$obj"
}
objs=()
jobs=${FUZZ_JOBS:-$(nproc)}
pids=()
for src in "${lib_sources[@]}"; do
  obj="$out/obj/$(echo "${src%.cc}" | tr / _).o"
  objs+=("$obj")
  # Library code is instrumented for coverage but has no main.
  compile "$src" "$obj" -fsanitize=fuzzer-no-link &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
for t in "${targets[@]}"; do
  compile "tests/fuzz/fuzz_$t.cc" "$out/obj/fuzz_$t.o" -fsanitize=fuzzer-no-link
  echo "  LINK $out/fuzz_$t" >&2
  # Link beside and rename, so a concurrent run of the old binary is unharmed.
  "$CXX" "${cxxflags[@]}" -fsanitize=fuzzer "$out/obj/fuzz_$t.o" "${objs[@]}" "${libs[@]}" \
    -o "$out/fuzz_$t.tmp$$"
  mv -f "$out/fuzz_$t.tmp$$" "$out/fuzz_$t"
done

# ---- Seeds --------------------------------------------------------------------
# Content-named files: rewriting them is idempotent and safe beside a running
# fuzzer. Delete build-fuzz/seeds by hand after changing make_seeds.py.
python3 tests/fuzz/make_seeds.py "$out/seeds" --max-len 65536 >&2

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# ---- Replay regressions, then fuzz ---------------------------------------------
status=0
summary=()
for t in "${targets[@]}"; do
  bin="$out/fuzz_$t"
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
