#!/usr/bin/env python3
"""schedsim on bad input: a clear error naming the file and field, exit
status 2, never a crash; unknown kinds are accepted and counted.

    bad_input_test.py SCHEDSIM
"""

import json
import os
import sys
import tempfile
import unittest

import simlib

NODE = {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
        "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def pod(name="p", **spec):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"containers": [{"name": "c", "image": "busybox"}], **spec}}


class BadInput(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, content):
        path = os.path.join(self.tmp.name, name)
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(path, mode) as f:
            f.write(content if isinstance(content, (str, bytes)) else json.dumps(content))
        return path

    def assertRejected(self, args, *needles):
        """Exit status 2 and one "schedsim: ..." message containing needles."""
        p = simlib.run(*args)
        self.assertEqual(p.returncode, 2, f"stdout={p.stdout!r} stderr={p.stderr!r}")
        self.assertEqual(p.stdout, "")
        self.assertTrue(p.stderr.startswith("schedsim: "), p.stderr)
        for needle in needles:
            self.assertIn(needle, p.stderr)
        return p.stderr

    def rejected_file(self, name, content, *needles):
        path = self.write(name, content)
        return self.assertRejected([path], path, *needles)

    def test_malformed_json(self):
        self.rejected_file("bad.json", '{"kind": "Node",\n "metadata": {', "bad.json:2:14:",
                           "invalid JSON: the object starting here is unclosed")
        self.rejected_file("comma.json", '{"kind": "Node",\n "metadata": {"name": "x",}}',
                           "comma.json:2:28: invalid JSON: unexpected '}' (a missing comma")

    def test_malformed_yaml(self):
        self.rejected_file("bad.yaml", "kind: Pod\nmetadata: [name, \n", "invalid YAML")

    def test_duplicate_yaml_key(self):
        self.rejected_file("dup.yaml", "kind: Pod\nmetadata:\n  name: a\n  name: b\n",
                           "document 1: metadata.name: duplicate key")

    def test_missing_kind(self):
        self.rejected_file("nokind.json", {"items": [NODE, {"metadata": {"name": "x"}}], "kind": "List"},
                           "items[1].kind: missing")

    def test_wrong_type_read_by_simulator(self):
        deploy = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"},
                  "spec": {"replicas": "three", "template": {"spec": {"containers": []}}}}
        self.rejected_file("deploy.json", deploy, "spec.replicas: must be an integer, got a string")

    def test_wrong_type_read_by_engine(self):
        self.rejected_file("pods.json", [NODE, pod(containers={"name": "c"})], "[1].spec.containers")

    def test_wrong_type_of_priority(self):
        self.rejected_file("prio.json", pod(priority="high"), "spec.priority: must be an integer")

    def test_bad_timestamp(self):
        p = pod()
        p["metadata"]["creationTimestamp"] = "yesterday"
        self.rejected_file("ts.json", p, "metadata.creationTimestamp: must be an RFC 3339 time")

    def test_bad_quantity_in_pending_pod(self):
        p = pod()
        p["spec"]["containers"][0]["resources"] = {"requests": {"cpu": "12 cores"}}
        self.rejected_file("q.json", [NODE, p], "[1].spec.containers[0].resources.requests.cpu")

    def test_bad_quantity_in_node_list(self):
        node = json.loads(json.dumps(NODE))
        node["metadata"]["name"] = "n2"
        node["status"]["allocatable"]["memory"] = "lots"
        self.rejected_file("nodes.json", {"kind": "List", "items": [NODE, node]},
                           "items[1].status.allocatable.memory")

    def test_bad_quantity_in_workload_template(self):
        yaml = """apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: db
        image: postgres
        resources: {requests: {memory: 1.5.3Gi}}
"""
        self.rejected_file("sts.yaml", yaml,
                           "document 1: spec.template.spec.containers[0].resources.requests.memory")

    def test_nonexistent_file(self):
        missing = os.path.join(self.tmp.name, "nope.json")
        self.assertRejected([missing], missing, "cannot read")

    def test_binary_garbage(self):
        self.rejected_file("junk.bin", bytes(range(256)) * 4)

    def test_alias_bomb(self):
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        lines += [f"a{i}: &a{i} [*a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, *a{i-1}, "
                  f"*a{i-1}, *a{i-1}, *a{i-1}]" for i in range(1, 9)]
        self.rejected_file("bomb.yaml", "kind: ConfigMap\n" + "\n".join(lines) + "\n",
                           "too many alias expansions")

    def test_deep_nesting(self):
        self.rejected_file("deep.json", '{"kind":"X","a":' + "[" * 5000 + "]" * 5000 + "}")
        self.rejected_file("deep.yaml", "kind: X\na: " + "[" * 5000 + "]" * 5000 + "\n")

    def test_bad_flags(self):
        self.assertRejected(["--output", "xml"], "--output")
        self.assertRejected(["--seed", "-1"], "--seed")
        self.assertRejected(["--seed"], "--seed: missing value")
        self.assertRejected(["--frobnicate"], "unknown flag --frobnicate")
        path = self.write("ok.json", [NODE, pod()])
        self.assertRejected(["--explain", "default/nope", path], "--explain", "default/nope")

    def test_unknown_kind_is_ignored(self):
        path = self.write("mixed.json", [NODE, {"apiVersion": "example.com/v1", "kind": "Frobnicator",
                                                "metadata": {"name": "f"}, "spec": 42}, pod()])
        out = simlib.run_json(self, path)
        self.assertEqual(out["ignored"], {"Frobnicator": 1})
        self.assertEqual(out["placements"], [{"pod": "default/p", "node": "n1"}])

    def test_empty_input(self):
        out = simlib.run_json(self, self.write("empty.yaml", "# nothing here\n"))
        self.assertEqual(out, {"placements": [], "unschedulable": [], "ignored": {},
                               "summary": {"nodes": 0, "boundPods": 0, "pending": 0,
                                           "placed": 0, "unschedulable": 0, "preemptions": 0},
                               "unschedulableReasons": [],
                               "utilization": {"poolLabel": None, "pools": []}})


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    unittest.main(argv=sys.argv[:1], verbosity=2)
