#!/usr/bin/env python3
"""schedsim imports kube-scheduler-simulator's export format (issue 16):
{"pods","nodes","pvs","pvcs","storageClasses","priorityClasses",
"schedulerConfig"}, objects without kind. The corpus samples (from
../shared/corpus/snapshots, skipped when absent) load with --config; their
own schedulerConfig names plugins v1.36 no longer has, and is refused as
kube-scheduler v1.36.3 would refuse it.

    simulator_export_test.py SCHEDSIM CORPUS_DIR
"""

import glob
import json
import os
import sys
import tempfile
import unittest

import simlib

CORPUS = None


class SimulatorExport(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, value):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            json.dump(value, f)
        return path

    def test_export_schedules_with_its_config(self):
        export = {
            "nodes": [{"metadata": {"name": f"n{i}"},
                       "status": {"allocatable": {"cpu": "2", "memory": "4Gi", "pods": "110"}}}
                      for i in range(2)],
            "pods": [{"metadata": {"name": "big", "namespace": "default"},
                      "spec": {"priorityClassName": "high",
                               "containers": [{"name": "c", "image": "i",
                                               "resources": {"requests": {"cpu": "1500m"}}}]}},
                     {"metadata": {"name": "small", "namespace": "default"},
                      "spec": {"schedulerName": "sim-scheduler", "containers": [{"name": "c", "image": "i",
                                               "resources": {"requests": {"cpu": "1"}}}]}},
                     {"metadata": {"name": "running", "namespace": "default"},
                      "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "i"}]}}],
            "pvs": [], "pvcs": [], "storageClasses": [],
            "priorityClasses": [{"metadata": {"name": "high"}, "value": 100}],
            # Its one profile serves sim-scheduler only: big is left to the
            # default scheduler. leaderElection is ignored (stderr says so).
            "schedulerConfig": {
                "leaderElection": {"leaderElect": True},
                "profiles": [{"schedulerName": "sim-scheduler"}]},
        }
        path = self.write("export.json", export)
        p = simlib.run("--output", "json", "--seed", "1", path)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("schedulerConfig: ignored (no effect on placement): leaderElection", p.stderr)
        out = json.loads(p.stdout)
        self.assertEqual(out["summary"]["nodes"], 2)
        self.assertEqual(out["summary"]["boundPods"], 1)
        self.assertEqual([x["pod"] for x in out["placements"]], ["default/small"])
        self.assertEqual(out["otherSchedulers"], {"default-scheduler": 1})
        # --config replaces the export's.
        out = simlib.run_json(self, "--config", self.write("c.json", {}), path)
        self.assertEqual(len(out["placements"]), 1)
        self.assertEqual(out["otherSchedulers"], {"sim-scheduler": 1})

    def test_bad_list(self):
        p = simlib.run(self.write("bad.json", {"pods": {"not": "a list"}}))
        self.assertEqual(p.returncode, 2)
        self.assertIn("bad.json: pods: must be an array", p.stderr)

    def test_corpus_samples(self):
        samples = sorted(glob.glob(os.path.join(CORPUS, "snapshots",
                                                "kube-scheduler-simulator__*.json")))
        if not samples:
            self.skipTest(f"no samples under {CORPUS}")
        config = self.write("config.json", {"kind": "KubeSchedulerConfiguration"})
        for sample in samples:
            with self.subTest(sample=os.path.basename(sample)):
                out = simlib.run_json(self, "--config", config, sample)
                with open(sample) as f:
                    pods = json.load(f)["pods"]
                self.assertEqual(out["summary"]["pending"],
                                 sum(1 for q in pods if not q["spec"].get("nodeName")))
                p = simlib.run(sample)
                self.assertEqual(p.returncode, 2)
                self.assertIn('schedulerConfig: profiles[0].plugins.filter.enabled[7].name: '
                              'plugin "EBSLimits" does not exist', p.stderr)


if __name__ == "__main__":
    simlib.SCHEDSIM, CORPUS = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
