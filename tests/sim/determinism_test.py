#!/usr/bin/env python3
"""The same --seed gives the same JSON, byte for byte; the seed is what
breaks ties between equally scored nodes.

    determinism_test.py SCHEDSIM
"""

import json
import os
import sys
import tempfile
import unittest

import simlib


def identical_cluster(nodes, pods):
    """Identical nodes and pods: every choice is a tie."""
    items = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": f"node-{i}"},
              "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"}}}
             for i in range(nodes)]
    items += [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": f"pod-{i}"},
               "spec": {"containers": [{"name": "c", "image": "busybox",
                                        "resources": {"requests": {"cpu": "100m"}}}]}}
              for i in range(pods)]
    return {"apiVersion": "v1", "kind": "List", "items": items}


class Determinism(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.ties = os.path.join(tmp.name, "ties.json")
        with open(self.ties, "w") as f:
            json.dump(identical_cluster(40, 40), f)

    def output(self, *args):
        p = simlib.run("--output", "json", *args)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_same_seed_same_bytes(self):
        for args in (["--seed", "7"], ["--seed", "7", self.ties], ["--seed", "18446744073709551615", self.ties]):
            self.assertEqual(self.output(*args), self.output(*args), args)

    def test_seed_breaks_ties(self):
        runs = {self.output("--seed", str(seed), self.ties) for seed in range(1, 5)}
        self.assertGreater(len(runs), 1, "four seeds chose the same nodes for 40 tied pods")


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
