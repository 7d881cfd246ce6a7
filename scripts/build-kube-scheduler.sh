#!/usr/bin/env bash
# Builds the fork's command (kube-scheduler/cmd/kube-scheduler) into OUT
# (default build-kube/bin/kube-scheduler) against the meson build dir
# `build` (or $LIBSCHED_BUILD), with --version stamped as upstream's release
# scripts do (-ldflags -X k8s.io/component-base/version...): the pinned
# k8s.io/kubernetes release plus the libsched version as build metadata,
# e.g. "Kubernetes v1.36.3+libsched-0.1.0". Extra arguments go to go build
# (e.g. -tags sched_static).
#   scripts/build-kube-scheduler.sh [-o OUT] [go build flags...]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build-kube/bin/kube-scheduler"
if [[ ${1:-} == -o ]]; then out=$2; shift 2; fi
. "$root/scripts/go-env.sh"
cd "$root/kube-scheduler"

k8s=$(go list -m -f '{{.Version}}' k8s.io/kubernetes)        # v1.36.3
libsched=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "$root/meson.build" | head -1)
[[ $k8s =~ ^v([0-9]+)\.([0-9]+)\.[0-9]+$ ]] || { echo "build-kube-scheduler.sh: k8s.io/kubernetes version $k8s is not vX.Y.Z" >&2; exit 1; }
[[ -n $libsched ]] || { echo "build-kube-scheduler.sh: no version in meson.build" >&2; exit 1; }
commit=$(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown)
state=clean
[[ -z $(git -C "$root" status --porcelain 2>/dev/null) ]] || state=dirty
v=k8s.io/component-base/version
ldflags="-X $v.gitVersion=$k8s+libsched-$libsched -X $v.gitMajor=${BASH_REMATCH[1]} -X $v.gitMinor=${BASH_REMATCH[2]}"
ldflags+=" -X $v.gitCommit=$commit -X $v.gitTreeState=$state -X $v.buildDate=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
mkdir -p "$(dirname "$out")"
nice go build -ldflags "$ldflags" -o "$out" "$@" ./cmd/kube-scheduler
"$out" --version
