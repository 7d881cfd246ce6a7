#!/usr/bin/env bash
# Runs upstream's own scheduler_perf (k8s.io/kubernetes v1.36.3,
# test/integration/scheduler_perf, unmodified: in-process kube-apiserver,
# etcd on PATH, upstream's workloads and metrics) in two columns, in one
# script run on the same machine, and prints upstream's metrics side by side
# (bench/scheduler_perf_table.py):
#   stock     upstream's default scheduler configuration
#   libsched  kube-scheduler/bench/schedperf/algorithm.yaml: the fork's
#             whole-algorithm profile, named default-scheduler
#   plugins   kube-scheduler/bench/schedperf/plugins.yaml: the fork's
#             plugin-mode profile, named default-scheduler (not run
#             unless --columns names it)
#   ceiling   kube-scheduler/bench/schedperf/ceiling.yaml: upstream's
#             framework with no Filter, Score or PostFilter plugin, the
#             bound that any algorithm meets in this harness (a measuring
#             instrument: pods land anywhere; not run unless --columns
#             names it; read it on SchedulingBasic)
# The columns alternate run by run (stock, libsched, stock, ...), so a load
# change on the machine hits all of them. The table's last columns are
# each fork column's speed-up over the first column.
#
#   bench/scheduler-perf.sh [--nodes 5|500|5000] [--workloads A,B] [--runs N]
#                           [--columns stock,libsched,plugins,ceiling]
#                           [--cpuprofile] [--race] [--out DIR]
#   bench/scheduler-perf.sh --smoke [--columns libsched|stock,libsched|...]
#   bench/scheduler-perf.sh --ci
#
# --smoke: SchedulingBasic at 500 nodes, one run, the fork's column only
# unless --columns says otherwise. --ci (scripts/test.sh): the schedperf
# package's own tests, then SchedulingBasic's 5-node case (upstream's
# integration-test size) in both fork columns, built with the race
# detector, so that it reuses the compile of the kube-scheduler and
# kube-e2e stages (500 nodes under the race detector took 5 min 21 s of a
# loaded 2-core machine, the 5-node case 58 s). --race is for such checks,
# never for figures: it slows the API server several times. --nodes 5
# selects upstream's 5-node cases (none for SchedulingWithMixedChurn).
# --cpuprofile writes a CPU profile of
# each run's test process (API server and scheduler; etcd is a process of
# its own) next to its data items. The exit status is non-zero when any run
# fails scheduler_perf's own checks (every measured pod scheduled in time),
# or produces no data items; the table marks such runs FAIL.
# The test binary is built with the Go module cache's scheduler_perf; each
# run's working directory is its topic's directory there, as upstream's
# templates are relative paths. The package builds only with -tags schedperf.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
nodes=500
workloads=SchedulingBasic,SchedulingNodeAffinity,SchedulingPodAntiAffinity,SchedulingPodAffinity,SchedulingPreferredPodAffinity,TopologySpreading,Preemption,Unschedulable,SchedulingWithMixedChurn
runs=1
columns=stock,libsched
cpuprofile=0
race=0
out=build/scheduler-perf
usage="usage: bench/scheduler-perf.sh [--nodes 5|500|5000] [--workloads A,B] [--runs N] [--columns stock,libsched,plugins,ceiling] [--cpuprofile] [--race] [--out DIR] | --smoke [--columns C] | --ci"
while [ $# -gt 0 ]; do
  case $1 in
    --nodes) nodes=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --columns) columns=$2 columns_set=1; shift 2 ;;
    --cpuprofile) cpuprofile=1; shift ;;
    --race) race=1; shift ;;
    --out) out=$2; shift 2 ;;
    --smoke) nodes=500 workloads=SchedulingBasic runs=1 smoke=1; shift ;;
    --ci) nodes=5 workloads=SchedulingBasic runs=1 columns=libsched,plugins columns_set=1 race=1 ci=1
      out=build/scheduler-perf-ci; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
if [ "${smoke:-0}" = 1 ] && [ "${columns_set:-0}" = 0 ]; then columns=libsched; fi
[[ $nodes == 5 || $nodes == 500 || $nodes == 5000 ]] || { echo "--nodes: 5, 500 or 5000, not $nodes" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "--runs: a positive count, not $runs" >&2; exit 2; }

