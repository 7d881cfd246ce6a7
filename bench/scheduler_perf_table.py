#!/usr/bin/env python3
"""Prints scheduler_perf's data items side by side (bench/scheduler-perf.sh).

Usage: scheduler_perf_table.py DIR COLUMN...

DIR/COLUMN/WORKLOAD/RUN/ holds one run's BenchmarkPerfScheduling_*.json
(upstream's data items) or a FAILED marker. Each cell is the mean over the
column's passed runs ("n/N" when some failed); throughput's Average also
shows the runs' range. The last columns are the speed-ups of each later
column over the first: their ratio for throughput, the inverse for
durations, so above 1 is the later column ahead.
"""
import glob
import json
import os
import statistics
import sys

# (label, Metric, label filter, data key, higher is better)
ROWS = [
    ("throughput avg (pods/s)", "SchedulingThroughput", {}, "Average", True),
    ("throughput p50 (pods/s)", "SchedulingThroughput", {}, "Perc50", True),
    ("throughput p90 (pods/s)", "SchedulingThroughput", {}, "Perc90", True),
    ("throughput p99 (pods/s)", "SchedulingThroughput", {}, "Perc99", True),
    ("measured phase (s)", "SchedulingDuration", {}, "Duration", False),
    ("attempt, scheduled, avg (ms)", "scheduler_scheduling_attempt_duration_seconds",
     {"result": "scheduled"}, "Average", False),
    ("attempt, scheduled, p99 (ms)", "scheduler_scheduling_attempt_duration_seconds",
     {"result": "scheduled"}, "Perc99", False),
    ("PreFilter avg (ms)", "scheduler_framework_extension_point_duration_seconds",
     {"extension_point": "PreFilter"}, "Average", False),
    ("Filter avg (ms)", "scheduler_framework_extension_point_duration_seconds",
     {"extension_point": "Filter"}, "Average", False),
    ("Score avg (ms)", "scheduler_framework_extension_point_duration_seconds",
     {"extension_point": "Score"}, "Average", False),
    ("Bind avg (ms)", "scheduler_framework_extension_point_duration_seconds",
     {"extension_point": "Bind"}, "Average", False),
    ("heap max (MB)", "heap_memory_usage", {}, "Max", False),
]


def load_runs(path):
    """Returns (list of data-item lists of passed runs, total runs)."""
    runs = sorted(glob.glob(os.path.join(path, "*")))
    passed = []
    for run in runs:
        files = glob.glob(os.path.join(run, "BenchmarkPerfScheduling_*.json"))
        if os.path.exists(os.path.join(run, "FAILED")) or not files:
            continue
        with open(files[0]) as f:
            passed.append(json.load(f)["dataItems"])
    return passed, len(runs)


def value(items, metric, labels, key):
    """Mean of key over the run's items of metric matching labels (one per
    measured namespace), or None."""
    vals = [it["data"][key] for it in items
            if it["labels"].get("Metric") == metric and key in it["data"]
            and all(it["labels"].get(k) == v for k, v in labels.items())]
    return statistics.mean(vals) if vals else None


def fmt(x):
    return "–" if x is None else f"{x:.3g}" if abs(x) < 100 else f"{x:.0f}"


def main():
    root, cols = sys.argv[1], sys.argv[2:]
    workloads = sorted({os.path.basename(p) for c in cols for p in glob.glob(os.path.join(root, c, "*"))})
    later = cols[1:]
    print("| workload | metric | " + " | ".join(cols + [f"{c} / {cols[0]}" for c in later]) + " |")
    print("|---|---|" + "---:|" * (len(cols) + len(later)))
    for w in workloads:
        data = {c: load_runs(os.path.join(root, c, w)) for c in cols}
        print(f"| {w} | runs | " + " | ".join(f"{len(p)}/{n}" for p, n in data.values()) +
              " |" * len(later) + " |")
        for label, metric, labels, key, higher in ROWS:
            cells, means = [], []
            for c in cols:
                vals = [v for v in (value(items, metric, labels, key) for items in data[c][0]) if v is not None]
                m = statistics.mean(vals) if vals else None
                means.append(m)
                cell = fmt(m)
                if metric == "SchedulingThroughput" and key == "Average" and len(vals) > 1:
                    cell += f" ({fmt(min(vals))}–{fmt(max(vals))})"
                cells.append(cell)
            if all(m is None for m in means):
                continue
            ratios = []
            for m in means[1:]:
                ok = None not in (means[0], m) and min(means[0], m) > 0
                ratios.append(f"{(m / means[0] if higher else means[0] / m):.2f}x" if ok else "")
            print(f"| | {label} | " + " | ".join(cells + ratios) + " |")


if __name__ == "__main__":
    main()
