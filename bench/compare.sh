#!/usr/bin/env bash
# Runs the scheduler_perf workloads through the engine's C API
# (build/bench/workload), through go/sched and through upstream
# kube-scheduler v1.36.3 in-process (kube-scheduler/bench), in one script
# run, and prints the side-by-side table (bench/compare.py).
#
#   bench/compare.sh [--nodes 500,5000] [--workloads A,B,...] [--repeat N]
#                    [--entry NAME] [--out DIR]
#
# Sizes default to 500 and 5,000 nodes; --nodes 500,5000,15000 adds the
# 15,000-node runs (counts scaled from the 5,000-node entries, see
# bench/workload/plan.h). Each implementation runs each workload and size
# in a process of its own, so peak RSS is that run's. Raw JSON lines and
# placements go to DIR (default build/bench-compare). --repeat N (default
# 1) runs each workload N times, the three implementations in turn within
# each round, and the table reports each column's median run: the C API's
# measured phase lasts some 30 ms at 5,000 nodes, and one run of it moves
# by a third with the machine. --entry NAME runs upstream's workload entry
# of that name in every column (e.g. 5000Nodes_10000Pods: ten times the
# measured pods of 5000Nodes, a longer measured phase); every workload
# named must have it. --entry performance runs each workload's entry that
# upstream's performance job holds to a threshold (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
nodes=500,5000
workloads=SchedulingBasic,SchedulingNodeAffinity,SchedulingPodAntiAffinity,SchedulingPodAffinity,SchedulingPreferredPodAffinity,TopologySpreading,Preemption,Unschedulable,SchedulingOwnedPods,SchedulingOwnedChurn,SchedulingWithMixedChurn
out=build/bench-compare
repeat=1
entry=
while [ $# -gt 0 ]; do
  case $1 in
    --nodes) nodes=$2; shift 2 ;;
    --workloads) workloads=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --entry) entry=$2; shift 2 ;;
    *) echo "usage: bench/compare.sh [--nodes 500,5000] [--workloads A,B] [--repeat N] [--entry NAME] [--out DIR]" >&2; exit 2 ;;
  esac
done
[[ $repeat =~ ^[1-9][0-9]*$ ]] || { echo "--repeat: a positive count, not '$repeat'" >&2; exit 2; }

bash scripts/build.sh build >/dev/null
. scripts/go-env.sh
(cd kube-scheduler && go build -o "$root/build/kube-scheduler-bench" ./bench)
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/results.jsonl "$out"/*.txt
corpus=$root/bench/corpus

IFS=, read -ra sizes <<<"$nodes"
IFS=, read -ra names <<<"$workloads"
for n in "${sizes[@]}"; do
  for w in "${names[@]}"; do
    for ((r = 1; r <= repeat; r++)); do
      echo "== $w at $n nodes (run $r of $repeat)" >&2
      build/bench/workload --corpus "$corpus" --workloads "$w" --nodes "$n" --entry "$entry" \
        --placements "$out/libsched-capi.txt" >>"$out/results.jsonl"
      for impl in libsched-go upstream; do
        build/kube-scheduler-bench --impl "$impl" --corpus "$corpus" --workload "$w" --nodes "$n" --entry "$entry" \
          --placements "$out/$impl.txt" >>"$out/results.jsonl"
      done
    done
  done
done

echo
echo "Machine: nproc $(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "Command: bench/compare.sh --nodes $nodes --workloads $workloads --repeat $repeat${entry:+ --entry $entry}"
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); libsched $(git rev-parse --short HEAD), upstream kube-scheduler v1.36.3, $(go version | cut -d' ' -f3)"
echo
python3 bench/compare.py "$out/results.jsonl" "$out"
