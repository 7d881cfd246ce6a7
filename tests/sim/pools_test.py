#!/usr/bin/env python3
"""schedsim's per-pool utilization: --pool-label picks the label whose values
are the pools, the default is the first well-known pool label a node has,
and the table and JSON report the engine's requests (sched_engine_nodes)
before and after the run.

    pools_test.py SCHEDSIM GOLDEN_CASES_DIR
"""

import json
import os
import sys
import tempfile
import unittest

import simlib

CASES = None


def node(name, labels, cpu="4", extra=None):
    alloc = {"cpu": cpu, "memory": "8Gi", "pods": "110", **(extra or {})}
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels},
            "status": {"allocatable": alloc}}


def pod(name, cpu, node_name=None, init_cpu=None):
    spec = {"containers": [{"name": "c", "image": "busybox",
                            "resources": {"requests": {"cpu": cpu}}}]}
    if init_cpu:
        spec["initContainers"] = [{"name": "i", "image": "busybox",
                                   "resources": {"requests": {"cpu": init_cpu}}}]
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


class Pools(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, items):
        path = os.path.join(self.tmp.name, "cluster.json")
        with open(path, "w") as f:
            json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
        return path

    def pools(self, *args):
        u = simlib.run_json(self, *args)["utilization"]
        return u["poolLabel"], {p["pool"]: p for p in u["pools"]}

    def test_pool_label_flag_groups_by_that_label(self):
        cases = os.path.join(CASES, "pools", "input.yaml")
        label, pools = self.pools("--pool-label", "node.kubernetes.io/instance-type", cases)
        self.assertEqual(label, "node.kubernetes.io/instance-type")
        self.assertEqual({k: p["nodes"] for k, p in pools.items()},
                         {"e2-standard-4": 2, "a2-highgpu-1g": 1, "e2-small": 1})
        # The default is GKE's node pool label, which x1 lacks.
        label, pools = self.pools(cases)
        self.assertEqual(label, "cloud.google.com/gke-nodepool")
        self.assertEqual(list(pools), ["general", "gpu", "(none)"])
        # A label no node has: every node is in "(none)".
        label, pools = self.pools("--pool-label=example.com/pool", cases)
        self.assertEqual((label, list(pools)), ("example.com/pool", ["(none)"]))
        self.assertEqual(pools["(none)"]["nodes"], 4)

    def test_requests_are_the_engines(self):
        # The bound pod's init container asks for more than its container:
        # the node holds 2 cpu of it (PodRequests), not 500m.
        path = self.write([node("n1", {"karpenter.sh/nodepool": "p"}),
                           node("n2", {}, cpu="2"),
                           pod("bound", "500m", "n1", init_cpu="2"), pod("new", "1")])
        label, pools = self.pools(path)
        self.assertEqual(label, "karpenter.sh/nodepool")
        self.assertEqual(pools["p"]["before"]["cpu"],
                         {"requested": 2000, "allocatable": 4000, "percent": 50.0})
        total = sum(p["after"]["cpu"]["requested"] for p in pools.values())
        self.assertEqual(total, 3000)
        # No well-known label at all: one pool of every node.
        path = self.write([node("n1", {}), pod("bound", "1", "n1")])
        label, pools = self.pools(path)
        self.assertEqual((label, list(pools)), (None, ["(all)"]))
        self.assertEqual(pools["(all)"]["after"]["pods"],
                         {"requested": 1, "allocatable": 110, "percent": 0.9})

    def test_table(self):
        p = simlib.run("--seed", "1", os.path.join(CASES, "pools", "input.yaml"))
        self.assertEqual(p.returncode, 0, p.stderr)
        lines = p.stdout.splitlines()
        start = lines.index("utilization by cloud.google.com/gke-nodepool, "
                            "requested/allocatable:")
        self.assertEqual(lines[start + 1].split(),
                         ["POOL", "NODES", "RESOURCE", "BEFORE", "AFTER"])
        self.assertIn("gpu      1      hugepages-2Mi   0Mi/1024Mi (0.0%)  512Mi/1024Mi (50.0%)",
                      lines)
        self.assertIn("general  2      cpu             500m/8000m (6.3%)  2500m/8000m (31.3%)",
                      lines)

    def test_bad_flag(self):
        p = simlib.run("--pool-label", "", os.path.join(CASES, "pools", "input.yaml"))
        self.assertEqual(p.returncode, 2)
        self.assertIn("--pool-label: want a node label key", p.stderr)


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    CASES = sys.argv[2]
    unittest.main(argv=sys.argv[:1])
