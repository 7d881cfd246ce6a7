#!/usr/bin/env bash
# The differential test (docs/differential-test.md): builds the meson build
# dir `build`, then runs kube-scheduler/difftest against that uninstalled
# build, under the race detector. Extra arguments go to `go test`, e.g.
#   scripts/test-difftest.sh -args -difftest.cases=100000
# (DIFFTEST_CASES=N works too). Prints the wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
start=$(date +%s)

if ! command -v go >/dev/null; then
  echo "test-difftest.sh: no go toolchain on PATH" >&2
  exit 1
fi
bash scripts/build.sh build

. scripts/go-env.sh

cd kube-scheduler
go test -race -count=1 -timeout 30m ./difftest/... "$@"
echo "test-difftest.sh: passed in $(( $(date +%s) - start )) s"
