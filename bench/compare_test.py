#!/usr/bin/env python3
"""Tests of compare.py's table over repeated runs (compare.sh --repeat)."""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402


def record(impl, pods_per_second, scheduled=10, cpu=None):
    return {"impl": impl, "workload": "W", "nodes": 5, "measurePods": 10,
            "scheduled": scheduled, "unscheduled": 10 - scheduled,
            "podsPerSecond": pods_per_second,
            "podsPerCpuSecond": cpu if cpu is not None else pods_per_second,
            "p50Ms": 1.0, "p99Ms": 2.0, "peakRssMiB": 3.0,
            "podsPerNode": {"2": 5}, "podsPerZone": {}}


def table(records):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "results.jsonl")
        with open(path, "w") as f:
            f.writelines(json.dumps(r) + "\n" for r in records)
        out = io.StringIO()
        sys.argv = ["compare.py", path, d]
        with contextlib.redirect_stdout(out):
            compare.main()
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in out.getvalue().splitlines()[2:]]


class CompareTest(unittest.TestCase):
    def test_one_run_keeps_the_table_as_it_was(self):
        rows = table([record("libsched-capi", 400), record("upstream", 10)])
        self.assertEqual(len(rows[0]), 13)
        self.assertEqual(rows[0][3:5], ["400", "40x"])

    def test_repeated_runs_report_the_median_and_the_range(self):
        rows = table([record("libsched-capi", 300, cpu=50), record("upstream", 10, cpu=5),
                      record("libsched-capi", 100, cpu=40), record("upstream", 10, cpu=5),
                      record("libsched-capi", 200, cpu=60), record("upstream", 10, cpu=5)])
        row = rows[0]
        self.assertEqual(row[3:5], ["200", "20x"])   # the median run, not the best
        self.assertEqual(row[7], "10x")              # median CPU rate 50 over 5
        self.assertEqual(row[-2:], ["3", "10x-30x"])
        self.assertEqual(row[12], "same counts, same spread")

    def test_counts_must_agree_in_every_run(self):
        rows = table([record("libsched-capi", 300), record("upstream", 10),
                      record("libsched-capi", 300, scheduled=9), record("upstream", 10),
                      record("libsched-capi", 300), record("upstream", 10)])
        self.assertEqual(rows[0][12], "counts differ between runs")


if __name__ == "__main__":
    unittest.main()
