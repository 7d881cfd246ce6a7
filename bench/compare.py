#!/usr/bin/env python3
"""Side-by-side table of bench/compare.sh runs (JSON lines of bench/workload
and kube-scheduler/bench, one per impl, workload and size) in Markdown.

usage: compare.py RESULTS.jsonl PLACEMENTS_DIR

Ratio = engine pods/s over upstream pods/s (wall time), through the C API
and through go/sched; "per CPU-s" is the same ratio over each process's CPU
time, which a loaded machine distorts less. "Decisions" compares what is
determined despite upstream's random tie-breaking and its parallel filter:
the counts of placed and unplaced measured pods first ("counts differ" is a
real disagreement); then the spread: the histogram of pods per node (how
many nodes carry k pods) and pods per zone over every pod bound at the end,
which can differ by a pod or two on a few nodes because upstream's rotating
start index advances by the nodes its parallel filter happened to process;
"same placements" when even the exact pod -> node maps agree.

With several runs of a workload (compare.sh --repeat N), each column shows
its median run: pods/s, latency and RSS from the run with the median pods/s,
pods per CPU-s its own median; the ratios divide medians, and two more
columns give the number of runs and the range of the C API's wall ratio
(each C API run against the upstream run of the same round). Counts must
agree in every run.
"""
import json
import sys
import statistics
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
    if (a["scheduled"], a["unscheduled"]) != (b["scheduled"], b["unscheduled"]):
        return "counts differ"
    if pa and pa == pb:
        return "same placements"
    diff = [k for k in ("podsPerNode", "podsPerZone") if a[k] != b[k]]
    return "same counts" + ("; " + ", ".join(diff) + " differ" if diff else ", same spread")


def median_run(runs):
    """The run with the median pods/s (the lower middle one of an even
    count), with podsPerCpuSecond replaced by its own median."""
    if not runs:
        return None
    ordered = sorted(runs, key=lambda r: r["podsPerSecond"])
    r = dict(ordered[(len(ordered) - 1) // 2])
    cpu = [x["podsPerCpuSecond"] for x in runs if "podsPerCpuSecond" in x]
    if cpu:
        r["podsPerCpuSecond"] = statistics.median_low(cpu)
    return r


def all_counts_agree(runs, ref):
    return all((r["scheduled"], r["unscheduled"]) == (ref["scheduled"], ref["unscheduled"])
               for r in runs)


def main():
    runs = defaultdict(lambda: defaultdict(list))
    order = []
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            key = (r["workload"], r["nodes"])
            if key not in runs:
                order.append(key)
            runs[key][r["impl"]].append(r)
    pl = {impl: placements(sys.argv[2], impl) for impl in IMPLS}
    repeated = any(len(v) > 1 for k in order for v in runs[k].values())

    def fmt(r, field, spec):
        return format(r[field], spec) if r else "-"

    def ratio(x, field):
        if not x or not up or not up.get(field) or field not in x:
            return "-"
        return f"{x[field] / up[field]:.0f}x"

    print("| Workload | Nodes | upstream pods/s | C API pods/s | ratio | go/sched pods/s | ratio "
          "| ratio per CPU-s (C API) | p50 / p99 ms upstream | p50 / p99 ms C API "
          "| peak RSS MiB upstream / C API | placed upstream / C API | decisions C API vs upstream |"
          + (" runs | C API ratio, min-max |" if repeated else ""))
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if repeated else ""))
    for key in order:
        r = runs[key]
        up, c, g = (median_run(r.get(i)) for i in ("upstream", "libsched-capi", "libsched-go"))
        placed = f"{fmt(up, 'scheduled', 'd')} / {fmt(c, 'scheduled', 'd')} of {fmt(c or up, 'measurePods', 'd')}"
        dec = decisions(c, up, pl["libsched-capi"].get(key), pl["upstream"].get(key))
        if c and up and not all_counts_agree(r["libsched-capi"] + r["upstream"], up):
            dec = "counts differ between runs"
        extra = ""
        if repeated:
            pairs = [x["podsPerSecond"] / y["podsPerSecond"]
                     for x, y in zip(r.get("libsched-capi", []), r.get("upstream", []))
                     if y["podsPerSecond"]]
            spread = f"{min(pairs):.0f}x-{max(pairs):.0f}x" if pairs else "-"
            extra = f" {len(r.get('libsched-capi') or r.get('upstream') or [])} | {spread} |"
        print(f"| {key[0]} | {key[1]} | {fmt(up, 'podsPerSecond', '.0f')} | "
              f"{fmt(c, 'podsPerSecond', '.0f')} | {ratio(c, 'podsPerSecond')} | "
              f"{fmt(g, 'podsPerSecond', '.0f')} | {ratio(g, 'podsPerSecond')} | "
              f"{ratio(c, 'podsPerCpuSecond')} | "
              f"{fmt(up, 'p50Ms', '.2f')} / {fmt(up, 'p99Ms', '.1f')} | "
              f"{fmt(c, 'p50Ms', '.3f')} / {fmt(c, 'p99Ms', '.2f')} | "
              f"{fmt(up, 'peakRssMiB', '.0f')} / {fmt(c, 'peakRssMiB', '.0f')} | {placed} | {dec} |{extra}")


if __name__ == "__main__":
    main()
