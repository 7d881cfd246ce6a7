#!/usr/bin/env bash
# Builds the meson build dir `build`, then vets and tests the Go package
# (go/) against that uninstalled build:
#   1. go vet, for the default (dynamic) and the sched_static link modes;
#   2. go test -race over every package, linked against libsched.so;
#   3. the sched tests linked statically (tag sched_static), checked with
#      readelf to need no libsched.so, and run without LD_LIBRARY_PATH.
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v go >/dev/null; then
  echo "test-go.sh: no go toolchain on PATH" >&2
  exit 1
fi
bash scripts/build.sh build

. scripts/go-env.sh
cd go

echo "== go vet"
go vet ./...
go vet -tags sched_static ./...

echo "== go test -race (dynamic)"
go test -race -count=1 -timeout 5m ./...

echo "== go test (static, tag sched_static)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -tags sched_static -c -o "$tmp/sched.test" ./sched
if readelf -d "$tmp/sched.test" | grep -q 'NEEDED.*libsched'; then
  echo "test-go.sh: the sched_static test binary still needs libsched.so" >&2
  readelf -d "$tmp/sched.test" | grep NEEDED >&2
  exit 1
fi
(unset LD_LIBRARY_PATH && "$tmp/sched.test" -test.count=1 -test.timeout 5m)

echo "test-go.sh: all Go checks passed"
