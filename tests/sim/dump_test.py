#!/usr/bin/env python3
"""schedsim on real-shaped cluster dumps (issue 16): what the engine never
reads (managedFields, annotations, status fields) changes nothing, and the
input reaches the engine in bounded batches, so a dump over the engine's
per-document limits (256 MiB, 200,000 items) loads.

    dump_test.py SCHEDSIM GEN_DUMP

SCHEDSIM_BIG_DUMP=1 adds a 280 MB dump (100 nodes, 25,000 pods with an
11 KB annotation each): minutes, so not in CI; bench/sim_dump/run.sh is the
1 GB one.
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import simlib

GEN = None


def gen(path, *args):
    subprocess.run([sys.executable, GEN, *args, path], check=True)


def bare(obj):
    """`obj` with only what the engine reads (docs/api.md, "Kinds")."""
    obj = json.loads(json.dumps(obj))
    meta = obj["metadata"]
    meta.pop("managedFields", None)
    meta.pop("annotations", None)
    status = obj.get("status", {})
    keep = {"Pod": {"phase", "startTime", "conditions", "containerStatuses"},
            "Node": {"allocatable", "images"}}[obj["kind"]]
    obj["status"] = {k: v for k, v in status.items() if k in keep}
    return obj


class Dumps(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def test_unread_fields_change_nothing_and_batches_agree(self):
        dump = self.path("dump.json")
        gen(dump, "--nodes", "20", "--pods", "2000", "--pending", "300",
            "--annotation-bytes", "11000")
        with open(dump) as f:
            items = json.load(f)["items"]
        self.assertGreater(len(json.dumps(items[-1])), 11000)
        stripped = self.path("stripped.json")
        with open(stripped, "w") as f:
            json.dump({"kind": "List", "items": [bare(o) for o in items]}, f)
        want = simlib.run_json(self, "--seed", "3", stripped)
        self.assertEqual(len(want["placements"]) + len(want["unschedulable"]), 300)
        self.assertEqual(want["summary"]["boundPods"], 1700)
        for args in ([], ["--batch-bytes", "50000"], ["--batch-bytes", "1"]):
            with self.subTest(args=args):
                got = simlib.run_json(self, "--seed", "3", *args, dump)
                self.assertEqual(got, want)

    def test_more_items_than_one_document_may_hold(self):
        # 205,000 objects: over the engine's 200,000 items per document.
        items = [{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"},
                  "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}]
        items += [{"apiVersion": "v1", "kind": "ConfigMap",
                   "metadata": {"name": f"c{i}", "namespace": "default"}}
                  for i in range(205000)]
        items.append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                      "spec": {"containers": [{"name": "c", "image": "i"}]}})
        dump = self.path("many.json")
        with open(dump, "w") as f:
            json.dump({"kind": "List", "items": items}, f)
        out = simlib.run_json(self, dump)
        self.assertEqual(out["placements"], [{"pod": "default/p", "node": "n1"}])
        self.assertEqual(out["ignored"], {"ConfigMap": 205000})

    @unittest.skipUnless(os.environ.get("SCHEDSIM_BIG_DUMP"), "SCHEDSIM_BIG_DUMP=1 to run")
    def test_over_the_document_byte_limit(self):
        dump = self.path("big.json")
        gen(dump, "--nodes", "100", "--pods", "25000", "--pending", "100",
            "--annotation-bytes", "11000")
        self.assertGreater(os.path.getsize(dump), 256 << 20)
        out = simlib.run_json(self, dump)
        self.assertEqual(out["summary"]["boundPods"], 24900)


if __name__ == "__main__":
    simlib.SCHEDSIM, GEN = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
