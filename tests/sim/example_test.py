#!/usr/bin/env python3
"""schedsim with no FILE runs the bundled example cluster, places most pods
and explains the rest; the committed files match examples/generate.py; the
table, --explain and --help outputs.

    example_test.py SCHEDSIM EXAMPLES_DIR
"""

import collections
import filecmp
import json
import os
import re
import sys
import tempfile
import unittest
from pathlib import Path

import simlib

EXAMPLES = None


def generator():
    sys.path.insert(0, EXAMPLES)
    import generate
    return generate


class BundledExample(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        p = simlib.run("--output", "json", "--seed", "1")
        assert p.returncode == 0, p.stderr
        cls.out = json.loads(p.stdout)
        cls.where = {p["pod"]: p["node"] for p in cls.out["placements"]}
        cls.why = {u["pod"]: u["message"] for u in cls.out["unschedulable"]}

    def test_committed_files_are_generated(self):
        with tempfile.TemporaryDirectory() as tmp:
            generator().main(Path(tmp))
            names = ["nodes.json", "bound-pods.json", "workloads.yaml"]
            match, mismatch, errors = filecmp.cmpfiles(os.path.join(EXAMPLES, "cluster"), tmp, names,
                                                       shallow=False)
            self.assertEqual(match, names, "run python3 examples/generate.py")

    def test_every_pod_reported_once(self):
        gen = generator()
        objects = [o for _, o in gen.workload_objects()]
        with open(os.path.join(EXAMPLES, "cluster", "nodes.json")) as f:
            objects += simlib.flatten(json.load(f))
        simlib.Expected(objects).check(self, self.out)

    def test_places_most_pods(self):
        self.assertGreater(len(self.where), 4 * len(self.why))
        self.assertGreater(len(self.why), 0)

    def test_placements_follow_the_rules(self):
        def pool(node):
            return node.rsplit("-", 2)[0]
        # The workload of a pod: name-<ordinal>, name-<hash>-<suffix> or name-<suffix>.
        owner = re.compile(rf"(.*?)-(\d+|{simlib.SAFE}{{6,10}}-{simlib.SUFFIX}|{simlib.SUFFIX})")
        by_app = collections.defaultdict(set)
        for pod, node in self.where.items():
            if m := owner.fullmatch(pod.split("/")[1]):
                by_app[m.group(1)].add(pool(node))
        self.assertEqual(by_app["postgres"], {"highmem"})        # required affinity In
        self.assertEqual(by_app["api"], {"arm"})                 # nodeSelector
        self.assertEqual(by_app["checkout"], {"arm"})
        self.assertEqual(by_app["train-resnet"], {"gpu"})        # toleration + nvidia.com/gpu
        self.assertEqual(by_app["cluster-autoscaler"], {"cp"})   # control-plane toleration
        self.assertEqual(by_app["log-shipper"], {"small"})
        self.assertEqual(self.where["default/debug-general-b-002"], "general-b-002")  # matchFields
        self.assertEqual(pool(self.where["default/avx512-bench"]), "gpu")             # Gt
        cordoned = {"general-a-007", "general-b-019", "general-c-031", "highmem-b-004"}
        self.assertFalse(cordoned & set(self.where.values()))

    def test_inter_pod_affinity(self):
        def zone(node):
            return node.rsplit("-", 2)[1]
        def nodes_of(prefix):
            return [n for p, n in self.where.items() if p.startswith(prefix)]
        cache = nodes_of("shop/cache-")
        self.assertEqual(len(cache), 8)
        self.assertEqual(len(set(cache)), 8)                       # required anti-affinity
        self.assertLessEqual(set(cache), set(nodes_of("shop/web-")))  # preferred affinity
        self.assertEqual(sorted(zone(n) for n in nodes_of("shop/zk-")), ["a", "b", "c"])
        self.assertIn("didn't match pod anti-affinity rules", self.why["shop/zk-3"])
        # namespaceSelector: a zone where a postgres pod of namespace shop runs.
        self.assertIn(zone(self.where["monitoring/pg-backup"]),
                      {zone(n) for n in nodes_of("shop/postgres-")})

    def test_topology_spread(self):
        def spread(app):
            zones, hosts = collections.Counter(), collections.Counter()
            for pod, node in self.where.items():
                if pod.startswith(f"shop/{app}-"):
                    zones[node.rsplit("-", 2)[1]] += 1
                    hosts[node] += 1
            return zones, hosts
        zones, _ = spread("storefront")                           # DoNotSchedule by zone, maxSkew 1
        self.assertEqual(sum(zones.values()), 7)
        self.assertLessEqual(max(zones.values()) - min(zones.values()), 1)
        zones, hosts = spread("catalog")                          # system defaults via the Service
        self.assertEqual(len(hosts), 6)
        zones, _ = spread("quorum")                               # minDomains 4 > 3 zones
        self.assertEqual(zones, {"a": 1, "b": 1, "c": 1})
        stuck = [m for p, m in self.why.items() if p.startswith("shop/quorum-")]
        self.assertEqual(len(stuck), 1)
        self.assertIn("29 node(s) didn't match pod topology spread constraints", stuck[0])

    def test_volumes(self):
        # Each local PV is bound to the first claim placed on its node.
        self.assertEqual({self.where["shop/kafka-0"], self.where["shop/kafka-1"]},
                         {"general-a-010", "general-b-010"})
        self.assertIn("node(s) didn't find available persistent volumes to bind",
                      self.why["shop/kafka-2"])
        self.assertEqual(self.where["batch/reports-0"], "general-c-020")
        self.assertIn("1 node(s) had no available disk", self.why["batch/reports-1"])

    def test_preemption(self):
        # fraud-inference (critical-apps, zone c only) finds every GPU of zone c
        # held by low-priority gpu-burst pods: each replica evicts one and is
        # placed where it evicted it.
        with open(os.path.join(EXAMPLES, "cluster", "bound-pods.json")) as f:
            bound = {f'{p["metadata"]["namespace"]}/{p["metadata"]["name"]}': p["spec"]["nodeName"]
                     for p in json.load(f)["items"]}
        preemptions = self.out["preemptions"]
        self.assertEqual(len(preemptions), 3)
        victims = set()
        for p in preemptions:
            self.assertRegex(p["pod"], rf"ml/fraud-inference-[a-z0-9]+-{simlib.SUFFIX}")
            node = p["nominatedNodeName"]
            self.assertRegex(node, r"^gpu-c-\d{3}$")
            self.assertEqual(self.where[p["pod"]], node)
            self.assertEqual(len(p["victims"]), 1, p)
            self.assertRegex(p["victims"][0], rf"ml/gpu-burst-{simlib.SUFFIX}")
            self.assertEqual(bound[p["victims"][0]], node)
            victims.update(p["victims"])
        self.assertEqual(len(victims), 3)
        # train-resnet (priority 0) fits in zones a and b: no preemption.
        self.assertEqual({n.rsplit("-", 2)[1] for p, n in self.where.items()
                          if p.startswith("ml/train-resnet-")}, {"a", "b"})

    def test_unschedulable_reasons(self):
        def reasons(pod):
            return self.why[pod]
        self.assertIn("Insufficient cpu", reasons("default/render-farm"))
        self.assertIn("4 node(s) were unschedulable", reasons("default/render-farm"))
        self.assertIn("didn't match Pod's node affinity/selector", reasons("default/zone-d-only"))
        self.assertIn("Insufficient ephemeral-storage", reasons("default/video-transcode"))
        notebook = reasons("ml/notebook")
        self.assertIn("27 node(s) had untolerated taint(s)", notebook)  # GPU and control plane
        self.assertIn("Insufficient nvidia.com/gpu", notebook)
        messages = "\n".join(self.why.values())
        self.assertIn("didn't have free ports for the requested pod ports", messages)  # metrics-agent
        self.assertIn("Too many pods", messages)                                         # log-shipper
        self.assertTrue(any(p.startswith("ml/train-llm-") for p in self.why))
        self.assertTrue(any(p.startswith("batch/batch-fill-") for p in self.why))


class HumanOutput(unittest.TestCase):
    def test_table(self):
        p = simlib.run("--seed", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, "")  # not a terminal: no progress line
        lines = p.stdout.splitlines()
        header = lines[0]
        self.assertRegex(header, r"^POD +NODE +MESSAGE$")
        node_col = header.index("NODE")
        rows = lines[1:lines.index("")]
        for row in rows:
            self.assertEqual(row[node_col - 2:node_col], "  ", row)
            self.assertNotEqual(row[node_col], " ", row)
        # Deterministic: the timing goes to stderr, and only on a terminal.
        self.assertRegex(p.stdout, r"\nplaced \d+, pending \d+\ncluster: 300 nodes, \d+ bound pods; "
                                   r"\d+ pods scheduled, 3 preemptions\n")
        self.assertNotIn("pods/s", p.stdout)
        # A repeated message is folded, and counted once below the rows.
        self.assertTrue(any(r.endswith(" -              (same as ml/train-llm-" + r[-6:-1] + ")")
                            or "(same as " in r for r in rows))
        self.assertRegex(p.stdout, r"\nunschedulable, by message:\nPODS +MESSAGE\n\d+ +0/300 nodes")
        self.assertTrue(any(" - " in r and "0/300 nodes are available" in r for r in rows))
        self.assertEqual(len(re.findall(r"^preemption: ml/fraud-inference-\S+ nominated to gpu-c-\d+, "
                                        r"evicted ml/gpu-burst-\S+$", p.stdout, re.MULTILINE)), 3)

    def test_explain(self):
        p = simlib.run("--seed", "1", "--explain", "ml/notebook")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("explain ml/notebook: Unschedulable: 0/300 nodes are available", p.stdout)
        self.assertRegex(p.stdout, r"\ngpu-a-001 +TaintToleration +UnschedulableAndUnresolvable +"
                                   r"node\(s\) had untolerated taint\(s\)\n")
        p = simlib.run("--seed", "1", "--explain", "default/debug-general-b-002", "--output", "json")
        explain = json.loads(p.stdout)["explain"]
        self.assertEqual(explain["node"], "general-b-002")
        self.assertIn("nodeStatuses", explain)
        self.assertIn("scores", explain)

    def test_help(self):
        p = simlib.run("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("--explain NS/NAME", p.stdout)


if __name__ == "__main__":
    simlib.SCHEDSIM, EXAMPLES = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