# workload NAME: "topic testCase workload" for the size. Upstream has no
# 500- or 5,000-node PreemptionBasic (1000Nodes is its performance size),
# no 500-node SchedulingWithMixedChurn (1000Nodes is the smallest) and no
# 5-node one.
workload() {
  local tiny=5Nodes small=500Nodes big=5000Nodes topic=affinity tc=$1
  case $1 in
    SchedulingBasic) topic=misc ;;
    SchedulingNodeAffinity | SchedulingPodAntiAffinity | SchedulingPodAffinity | SchedulingPreferredPodAffinity) ;;
    TopologySpreading) topic=topology_spreading ;;
    Preemption) topic=misc tc=PreemptionBasic small=1000Nodes big=1000Nodes ;;
    Unschedulable) topic=misc tiny=5Nodes/1Init/10Pods small=500Nodes/10Init/1kPods big=5kNodes/100Init/1kPods ;;
    SchedulingWithMixedChurn) topic=misc tiny= small=1000Nodes ;;
    *) echo "unknown workload $1" >&2; return 1 ;;
  esac
  case $nodes in
    5) [ -n "$tiny" ] || { echo "$1 has no 5-node case upstream" >&2; return 1; }
      echo "$topic $tc $tiny" ;;
    500) echo "$topic $tc $small" ;;
    *) echo "$topic $tc $big" ;;
  esac
}
IFS=, read -ra names <<<"$workloads"
IFS=, read -ra cols <<<"$columns"
for w in "${names[@]}"; do workload "$w" >/dev/null || exit 2; done
for c in "${cols[@]}"; do
  [[ $c == stock || $c == libsched || $c == plugins || $c == ceiling ]] ||
    { echo "--columns: stock, libsched, plugins and/or ceiling, not $c" >&2; exit 2; }
done

start=$(date +%s)
CONFIGURE_ONLY=1 bash scripts/build.sh build >/dev/null
nice ninja -C build libsched.so.0.1.0 >/dev/null
bash scripts/kube-components.sh build etcd >/dev/null
. scripts/go-env.sh
export PATH="${KUBE_COMPONENTS_BIN:-$root/build-kube/bin}:$PATH"
gorace=()
test_bin=$root/build/schedperf.test
[ "$race" = 1 ] && gorace=(-race) test_bin=$root/build/schedperf-race.test
(cd kube-scheduler && nice go test -c "${gorace[@]}" -tags schedperf -o "$test_bin" ./bench/schedperf)
echo "build: $(($(date +%s) - start)) s" >&2
if [ "${ci:-0}" = 1 ]; then
  (cd kube-scheduler && go test "${gorace[@]}" -tags schedperf -run '^Test' ./bench/schedperf)
fi
perfdir=$(cd kube-scheduler && go env GOMODCACHE)/k8s.io/kubernetes@v1.36.3/test/integration/scheduler_perf

mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -rf "${out:?}"/stock "${out:?}"/libsched "${out:?}"/plugins "${out:?}"/ceiling
failed=0
for r in $(seq "$runs"); do
  for w in "${names[@]}"; do
    read -r topic tc wl <<<"$(workload "$w")"
    pattern="BenchmarkPerfScheduling/^$tc\$"
    IFS=/ read -ra parts <<<"$wl"
    for p in "${parts[@]}"; do pattern+="/^$p\$"; done
    for c in "${cols[@]}"; do
      dir=$out/$c/$w/$r
      mkdir -p "$dir"
      args=(-test.run='^$' -test.bench="$pattern" -test.benchtime=1x -perf-scheduling-label-filter=
        -data-items-dir="$dir" -schedperf-config="$perfdir/$topic/performance-config.yaml" -schedperf-topic="$topic")
      case $c in
        libsched) args+=(-libsched-config="$root/kube-scheduler/bench/schedperf/algorithm.yaml") ;;
        plugins) args+=(-libsched-config="$root/kube-scheduler/bench/schedperf/plugins.yaml") ;;
        ceiling) args+=(-libsched-config="$root/kube-scheduler/bench/schedperf/ceiling.yaml") ;;
      esac
      [ "$cpuprofile" = 1 ] && args+=(-test.cpuprofile="$dir/cpu.pprof")
      echo "== run $r: $w ($tc/$wl), $c" >&2
      t0=$(date +%s)
      if (cd "$perfdir/$topic" && nice "$test_bin" "${args[@]}") >"$dir/log" 2>&1 &&
        compgen -G "$dir/BenchmarkPerfScheduling_*.json" >/dev/null; then
        echo "   ok, $(($(date +%s) - t0)) s" >&2
      else
        echo "   FAILED, $(($(date +%s) - t0)) s: $dir/log" >&2
        touch "$dir/FAILED"
        failed=1
      fi
    done
  done
done

echo
echo "Machine: nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Command: bench/scheduler-perf.sh --nodes $nodes --workloads $workloads --runs $runs --columns $columns$([ "$race" = 1 ] && echo ' --race')"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); libsched $(git rev-parse --short HEAD), upstream scheduler_perf v1.36.3, $(go version | cut -d' ' -f3); total $(($(date +%s) - start)) s"
echo
python3 bench/scheduler_perf_table.py "$out" "${cols[@]}"
exit $failed
