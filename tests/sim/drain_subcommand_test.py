#!/usr/bin/env python3
"""`schedsim drain NODE[,NODE...]`: after the run, whether those nodes can
be removed (sched_engine_drain): the JSON output is the drain document and
matches deleting the node and running its pods again as pending pods; the
table shows the verdict, the moves, PDB-blocked evictions and the
DaemonSet pods left; bad uses exit 2.

    drain_subcommand_test.py SCHEDSIM
"""

import json
import os
import sys
import tempfile
import unittest

import simlib


def node(name, cpu):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name},
            "status": {"allocatable": {"cpu": cpu, "memory": "8Gi", "pods": "110"}}}


def pod(name, cpu, node_name=None, labels=None):
    spec = {"containers": [{"name": "c", "image": "busybox",
                            "resources": {"requests": {"cpu": cpu}}}]}
    if node_name:
        spec["nodeName"] = node_name
    meta = {"name": name, "namespace": "default"}
    if labels:
        meta["labels"] = labels
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}


def pdb(allowed):
    return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": "web", "namespace": "default"},
            "spec": {"selector": {"matchLabels": {"app": "web"}}},
            "status": {"disruptionsAllowed": allowed}}


def daemonset():
    return {"apiVersion": "apps/v1", "kind": "DaemonSet",
            "metadata": {"name": "agent", "namespace": "default", "uid": "ds-1"},
            "spec": {"selector": {"matchLabels": {"app": "agent"}},
                     "template": {"metadata": {"labels": {"app": "agent"}},
                                  "spec": {"containers": [{"name": "c", "image": "agent"}]}}}}


class Drain(unittest.TestCase):
    def write(self, items):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = os.path.join(tmp.name, "cluster.json")
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
        return path

    def test_json_matches_running_the_pods_without_the_node(self):
        # a (2 CPUs) holds web-1 and web-2 (600m each); b has 1 CPU, c 500m:
        # one of them finds room on b, the other nowhere.
        items = [node("a", "2"), node("b", "1"), node("c", "500m"), daemonset(),
                 pod("web-1", "600m", "a", {"app": "web"}), pod("web-2", "600m", "a")]
        p = simlib.run("drain", "a", "--output", "json", self.write(items))
        self.assertEqual(p.returncode, 0, p.stderr)
        doc = json.loads(p.stdout)
        self.assertFalse(doc["removable"])
        self.assertEqual(doc["nodes"][0]["node"], "a")
        self.assertEqual((doc["nodes"][0]["moved"], doc["nodes"][0]["pending"]), (2, 1))
        self.assertEqual([l["reason"] for l in doc["left"]], ["DaemonSet"])
        # The slow path: node a gone, its pods pending.
        sim = simlib.run("--output", "json", self.write(
            [node("b", "1"), node("c", "500m"), pod("web-1", "600m"), pod("web-2", "600m")]))
        self.assertEqual(sim.returncode, 0, sim.stderr)
        out = json.loads(sim.stdout)
        want = {x["pod"]: x["node"] for x in out["placements"]}
        want.update({x["pod"]: None for x in out["unschedulable"]})
        self.assertEqual({m["pod"]: m["node"] for m in doc["pods"]}, want)
        self.assertEqual(want["default/web-1"], "b")

    def test_table_and_pdb(self):
        items = [node("a", "2"), node("b", "2"), pdb(0),
                 pod("web-1", "500m", "a", {"app": "web"})]
        p = simlib.run("drain", "a", self.write(items))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("drain: not removable", p.stdout)
        self.assertIn("eviction blocked by PDB default/web", p.stdout)
        self.assertIn("NODE  REMOVABLE", p.stdout)
        items[2] = pdb(1)
        p = simlib.run("drain", "a", self.write(items))
        self.assertIn("drain: removable", p.stdout)

    def test_bad_uses(self):
        path = self.write([node("a", "2")])
        for args, message in ((["drain"], "drain: want the nodes"),
                              (["drain", "a,,b", path], "drain: want NODE[,NODE...]"),
                              (["drain", "nope", path], "no node named \"nope\""),
                              (["drain", "a,a", path], "duplicate node name"),
                              (["drain", "a", "--max-replicas", "2", path], "unknown flag")):
            p = simlib.run(*args)
            self.assertEqual(p.returncode, 2, args)
            self.assertIn(message, p.stderr, args)


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    unittest.main(argv=sys.argv[:1])
