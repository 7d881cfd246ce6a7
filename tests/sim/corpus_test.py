#!/usr/bin/env python3
"""schedsim on the real objects of the shared corpus (see its SOURCES.md).

    corpus_test.py SCHEDSIM CORPUS_DIR

* nodes/ and workloads/ together, as one cluster;
* snapshots/openshift-insights-archive/, the real cluster it is;
* scheduler_perf/templates/ with {{.Index}} filled in, as generated clusters.
"""

import collections
import glob
import json
import os
import sys
import tempfile
import unittest

import simlib

CORPUS = None


def corpus_files(*parts):
    return sorted(glob.glob(os.path.join(CORPUS, *parts, "*.json")))


class RealObjects(unittest.TestCase):
    def test_nodes_and_workloads_as_one_cluster(self):
        files = corpus_files("nodes") + corpus_files("workloads")
        out = simlib.run_json(self, "--seed", "1", *files)
        expected = simlib.Expected(simlib.load(files))
        expected.check(self, out)
        self.assertTrue(out["placements"])
        # Services select peers for the default topology spread constraints.
        self.assertNotIn("Service", out["ignored"])
        # A gated pod waits in the queue and is never tried (SchedulingGates).
        self.assertIn({"pod": "default/test-pod",
                       "message": "waiting for scheduling gates: [example.com/foo example.com/bar]"},
                      out["unschedulable"])

    def test_openshift_insights_archive(self):
        folder = os.path.join(CORPUS, "snapshots", "openshift-insights-archive")
        out = simlib.run_json(self, "--seed", "1", folder)  # a directory argument
        expected = simlib.Expected(simlib.load(corpus_files("snapshots", "openshift-insights-archive")))
        expected.check(self, out)
        # router-default is the one pod without a node in the archive.
        self.assertEqual(expected.pending(), 1)


def instantiate(template, count, start=0, **metadata):
    """`count` copies of a scheduler_perf template, {{.Index}} = start.."""
    with open(os.path.join(CORPUS, "scheduler_perf", "templates", template + ".json")) as f:
        text = f.read()
    objects = []
    for i in range(start, start + count):
        o = json.loads(text.replace("{{.Index}}", str(i)))
        o["metadata"].update(metadata)
        objects.append(o)
    return objects


class GeneratedClusters(unittest.TestCase):
    def schedule(self, nodes, pods):
        with tempfile.TemporaryDirectory() as tmp:
            paths = []
            for name, items in (("nodes.json", nodes), ("pods.json", pods)):
                paths.append(os.path.join(tmp, name))
                with open(paths[-1], "w") as f:
                    json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)
            out = simlib.run_json(self, "--seed", "1", *paths)
        simlib.Expected(nodes + pods).check(self, out, num_nodes=len(nodes))
        return out

    @staticmethod
    def no_victims(n):
        """The PostFilter suffix (DynamicResources, DefaultPreemption) when no node has lower-priority pods."""
        return f" no new claims to deallocate, preemption: 0/{n} nodes are available: {n} No preemption victims found for incoming pod."

    @staticmethod
    def not_helpful(n):
        """The PostFilter suffix (DynamicResources, DefaultPreemption) when every node failed for good."""
        return f" no new claims to deallocate, preemption: 0/{n} nodes are available: {n} Preemption is not helpful for scheduling."

    def assertAllUnschedulable(self, out, message):
        self.assertEqual(out["placements"], [])
        self.assertEqual({u["message"] for u in out["unschedulable"]}, {message})

    def test_default_nodes_and_pods(self):
        out = self.schedule(instantiate("node-default", 50), instantiate("pod-default", 100))
        self.assertEqual(out["unschedulable"], [])
        # LeastAllocated spreads 100 small pods over all 50 nodes.
        self.assertEqual(len({p["node"] for p in out["placements"]}), 50)

    def test_taints_not_tolerated(self):
        out = self.schedule(instantiate("node-with-taint", 10),
                            instantiate("unschedulable-pod-taint-toleration", 20))
        self.assertAllUnschedulable(out, "0/10 nodes are available: 10 node(s) had untolerated taint(s)."
                                    + self.not_helpful(10))

    def test_extended_resource_per_node(self):
        # Pod i asks for foo.com/bar-i, which only node i has.
        out = self.schedule(instantiate("misc__node-with-extended-resource", 10),
                            instantiate("misc__pod-with-extended-resource", 10))
        self.assertEqual(out["unschedulable"], [])
        self.assertEqual(len({p["node"] for p in out["placements"]}), 10)

    def test_host_port_conflicts(self):
        out = self.schedule(instantiate("node-default", 5), instantiate("pod-hostport-80", 8))
        self.assertEqual(len({p["node"] for p in out["placements"]}), 5)
        self.assertEqual([u["message"] for u in out["unschedulable"]], 3 * [
            "0/5 nodes are available: 5 node(s) didn't have free ports for the requested pod ports."
            + self.no_victims(5)])

    def test_cpu_runs_out(self):
        out = self.schedule(instantiate("node-default", 10), instantiate("pod-high-priority", 15))
        self.assertEqual(len(out["placements"]), 10)
        self.assertEqual({u["message"] for u in out["unschedulable"]},
                         {"0/10 nodes are available: 10 Insufficient cpu." + self.no_victims(10)})

    def test_priority_goes_first(self):
        # Listed last, the high-priority pods (3 cpu) still get the room;
        # then only one low-priority pod (900m) fits beside each.
        out = self.schedule(instantiate("node-default", 2),
                            instantiate("pod-low-priority", 4)
                            + instantiate("pod-high-priority", 2, generateName="high-"))
        placed = [p["pod"] for p in out["placements"]]
        self.assertEqual([p.startswith("default/high-") for p in placed], [True, True, False, False])
        self.assertEqual([u["message"] for u in out["unschedulable"]],
                         2 * ["0/2 nodes are available: 2 Insufficient cpu." + self.no_victims(2)])

    def test_node_affinity_matches_no_node(self):
        out = self.schedule(instantiate("node-default", 3), instantiate("pod-with-node-affinity", 2))
        self.assertAllUnschedulable(
            out, "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector."
            + self.not_helpful(3))

    def test_no_pod_slots(self):
        out = self.schedule(instantiate("churn__node-default", 3), instantiate("light-pod", 2))
        self.assertAllUnschedulable(out, "0/3 nodes are available: 3 Too many pods." + self.no_victims(3))

    def test_match_fields_pins_to_named_node(self):
        out = self.schedule(instantiate("node-with-name", 1) + instantiate("node-default", 3),
                            instantiate("daemonset-pod", 20))
        self.assertEqual(collections.Counter(p["node"] for p in out["placements"]),
                         {"scheduler-perf-node": 20})


if __name__ == "__main__":
    simlib.SCHEDSIM, CORPUS = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(CORPUS, "scheduler_perf")):
        sys.exit(f"corpus not found at {CORPUS}: check out shared/ beside the repository")
    unittest.main(argv=sys.argv[:1], verbosity=2)
