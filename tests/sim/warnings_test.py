#!/usr/bin/env python3
"""schedsim's input warnings (issue 16): unknown fields as strict field
validation words them, unknown kinds, pods bound to missing nodes, missing
PriorityClasses; repeated ones folded; all of them errors with --strict.
The expected stderr is a golden file (warnings/expected.stderr).

    warnings_test.py SCHEDSIM WARNINGS_DIR [--update]
"""

import os
import sys
import unittest

import simlib

DIR = None
UPDATE = False


class Warnings(unittest.TestCase):
    def test_warnings(self):
        # Relative paths, so the golden file holds no checkout's location.
        p = simlib.run_in(DIR, "--output", "json", "--seed", "1", "input.yaml")
        self.assertEqual(p.returncode, 0, p.stderr)
        golden = os.path.join(DIR, "expected.stderr")
        if UPDATE:
            with open(golden, "w") as f:
                f.write(p.stderr)
        with open(golden) as f:
            self.assertEqual(p.stderr, f.read())
        self.assertIn('"default/typo"', p.stdout)  # simulated anyway

    def test_strict(self):
        p = simlib.run_in(DIR, "--strict", "input.yaml")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertIn('schedsim: error: input.yaml:', p.stderr)
        self.assertIn('unknown field "spec.nodeSelectr"', p.stderr)
        self.assertTrue(p.stderr.endswith("(--strict)\n"), p.stderr)

    def test_clean_input_is_quiet(self):
        p = simlib.run_in(DIR, "--strict", "--output", "json", "clean.yaml")
        self.assertEqual((p.returncode, p.stderr), (0, ""))


if __name__ == "__main__":
    simlib.SCHEDSIM, DIR = os.path.abspath(sys.argv[1]), sys.argv[2]
    UPDATE = "--update" in sys.argv
    unittest.main(argv=sys.argv[:1], verbosity=2)
