#!/usr/bin/env python3
"""Golden tests for schedsim: small hand-checked clusters and their expected
`schedsim --output json --seed 1` output.

    run_golden.py SCHEDSIM CASES_DIR [CASE...]           # compare
    run_golden.py SCHEDSIM CASES_DIR --update [CASE...]  # rewrite expected.json

A case is a directory: its input*.yaml / input*.json files (in name order)
are the cluster, expected.json the output. Inputs say in comments how the
expected placements and messages follow from upstream's rules; --update is
for new cases and deliberate changes only, and its diff is to be read
against those comments before it is committed.
"""

import difflib
import json
import os
import subprocess
import sys


def inputs(case_dir):
    return sorted(os.path.join(case_dir, f) for f in os.listdir(case_dir)
                  if f.startswith("input") and f.endswith((".yaml", ".yml", ".json")))


def run(schedsim, case_dir):
    p = subprocess.run([schedsim, "--output", "json", "--seed", "1", *inputs(case_dir)],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"exit status {p.returncode}: {p.stderr.strip()}")
    return p.stdout


def main(argv):
    args = [a for a in argv[1:] if a != "--update"]
    update = len(args) < len(argv) - 1
    if len(args) < 2:
        sys.exit(__doc__)
    schedsim, cases_dir, only = args[0], args[1], args[2:]
    cases = only or sorted(d for d in os.listdir(cases_dir)
                           if os.path.isdir(os.path.join(cases_dir, d)))
    failed = []
    for case in cases:
        case_dir = os.path.join(cases_dir, case)
        expected_path = os.path.join(case_dir, "expected.json")
        try:
            actual = run(schedsim, case_dir)
        except RuntimeError as e:
            print(f"FAIL {case}: {e}")
            failed.append(case)
            continue
        if update:
            with open(expected_path, "w") as f:
                f.write(actual)
            print(f"updated {case}")
            continue
        if not os.path.exists(expected_path):
            print(f"FAIL {case}: no expected.json (write it by hand, or --update and check it)")
            failed.append(case)
            continue
        with open(expected_path) as f:
            expected = f.read()
        if json.loads(actual) == json.loads(expected):
            print(f"ok   {case}")
            continue
        print(f"FAIL {case}:")
        sys.stdout.writelines(difflib.unified_diff(
            expected.splitlines(True), actual.splitlines(True), "expected.json", "actual"))
        failed.append(case)
    if failed:
        print(f"{len(failed)} of {len(cases)} cases failed: {' '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
