#!/usr/bin/env python3
"""schedsim --config: a KubeSchedulerConfiguration (JSON or YAML) or a legacy
Policy changes the decisions; a bad config is an input error naming the file
and field.

    config_test.py SCHEDSIM EXAMPLES_DIR
"""

import json
import os
import sys
import tempfile
import unittest

import simlib

EXAMPLES = None


def node(name, labels=None):
    return {"apiVersion": "v1", "kind": "Node", "metadata": {"name": name, "labels": labels or {}},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}


def pod(name, cpu, node_name=None, scheduler=None):
    spec = {"containers": [{"name": "c", "image": "busybox",
                            "resources": {"requests": {"cpu": cpu}}}]}
    if node_name:
        spec["nodeName"] = node_name
    if scheduler:
        spec["schedulerName"] = scheduler
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": "default"},
            "spec": spec}


# The default profile spreads p to the empty node; preferring the ssd label
# packs it next to the busy pod.
CLUSTER = {"apiVersion": "v1", "kind": "List", "items": [
    node("ssd", {"disk-ssd": "true"}), node("plain"), pod("busy", "3", "ssd"), pod("p", "1")]}

POLICY = {"kind": "Policy", "apiVersion": "v1",
          "predicates": [{"name": "GeneralPredicates"}],
          "priorities": [{"name": "LeastRequestedPriority", "weight": 1},
                         {"name": "PreferSSD", "weight": 2, "argument": {
                             "labelPreference": {"label": "disk-ssd", "presence": True}}}]}

CONFIG_YAML = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    multiPoint:
      enabled:
      - name: NodeLabel
        weight: 5
  pluginConfig:
  - name: NodeLabel
    args:
      presentLabelsPreference: [disk-ssd]
"""


class Config(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.cluster = self.write("cluster.json", json.dumps(CLUSTER))

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def placement(self, *config_args):
        out = simlib.run_json(self, *config_args, self.cluster)
        return {p["pod"]: p["node"] for p in out["placements"]}

    def test_default_profile_spreads(self):
        self.assertEqual(self.placement(), {"default/p": "plain"})

    def test_policy_packs(self):
        path = self.write("policy.json", json.dumps(POLICY))
        self.assertEqual(self.placement("--config", path), {"default/p": "ssd"})

    def test_kube_scheduler_configuration_yaml(self):
        path = self.write("config.yaml", CONFIG_YAML)
        self.assertEqual(self.placement("--config", path), {"default/p": "ssd"})

    def test_fields_without_effect_on_placement_are_ignored(self):
        path = self.write("full.yaml", CONFIG_YAML + """leaderElection: {leaderElect: true}
