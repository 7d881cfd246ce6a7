#!/usr/bin/env bash
# Builds the meson build dir `build`, then vets and tests the kube-scheduler
# fork (kube-scheduler/: the LibSched plugin and the command) against that
# uninstalled build, linked against libsched.so: go test -race over every
# package (the LibSched plugin, the command, and the differential test
# against upstream, docs/differential-test.md). go test runs its curated
# go vet checks on the race build; a separate `go vet ./...` would compile
# all of k8s.io/kubernetes a second time (minutes on 2 cores), so it is not
# run here. Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

if ! command -v go >/dev/null; then
  echo "test-kube-scheduler.sh: no go toolchain on PATH" >&2
  exit 1
fi
bash scripts/build.sh build
. scripts/go-env.sh
cd kube-scheduler

echo "== go test -race"
go test -race -count=1 -timeout 20m ./...

echo "test-kube-scheduler.sh: all kube-scheduler checks passed"
