#!/usr/bin/env python3
"""--entry performance picks, for every workload, the entry upstream's
performance job holds to a threshold (plan.h); the driver runs each at a
tiny size (its counts scaled down) and every measured pod must be placed.

usage: performance_entry_test.py WORKLOAD_BINARY
"""
import json
import subprocess
import sys

WANT = {
    "SchedulingBasic": "5000Nodes_10000Pods",
    "SchedulingNodeAffinity": "5000Nodes_10000Pods",
    "SchedulingPodAntiAffinity": "5000Nodes_2000Pods",
    "SchedulingPodAffinity": "5000Nodes_5000Pods",
    "SchedulingPreferredPodAffinity": "5000Nodes_5000Pods",
    "TopologySpreading": "5000Nodes_5000Pods",
    "Preemption": "1000Nodes",
    "Unschedulable": "5kNodes/100Init/10kPods",
    "SchedulingOwnedPods": "5000Nodes_10000Pods",
    "SchedulingOwnedChurn": "5000Nodes_10000Pods",
    "SchedulingWithMixedChurn": "5000Nodes_10000Pods",
}


def main():
    out = subprocess.run(
        [sys.argv[1], "--nodes", "10", "--entry", "performance", "--require-all",
         "--workloads", ",".join(WANT)],
        check=True, capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        r = json.loads(line)
        got[r["workload"]] = r["entry"]
    if got != WANT:
        for w in WANT:
            if got.get(w) != WANT[w]:
                print(f"{w}: entry {got.get(w)!r}, want {WANT[w]!r}")
        sys.exit(1)


if __name__ == "__main__":
    main()
