#!/usr/bin/env python3
"""Side-by-side table of bench/compare.sh runs (JSON lines of bench/workload
and kube-scheduler/bench, one per impl, workload and size) in Markdown.

usage: compare.py RESULTS.jsonl PLACEMENTS_DIR

Ratio = engine pods/s over upstream pods/s, through the C API and through
go/sched. "Decisions" compares what is determined despite upstream's random
tie-breaking: the counts of placed and unplaced measured pods, and the
histogram of pods per node (how many nodes carry k pods) and per zone over
every pod bound at the end; "same placements" adds the exact pod -> node
map, which agrees only where no ties were broken at random.
"""
import json
import sys
from collections import defaultdict

IMPLS = ("libsched-capi", "libsched-go", "upstream")


def placements(directory, impl):
    out = defaultdict(dict)
    try:
        with open(f"{directory}/{impl}.txt") as f:
            for line in f:
                workload, nodes, pod, node = line.split()
                out[(workload, int(nodes))][pod] = node
    except FileNotFoundError:
        pass
    return out


def decisions(a, b, pa, pb):
    if a is None or b is None:
        return "-"
    keys = ("scheduled", "unscheduled", "podsPerNode", "podsPerZone")
    diff = [k for k in keys if a[k] != b[k]]
    if diff:
        return "differ: " + ", ".join(diff)
    return "same placements" if pa and pa == pb else "same counts"


def main():
    rows = defaultdict(dict)
    order = []
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            key = (r["workload"], r["nodes"])
            if key not in rows:
                order.append(key)
            rows[key][r["impl"]] = r
    pl = {impl: placements(sys.argv[2], impl) for impl in IMPLS}

    def fmt(r, field, spec):
        return format(r[field], spec) if r else "-"

    print("| Workload | Nodes | upstream pods/s | C API pods/s | ratio | go/sched pods/s | ratio "
          "| p50 / p99 ms (upstream, C API) | peak RSS MiB (upstream, C API) | decisions C API vs upstream |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in order:
        r = rows[key]
        up, c, g = (r.get(i) for i in ("upstream", "libsched-capi", "libsched-go"))

        def ratio(x):
            if not x or not up or not up["podsPerSecond"]:
                return "-"
            return f"{x['podsPerSecond'] / up['podsPerSecond']:.0f}x"

        lat = f"{fmt(up, 'p50Ms', '.2f')} / {fmt(up, 'p99Ms', '.2f')}, " \
              f"{fmt(c, 'p50Ms', '.3f')} / {fmt(c, 'p99Ms', '.3f')}"
        rss = f"{fmt(up, 'peakRssMiB', '.0f')}, {fmt(c, 'peakRssMiB', '.0f')}"
        dec = decisions(c, up, pl["libsched-capi"].get(key), pl["upstream"].get(key))
        print(f"| {key[0]} | {key[1]} | {fmt(up, 'podsPerSecond', '.0f')} | "
              f"{fmt(c, 'podsPerSecond', '.0f')} | {ratio(c)} | {fmt(g, 'podsPerSecond', '.0f')} | "
              f"{ratio(g)} | {lat} | {rss} | {dec} |")


if __name__ == "__main__":
    main()
