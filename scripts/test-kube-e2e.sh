#!/usr/bin/env bash
# End-to-end test of the fork's binary against real components: builds
# etcd and kube-apiserver (scripts/kube-components.sh, cached) and the
# fork (scripts/build-kube-scheduler.sh), checks --version and --help,
# starts etcd + kube-apiserver on 127.0.0.1 and runs kube-scheduler/e2e
# (the binary as a process, leader election on; the deployed
# whole-algorithm profile, and examples/config.yaml's plugin-mode profile in
# TestPluginModeAgainstAPIServer). Extra arguments go to
# go test, e.g. -args -e2e.nodes=100 for the larger scale.
# Everything Go here is built with -race (kube-apiserver, the fork, the
# e2e package): the kube-scheduler stage's race tests have compiled most of
# their packages, so the stage shares that compile (a build without -race
# compiled ~2,100 packages again), and the fork's process runs under the
# race detector. etcd alone is built without it (its own module).
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

bash scripts/build.sh build
export KUBE_RACE=1
bash scripts/kube-components.sh build
bin=$root/build-kube/bin-race/kube-scheduler
bash scripts/build-kube-scheduler.sh -o "$bin" -race
. scripts/go-env.sh

echo "== kube-scheduler --version / --help"
k8s=$(cd kube-scheduler && go list -m -f '{{.Version}}' k8s.io/kubernetes)
version=$("$bin" --version)
[[ $version == "Kubernetes $k8s+libsched-"[0-9]* ]] || { echo "--version printed '$version'" >&2; exit 1; }
help=$("$bin" --help)
[[ $help == *"out-of-tree plugin LibSched"* ]] || { echo "--help does not mention LibSched" >&2; exit 1; }

dir=$(mktemp -d)
trap 'bash "$root/scripts/kube-components.sh" stop "$dir" || true; rm -rf "$dir"' EXIT
bash scripts/kube-components.sh start "$dir"

echo "== go test ./e2e"
cd kube-scheduler
LIBSCHED_E2E_DIR=$dir LIBSCHED_E2E_BIN=$bin go test -race -count=1 -timeout 15m -v ./e2e "$@" || {
  tail -n 30 "$dir"/scheduler-*.log >&2 || true
  exit 1
}
echo "test-kube-e2e.sh: end-to-end checks passed"
