#!/usr/bin/env python3
"""`schedsim scale-up --template FILE`: after the run, the pods it left
pending are estimated onto new nodes of the template
(sched_engine_scale_up); the JSON output is the scale-up document, the
table shows the new nodes, the pending reasons and the pods no template
helps; bad uses exit 2.

    scale_up_subcommand_test.py SCHEDSIM
"""

import json
import os
import sys
import tempfile
import unittest

import simlib


def node(name, cpu, labels=None):
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": labels or {}},
            "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"}}}


def pod(name, cpu, selector=None):
    spec = {"containers": [{"name": "c", "image": "busybox",
                            "resources": {"requests": {"cpu": cpu}}}]}
    if selector:
        spec["nodeSelector"] = selector
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


class ScaleUp(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        # a (2 CPUs) takes two of the six 1-CPU pods in the run; four stay
        # pending, and so does the pod selecting gpu=yes.
        self.path = os.path.join(tmp.name, "cluster.json")
        items = [node("a", "2")] + [pod("web-%d" % i, "1") for i in range(6)]
        items.append(pod("gpu", "1", {"gpu": "yes"}))
        with open(self.path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
        # The template in YAML, allocatable from capacity.
        self.template = os.path.join(tmp.name, "pool.yaml")
        with open(self.template, "w") as f:
            f.write("apiVersion: v1\nkind: Node\nmetadata:\n  name: pool\n"
                    "status:\n  capacity:\n    cpu: \"3\"\n    memory: 8Gi\n    pods: \"110\"\n")

    def test_json_is_the_scale_up_document(self):
        p = simlib.run("scale-up", "--template", self.template, "--output", "json", self.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        self.assertEqual(doc["existing"], [])
        t = doc["templates"][0]
        self.assertEqual(t["template"], "pool")
        # Four 1-CPU pods on 3-CPU nodes: two nodes (3 + 1).
        self.assertEqual(t["nodes"], 2)
        self.assertEqual([n["pods"] for n in t["newNodes"]], [3, 1])
        self.assertEqual(len(t["placements"]), 4)
        self.assertEqual(doc["unhelped"][0]["pod"], "default/gpu")
        self.assertIn("didn't match Pod's node affinity/selector",
                      doc["unhelped"][0]["reasons"][0]["message"])

    def test_table_and_max_nodes(self):
        p = simlib.run("scale-up", "--template", self.template, "--max-nodes", "1", self.path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("template pool: 1 new nodes for 3 pods", p.stdout)
        self.assertIn("MaxNodes", p.stdout)
        self.assertIn("no template helps:", p.stdout)
        self.assertIn("default/gpu", p.stdout)

    def test_bad_uses(self):
        bad = self.template + ".bad.json"
        with open(bad, "w") as f:
            json.dump(pod("x", "1"), f)
        for args, message in ((["scale-up", self.path], "scale-up: want at least one --template"),
                              (["scale-up", "--template", self.template, "--max-nodes", "0",
                                self.path], "--max-nodes: want 1..10000"),
                              (["scale-up", "--template", bad, self.path], "want Node"),
                              (["--template", self.template, self.path], "unknown flag --template")):
            p = simlib.run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(message, p.stderr, args)


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    unittest.main(argv=sys.argv[:1])
