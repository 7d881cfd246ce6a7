#!/usr/bin/env bash
# The engine's scale curve (issue 19): each workload at 500, 5,000, 15,000
# and 50,000 nodes through the C API (build/bench/workload; counts above
# 5,000 nodes scaled from the 5,000-node entry, bench/workload/plan.h), each
# workload and size in a process of its own so that peak RSS is that
# run's. JSON lines to OUT (default build/scale-curve.jsonl); per-pod CPU is
# cpuSeconds / attempts of the measured phase.
#
#   bench/scale-curve.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/scale-curve.jsonl}
bash scripts/build.sh build >/dev/null
: >"$out"
for w in SchedulingBasic SchedulingNodeAffinity Unschedulable SchedulingWithMixedChurn SchedulingOwnedPods SchedulingOwnedChurn TopologySpreading SchedulingPodAntiAffinity SchedulingPodAffinity; do
  for n in 500 5000 15000 50000; do
    echo "== $w $n $(date +%T)" >&2
    build/bench/workload --corpus bench/corpus --workloads "$w" --nodes "$n" >>"$out"
  done
done
python3 - "$out" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    print(f"{d['workload']:28} {d['nodes']:>6} nodes  {1e6 * d['cpuSeconds'] / d['attempts']:8.0f} us/pod  {d['peakRssMiB']:6.0f} MiB")
PY