clientConnection: {kubeconfig: /etc/kubernetes/scheduler.conf, qps: 50}
enableProfiling: true
enableContentionProfiling: false
""")
        p = simlib.run("--output", "json", "--config", path, self.cluster)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stderr, f"schedsim: {path}: ignored (no effect on placement): "
                                   "leaderElection, clientConnection, enableProfiling, "
                                   "enableContentionProfiling\n")
        self.assertEqual(json.loads(p.stdout)["placements"], [{"pod": "default/p", "node": "ssd"}])
        # What does affect placement stays the engine's to check, strictly.
        p = simlib.run("--config", self.write("typo.yaml", CONFIG_YAML + "parallelizm: 4\n"),
                       self.cluster)
        self.assertEqual(p.returncode, 2)
        self.assertIn("parallelizm: unknown field", p.stderr)

    def test_profiles_choose_the_pods(self):
        # Only pods for a configured profile are scheduled.
        cluster = dict(CLUSTER, items=CLUSTER["items"] + [pod("q", "1", scheduler="batch")])
        self.cluster = self.write("cluster2.json", json.dumps(cluster))
        config = self.write("profiles.json", json.dumps(
            {"profiles": [{"schedulerName": "batch"}]}))
        self.assertEqual(self.placement("--config", config), {"default/q": "plain"})

    def test_seeds_policy_file(self):
        # The seeds' Policy requires a rack label no example node has, and
        # checks all predicates: every pod reports that reason with others.
        path = os.path.join(EXAMPLES, "policy", "seeds-policy.json")
        out = simlib.run_json(self, "--config", path, os.path.join(EXAMPLES, "cluster"))
        self.assertEqual(out["placements"], [])
        self.assertTrue(out["unschedulable"])
        for u in out["unschedulable"]:
            self.assertIn("node(s) didn't have the requested labels", u["message"])
        self.assertTrue(any("Insufficient" in u["message"] for u in out["unschedulable"]))

    def test_kube_scheduler_fork_configs(self):
        # The fork's own files: a profile enabling LibSched is this engine
        # under its schedulerName ("libsched"); pods for default-scheduler
        # are another scheduler's there.
        cluster = dict(CLUSTER, items=CLUSTER["items"] + [pod("q", "1", scheduler="libsched")])
        self.cluster = self.write("cluster-libsched.json", json.dumps(cluster))
        fork = os.path.join(os.path.dirname(EXAMPLES), "kube-scheduler", "examples")
        for name, mode in (("config.yaml", "Plugin"), ("config-algorithm.yaml", "Algorithm")):
            path = os.path.join(fork, name)
            p = simlib.run("--output", "json", "--config", path, self.cluster)
            self.assertEqual(p.returncode, 0, p.stderr)
            out = json.loads(p.stdout)
            self.assertEqual(out["placements"], [{"pod": "default/q", "node": "plain"}], name)
            self.assertEqual(out["otherSchedulers"], {"default-scheduler": 1}, name)
            self.assertIn(f"schedsim: {path}: profiles[0] (libsched): LibSched (mode {mode}) is "
                          "this engine, running LibSched's args.plugins (the defaults when "
                          "absent); not used: its plugins (what upstream runs around "
                          "LibSched)\n", p.stderr)

    def libsched_profile(self, mode, args=None, plugin_config=(), disabled=("*",), **profile):
        enabled = [{"name": "LibSched"}] + (
            [{"name": "PrioritySort"}] if mode == "Algorithm" else [])
        return {"profiles": [dict(profile, schedulerName="default-scheduler", plugins={
            "multiPoint": {"enabled": enabled, "disabled": [{"name": n} for n in disabled]}},
            pluginConfig=list(plugin_config) + [
                {"name": "LibSched", "args": dict(args or {}, mode=mode)}])]}

    def test_libsched_args_plugins_and_plugin_config_reach_the_engine(self):
        # args.plugins are the engine's plugins: NodeLabel preferring the
        # ssd label packs p next to the busy pod, as CONFIG_YAML's profile.
        plugins = {"multiPoint": {"enabled": [{"name": "NodeLabel", "weight": 5}]}}
        node_label = {"name": "NodeLabel", "args": {"presentLabelsPreference": ["disk-ssd"]}}
        for mode in ("Plugin", "Algorithm"):
            config = self.libsched_profile(mode, {"plugins": plugins}, [node_label])
            path = self.write("libsched.json", json.dumps(config))
            self.assertEqual(self.placement("--config", path), {"default/p": "ssd"}, mode)
        # In Plugin mode the args of a plugin the profile leaves to upstream
        # (not disabled there) stay upstream's, as in the fork: NodeLabel
        # runs in the engine without them, preferring nothing.
        config = self.libsched_profile("Plugin", {"plugins": plugins}, [node_label],
                                       disabled=("NodeResourcesFit",))
        path = self.write("plugin-mode.json", json.dumps(config))
        p = simlib.run("--output", "json", "--config", path, self.cluster)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout)["placements"], [{"pod": "default/p", "node": "plain"}])
        self.assertIn("not used: its plugins (what upstream runs around LibSched), "
                      "pluginConfig of NodeLabel (upstream runs it)", p.stderr)

    def test_libsched_args_the_fork_refuses(self):
        for args, field, want in (
                ({"mode": "Whole"}, "args.mode", 'unsupported value "Whole"'),
                ({"percentageOfNodesToScore": 101}, "args.percentageOfNodesToScore", ""),
                ({"seed": -1}, "args.seed", "want an unsigned integer"),
                ({"plugins": []}, "args.plugins", "want an object")):
            config = self.libsched_profile("Algorithm")
            config["profiles"][0]["pluginConfig"][0]["args"].update(args)
            path = self.write("libsched.json", json.dumps(config))
            p = simlib.run("--config", path, self.cluster)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn(f"{path}: profiles[0].pluginConfig[0].{field}: {want}", p.stderr)
        config = self.libsched_profile("Algorithm", {"percentageOfNodesToScore": 30},
                                       percentageOfNodesToScore=50)
        p = simlib.run("--config", self.write("pct.json", json.dumps(config)), self.cluster)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("LibSched's percentageOfNodesToScore 30 differs from the profile's 50",
                      p.stderr)

    def test_bad_config(self):
        path = self.write("bad.json", json.dumps(
            {"kind": "Policy", "predicates": [{"name": "PodFitsMemory"}]}))
        p = simlib.run("--config", path, self.cluster)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(path, p.stderr)
        self.assertIn("predicates[0].name", p.stderr)
        self.assertIn('predicate type not found for "PodFitsMemory"', p.stderr)
        p = simlib.run("--config", self.write("two.yaml", "a: 1\n---\nb: 2\n"), self.cluster)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("want one document", p.stderr)


if __name__ == "__main__":
    simlib.SCHEDSIM = sys.argv[1]
    EXAMPLES = sys.argv[2]
    unittest.main(argv=sys.argv[:1])
