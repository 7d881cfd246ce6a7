#!/usr/bin/env bash
# Sets up, builds, and runs every test: the normal build, then the whole
# suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
# Ends with one line "N passed, M failed" (meson test results of both runs).
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
run_suite() {  # builddir, meson setup args...
  local dir=$1
  shift
  if ! bash scripts/build.sh "$dir" "$@"; then
    echo "build of $dir failed" >&2
    failed=$((failed + 1))
    return
  fi
  meson test -C "$dir" --print-errorlogs
  local log="$dir/meson-logs/testlog.json"
  local ok bad
  ok=$(grep -c '"result": "OK"' "$log" || true)
  bad=$(grep -vc '"result": "OK"' "$log" || true)
  passed=$((passed + ok))
  failed=$((failed + bad))
}

run_suite build
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  run_suite build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug

echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
