#!/usr/bin/env python3
"""`schedsim capacity NS/NAME`: the replicas that fit after the run, as
sched_engine_capacity places them. `schedsim explain NS/NAME`: the pod is left out of the simulation and
explained against the cluster the run leaves (sched_engine_explain); the
JSON output is the explanation document, the table shows its reasons,
nearest misses, verdicts and scores; bad uses exit 2.

    explain_subcommand_test.py SCHEDSIM
"""

import json
import os
import sys
import tempfile
import unittest

import simlib


def node(name, cpu, taint=None):
    n = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
         "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"}}}
    if taint:
        n["spec"] = {"taints": [{"key": taint, "value": "yes", "effect": "NoSchedule"}]}
    return n


def pod(name, cpu, node_name=None):
    spec = {"containers": [{"name": "c", "image": "busybox",
                            "resources": {"requests": {"cpu": cpu}}}]}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


class Explain(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        # a: 2 CPUs, b: 1 CPU with 500m bound, t: tainted. "filler"
        # (pending, 1500m) takes a in the run; "p" (800m) then lacks 300m
        # on both a and b.
        self.path = os.path.join(tmp.name, "cluster.json")
        items = [node("a", "2"), node("b", "1"), node("t", "8", taint="dedicated"),
                 pod("filler", "1500m"), pod("bound", "500m", "b"), pod("p", "800m")]
        with open(self.path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)

    def test_json_is_the_explanation_after_the_run(self):
        p = simlib.run("explain", "p", "--output", "json", self.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["pod"], "default/p")
        self.assertEqual(doc["numAllNodes"], 3)
        # filler took 1500m of a; b has 500m left: p (800m) fits nowhere.
        self.assertEqual(doc["feasibleNodes"], 0)
        texts = [m["text"] for m in doc["nearestMisses"]]
        self.assertEqual(texts, ["needs 300m more cpu on 2 nodes",
                                 "does not tolerate taint dedicated=yes:NoSchedule on 1 node"])
        self.assertLessEqual(len(doc["summary"].encode()), 1024)
        self.assertEqual([n["node"] for n in doc["nodes"]], ["a", "b", "t"])

    def test_table(self):
        p = simlib.run("explain", "default/p", self.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("explain default/p: 0/3 nodes are available:", p.stdout)
        self.assertIn("needs 300m more cpu on 2 nodes", p.stdout)
        self.assertIn("NODE  VERDICT", p.stdout)

    def test_feasible_pod_shows_scores(self):
        path = self.path + ".2"
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List",
                       "items": [node("a", "2"), node("b", "4"), pod("p", "800m")]}, f)
        p = simlib.run("explain", "p", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("2/2 nodes are feasible.", p.stdout)
        self.assertIn("scores: weighted (raw/normalized)", p.stdout)
        self.assertIn("NodeResourcesFitx1", p.stdout)

    def test_capacity(self):
        path = self.path + ".3"
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List",
                       "items": [node("a", "2"), node("b", "1"), pod("filler", "1"),
                                 pod("web", "500m")]}, f)
        p = simlib.run("capacity", "web", "--output", "json", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        # filler takes 1 CPU of a; 2 more CPUs hold four 500m replicas.
        self.assertEqual(doc["replicas"], 4)
        self.assertFalse(doc["capped"])
        self.assertEqual(sum(n["replicas"] for n in doc["nodes"]), 4)
        self.assertIn("0/2 nodes are available", doc["message"])
        p = simlib.run("capacity", "web", "--max-replicas", "2", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("capacity default/web: 2 more replicas fit (capped)", p.stdout)
        p = simlib.run("capacity", "web", "--max-replicas", "0", path)
        self.assertEqual(p.returncode, 2)
        self.assertIn("--max-replicas: want 1..100000", p.stderr)
        p = simlib.run("explain", "web", "--max-replicas", "2", path)
        self.assertEqual(p.returncode, 2)

    def test_bad_uses(self):
        for args, message in ((["explain"], "explain: want the pod"),
                              (["explain", "nope", self.path], "explain: no pending pod default/nope"),
                              (["explain", "bound", self.path], "explain: no pending pod default/bound"),
                              (["explain", "p", "--explain", "p", self.path], "are for the simulation")):
            p = simlib.run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(message, p.stderr, args)


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    unittest.main(argv=sys.argv[:1])
